// The "why" drawer: the explain trace stage by stage, in the interface language. The stages'
// own decisions are technical notes in English; each is turned into a sentence here, and the
// original note stays available under it for whoever wants the exact words.
import { h } from "./dom.js";
import { formatDate, inLanguage, language, t } from "./i18n.js";
import { conceptLabels, labelIn } from "./knowledge-cache.js";

export function traceDrawer(response) {
  if (!Array.isArray(response.trace) || !response.trace.length) return null;
  const list = h("ol.trace-stages");
  const drawer = h("details.trace", {}, h("summary", {}, t("trace")), list);
  const lang = language(); // the card's: the stages are told when the drawer first opens
  drawer.addEventListener("toggle", async () => {
    if (!drawer.open || list.childElementCount) return;
    const labels = await conceptLabels();
    inLanguage(lang, () => fillTrace(list, response, (slug) => labelIn(labels.get(slug), lang) || slug));
  });
  return drawer;
}

function fillTrace(list, response, label) {
  for (const step of response.trace) {
    const name = t(`stages.${step.stage}`);
    list.append(
      h("li", {}, h("strong", {}, name.startsWith("stages.") ? step.stage : name), " ", sentence(step, response, label), h("small.technical", { lang: "en" }, step.decision)),
    );
  }
}

function sentence(step, response, label) {
  const details = step.details || {};
  const decision = String(step.decision || "");
  if (decision === "skipped") return t("trace_.skipped");
  switch (step.stage) {
    case "analyse":
      return [
        t("trace_.language", { language: t(`languages.${details.language}`) }),
        details.keywords?.length ? ` ${t("trace_.keywords", { words: details.keywords.join(", ") })}` : "",
        details.time ? ` ${t("trace_.year", { year: details.time })}` : "",
      ].join("");
    case "as_of":
      // the sentence ends in a full stop of its own ("1. siječnja 2024." has one already)
      return t(decision.includes("(today)") ? "trace_.asOfToday" : "trace_.asOf", { date: formatDate(response.asOfDate).replace(/\.$/, "") });
    case "typos":
      return t(decision === "none" ? "trace_.noTypos" : "trace_.typos");
    case "classify":
      return t(`trace_.topic.${details.topic || decision}`);
    case "match":
      return matchSentence(decision, details, label);
    case "select":
      return selectSentence(decision, details);
    case "conflicts":
      if (decision.includes(" by record ")) return t("trace_.recorded");
      return t(decision.includes("conflict") ? "trace_.conflict" : "trace_.noConflict");
    case "compute":
      return t(decision.startsWith("nothing") ? "trace_.noCompute" : "trace_.computed");
    case "citations":
      return t("trace_.cards", { count: Number.parseInt(decision, 10) || 0 });
    case "followup":
      return t("trace_.carried");
    case "validate":
      return t("trace_.validated");
    case "compose":
      return response.kind === "ANSWER" ? t("trace_.answer") : t("trace_.refused", { reason: t(`refusalName.${response.refusalReason}`) });
    default:
      return "";
  }
}

function matchSentence(decision, details, label) {
  // "chose a, b" from the question; "pinned a" from the conversation's earlier turn
  const named = /^(?:chose|pinned) (?!nothing)(.+)$/.exec(decision);
  const chosen = named ? named[1].split(/[,;]\s*/).filter(Boolean) : [];
  const others = (details.scores || []).map((score) => score.concept).filter((slug) => !chosen.includes(slug)).slice(0, 3);
  const lead = chosen.length ? t("trace_.chose", { label: chosen.map(label).join(", ") }) : t("trace_.choseNothing");
  return others.length ? `${lead} ${t("trace_.alsoConsidered", { labels: others.map(label).join("; ") })}` : lead;
}

function selectSentence(decision, details) {
  const inForce = [...decision.matchAll(/: (\d+) in force/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  const excluded = Object.values(details.excluded || {}).reduce((sum, rules) => sum + Object.keys(rules).length, 0);
  return t("trace_.inForce", { count: inForce }) + (excluded ? ` ${t("trace_.excluded", { count: excluded })}` : "");
}
