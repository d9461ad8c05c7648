// The proof behind an answer: one card per cited source (authority, title and reference, the
// verbatim quote with the value marked, the link, when the text was fetched, the dates in
// force, the status), and the "why" drawer with the explain trace in words. The quote is shown
// as text (quote-text.js): table rows without pipes, links as their text, "…" where it was cut.
import { h } from "./dom.js";
import { formatDate, language, t } from "./i18n.js";
import { markedQuote, valueSpans } from "./highlight.js";
import { rule, sourceOfEvidence } from "./knowledge-cache.js";
import { quoteText } from "./quote-text.js";

const NUMERIC = new Set(["percentage", "currency_eur", "currency_usd", "integer", "years"]);

/** One source card; `winner` marks the side of a conflict that applies, `setAside` the side a
 * decision on the record did not apply. */
export function sourceCard(card, { winner = false, setAside = false, said = null } = {}) {
  const quote = h("blockquote.quote", { cite: safeUrl(card.url) || undefined }, quoteText(card.quote));
  const link = safeUrl(card.url);
  const node = h(
    "article.source-card",
    { dataset: { evidence: card.evidenceId || "", card: card.id || "" } },
    h(
      "div.source-head",
      {},
      h(`span.badge.authority.authority-${card.authority}`, {}, t(`authority.${card.authority}`)),
      card.status ? h(`span.badge.status.status-${card.status}`, {}, t(`status.${card.status}`)) : null,
      winner ? h("span.badge.winner", {}, t("conflictWinner")) : null,
      setAside ? h("span.badge.set-aside", {}, t("conflictLoser")) : null,
    ),
    h("h4.source-title", {}, card.title || ""),
    card.reference ? h("p.reference", {}, card.reference) : null,
    card.quote ? quote : null,
    h(
      "ul.source-facts",
      {},
      link ? h("li", {}, h("a.source-link", { href: link, target: "_blank", rel: "noopener noreferrer" }, t("openSource"), h("span.visually-hidden", {}, `: ${card.title || ""}`))) : null,
      card.fetchedAt ? h("li.fetched", {}, t("fetched", { date: formatDate(card.fetchedAt) })) : null,
      card.effectiveFrom ? h("li.in-force", {}, t("inForce", { from: formatDate(card.effectiveFrom) })) : null,
      card.evidenceId ? h("li.evidence", {}, `${t("evidence")}: `, h("code", {}, card.evidenceId)) : null,
    ),
    freshness(card, said),
  );
  if (card.quote) decorateQuote(quote, card);
  return node;
}

/** A card's freshness badge; its warning in words only where the answer has not said it yet
 * (`said`: the sentences already on the answer card), so the card says it once. */
function freshness(card, said) {
  if (!card.freshnessStatus || card.freshnessStatus === "fresh") return null;
  const warning = card.freshnessWarning || "";
  const key = sentenceKey(warning);
  const repeat = said && key && said.has(key);
  if (said && key) said.add(key);
  return h(`p.freshness.freshness-${card.freshnessStatus}`, {}, h("span.badge", {}, t(`freshness.${card.freshnessStatus}`)), repeat ? null : ` ${warning}`);
}

/** A sentence compared without its final full stop and spacing. */
export function sentenceKey(text) {
  return (text || "").trim().replace(/[.\s]+$/u, "");
}

/** Only http(s) links are ever made clickable. */
function safeUrl(url) {
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** After the card is shown: the quote's language, the rule's value marked in the text shown,
 * and "…" on each side where the quote is a cut of the longer passage the rule cites. */
async function decorateQuote(node, card) {
  const sources = await sourceOfEvidence();
  const source = sources.get(card.evidenceId);
  if (source?.language) node.lang = source.language;
  const ruleId = String(card.id || "").split("@")[0];
  if (!ruleId) return;
  try {
    const found = await rule(ruleId);
    const shown = quoteText(card.quote);
    const spans = valueSpans(shown, found.value, NUMERIC.has(found.value_type) || /^[\d.,\s%–-]+$/.test(found.value));
    const [before, after] = cutSides(card, found.pointers, shown);
    const parts = markedQuote(shown, spans).map((part) => (typeof part === "string" ? document.createTextNode(part) : part));
    node.replaceChildren(...[before && h("span.cut", {}, "…"), ...parts, after && h("span.cut", {}, "…")].filter(Boolean));
  } catch {
    // no highlight: the quote is still shown whole, as text
  }
}

/** Whether the quote shown is cut at its start and at its end: the engine shows a long
 * passage its rule cites as a window of whole words around the value, and a passage that
 * opens in lower case starts within a sentence (a list item's "b. " aside). */
function cutSides(card, pointers, shown) {
  const passage = (pointers || []).find((p) => p.evidence_id === card.evidenceId && p.quote.includes(card.quote))?.quote || card.quote;
  const at = passage.indexOf(card.quote);
  const midSentence = /^\p{Ll}/u.test(shown) && !/^\p{Ll}{1,2}\.\s/u.test(shown);
  return [at > 0 || midSentence, at + card.quote.length < passage.trimEnd().length];
}

/** Every card of a response in order: primary, supporting, then the additional cards of the
 * values beyond the four `citations` holds (a whole table, several years). */
export function citedCards(citations, additional) {
  if (!citations?.primary) return [];
  return [citations.primary, ...(citations.supporting || []), ...(additional || [])];
}

/** The cited sources of a response, primary first. */
export function proofSection(citations, additional, said = new Set()) {
  const cards = citedCards(citations, additional);
  if (!cards.length) return null;
  return h("section.proof", { "aria-label": t("proof") }, h("h3", {}, t("proof")), h("div.source-cards", {}, cards.map((card) => sourceCard(card, { said }))));
}
