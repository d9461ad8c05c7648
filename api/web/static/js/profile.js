// The profile of the current conversation: the facts the asker stated, grouped by planning
// topic (each shown with the question that asks for it, in the interface language), and a bar
// chart of completeness per topic. A topic's bar fills the question box with its next question.
import { json } from "./api.js";
import { $, fill, h } from "./dom.js";
import { formatPercent, formatValue, language, t } from "./i18n.js";
import { labelIn, topics } from "./knowledge-cache.js";

export async function drawProfile(conversationId, actions) {
  const facts = $("#facts");
  const chart = $("#completeness");
  if (!conversationId) {
    fill(facts, h("p.muted", {}, t("noFacts")));
    fill(chart, h("p.muted", {}, t("noCompleteness")));
    return;
  }
  const [factList, completeness, known] = await Promise.all([
    json(`/api/dossiers/${conversationId}/facts`),
    json(`/api/dossiers/${conversationId}/completeness`),
    topics().catch(() => []),
  ]);
  const byId = new Map(known.map((topic) => [topic.id, topic]));
  drawFacts(facts, factList.facts, byId);
  drawChart(chart, completeness.scores, byId, actions);
}

function topicLabel(topic, id) {
  return labelIn(topic?.label, language()) || id;
}

function questionFor(topic, fact) {
  const item = topic?.checklist.find((entry) => entry.fact === fact);
  return item ? labelIn(item.question, language()) : fact.replaceAll("_", " ");
}

function drawFacts(node, facts, byId) {
  if (!facts.length) {
    fill(node, h("p.muted", {}, t("noFacts")));
    return;
  }
  const groups = new Map();
  for (const fact of facts) {
    // a later statement of the same fact replaces the earlier one
    const group = groups.get(fact.topic) || new Map();
    group.set(fact.fact_type, fact);
    groups.set(fact.topic, group);
  }
  fill(
    node,
    [...groups].map(([topicId, group]) => {
      const topic = byId.get(topicId);
      return h(
        "section.fact-group",
        {},
        h("h3", {}, topicLabel(topic, topicId)),
        h("dl", {}, [...group.values()].map((fact) => [h("dt", {}, questionFor(topic, fact.fact_type)), h("dd", {}, shownValue(fact))])),
      );
    }),
  );
}

/** Amounts in the interface's spelling ("300,000"); years, ages and words as stated. */
function shownValue(fact) {
  const money = /_(usd|eur|hrk)$/.test(fact.fact_type) && typeof fact.value === "number";
  return money ? formatValue(fact.value) : String(fact.value);
}

function missingFacts(reason) {
  const match = /missing:\s*(.+)$/.exec(reason || "");
  return match ? match[1].split(",").map((name) => name.trim()).filter(Boolean) : [];
}

function drawChart(node, scores, byId, actions) {
  if (!scores.length) {
    fill(node, h("p.muted", {}, t("noCompleteness")));
    return;
  }
  fill(
    node,
    h(
      "ul.chart",
      {},
      scores.map((score) => {
        const topic = byId.get(score.topic);
        const label = topicLabel(topic, score.topic);
        const missing = missingFacts(score.reason);
        const next = missing.length ? questionFor(topic, missing[0]) : topic?.checklist[0] ? labelIn(topic.checklist[0].question, language()) : "";
        const bar = h("span.bar-fill");
        bar.style.width = `${score.score}%`;
        const percent = formatPercent(score.score / 100);
        return h(
          "li",
          { dataset: { topic: score.topic, score: String(score.score) } },
          h(
            "button.topic-bar",
            {
              type: "button",
              "aria-describedby": `missing-${score.topic}`,
              onclick: () => next && actions.suggest(next),
            },
            h("span.topic-name", {}, label),
            h("span.topic-score", {}, percent),
            h("span.bar", { "aria-hidden": "true" }, bar),
          ),
          h(
            "p.topic-missing",
            { id: `missing-${score.topic}` },
            missing.length ? `${t("missing")}: ${missing.map((fact) => questionFor(topic, fact)).join(" ")}` : t("complete"),
          ),
        );
      }),
    ),
  );
}
