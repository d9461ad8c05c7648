// A refusal card: what Navod could not do and what to do next, for each reason, with the
// server's own message, the choices it offers (buttons that ask them), the data it needs and,
// for a conflict, both sides.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { relatedQuestions, retriable, understood } from "./answer.js";
import { sourceCard } from "./proof.js";

export function refusalBody(response, actions) {
  const reason = response.refusalReason || "NO_CITABLE_RULES";
  const [what, next] = t(`refusal.${reason}`) || [];
  const refusal = response.refusal || {};
  const clarifying = reason === "NEEDS_CLARIFICATION";
  // the advice by cause: the server's message says which dates Navod holds, if any; below it
  // either the related questions that answer, or where to see what Navod holds
  const advice = reason === "NO_CITABLE_RULES" && !response.relatedQuestions?.length ? t("refusalNoRelated") : next;
  return [
    h("div.card-head", {}, h("h3.headline", {}, response.headline || what), h(`p.card-meta`, {}, h(`span.badge.reason.reason-${reason}`, {}, t(`refusalName.${reason}`)))),
    understood(response),
    h("section.refusal-what", {}, h("h4", {}, t("refusalWhat")), h("p", {}, what), refusal.message ? h("p.refusal-message", {}, refusal.message) : null),
    h(
      "section.refusal-next",
      {},
      h("h4", {}, t("refusalNext")),
      h("p", {}, advice),
      missingData(refusal.missingData),
      redirects(refusal.redirectOptions, actions),
    ),
    relatedQuestions(clarifying ? response.relatedQuestions || refusal.relatedTopics : refusal.relatedTopics && !response.relatedQuestions ? refusal.relatedTopics : null, actions, "clarify"),
    refusal.conflictingSources?.length ? h("div.source-cards.sides", {}, refusal.conflictingSources.map((card) => sourceCard(card))) : null,
    !clarifying ? relatedQuestions(response.relatedQuestions, actions, "related") : null,
    retriable(response, actions),
  ];
}

function missingData(items) {
  if (!items?.length) return null;
  return h("ul.missing-data", {}, items.map((item) => h("li", {}, h("strong", {}, item.label), item.impact ? ` — ${item.impact}` : "")));
}

/** The server's links; the ones into Navod's own knowledge open the browse view instead. */
function redirects(options, actions) {
  if (!options?.length) return null;
  return h(
    "ul.redirects",
    {},
    options.map((option) => {
      const href = String(option.href || "");
      if (href.startsWith("/api/kb")) return h("li", {}, h("button.link-button", { type: "button", onclick: () => actions.browse() }, option.label));
      const safe = href.startsWith("/") || href.startsWith("https://") ? href : null;
      return safe ? h("li", {}, h("a", { href: safe }, option.label)) : null;
    }),
  );
}
