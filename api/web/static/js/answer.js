// The card of one response, drawn again from the merged response after every stream line, so
// what is on screen is always exactly what has arrived: citations first, then the text, then
// the other blocks. Refusals are drawn by refusal.js. A card says each thing once: a line the
// answer's headline or text already says is not repeated below it.
import { h } from "./dom.js";
import { formatDate, inLanguage, t } from "./i18n.js";
import { concepts, rule } from "./knowledge-cache.js";
import { citedCards, proofSection, sentenceKey, sourceCard } from "./proof.js";
import { refusalBody } from "./refusal.js";
import { traceDrawer } from "./trace.js";

/** Everything of `response` that has arrived, as the children of an answer card. `actions`
 * holds the page's callbacks: ask(question), retry(), browse(). */
export function cardContent(response, actions) {
  return inLanguage(response.language, () => cardBody(response, actions));
}

function cardBody(response, actions) {
  const lang = response.language;
  if (response.kind === "REFUSAL" || response.refusalReason) return withLanguage(lang, refusalBody(response, actions));
  return withLanguage(lang, [
    response.headline ? header(response) : null,
    understood(response),
    conflictBanner(response.conflict),
    directAnswer(response),
    asks(response) || details(response),
    clientData(response),
    response.missingContext ? h("p.missing-context", {}, response.missingContext.message) : null,
    response.nextStep ? h("p.next-step", {}, h("strong", {}, `${t("nextStep")}: `), response.nextStep) : null,
    why(response),
    // a sentence the key details already say (how long the source vouches for the value) is
    // not repeated on each source card
    proofSection(response.citations, response.additionalCitations, new Set((response.keyDetails || []).map(sentenceKey))),
    traceDrawer(response),
    relatedQuestions(response.relatedQuestions, actions, "related"),
    disclaimer(response.disclaimer),
    retriable(response, actions),
  ]);
}

function withLanguage(lang, children) {
  return h("div.card-body", { lang: lang || undefined }, children);
}

function header(response) {
  const badge = response.obligationContext?.badge;
  return h(
    "div.card-head",
    {},
    h("h3.headline", {}, response.headline),
    h(
      "p.card-meta",
      {},
      response.asOfDate ? h("span.as-of", {}, t("answerAsOf", { date: formatDate(response.asOfDate) })) : null,
      // what the confidence rests on, in words a person can act on; the number stays in the API
      response.confidence ? h(`span.badge.confidence.confidence-${response.confidence.level}`, {}, `${t("confidence")}: ${t(`confidenceLevel.${response.confidence.level}`)}`) : null,
      response.confidence?.rationale ? h("span.confidence-basis", {}, response.confidence.rationale) : null,
      badge?.text ? h(`span.badge.obligation.obligation-${badge.level}`, {}, badge.text) : null,
    ),
  );
}

/** The answer's text below its headline: a text that opens with the headline says only the
 * rest ("… (ZPDV čl. 79). In force since …" under "… (ZPDV čl. 79)"). */
function directAnswer(response) {
  const text = response.directAnswer || "";
  const headline = String(response.headline || "");
  const rest = headline && !headline.endsWith("…") && text.startsWith(headline) ? text.slice(headline.length).replace(/^[\s.]+/u, "") : text;
  return rest ? h("p.direct-answer", {}, rest) : null;
}

/** What Navod read in the question, each part once; left out when the answer itself says
 * all of it (a message that only tells facts is answered "Noted: <the facts>"). */
export function understood(response) {
  const text = response.understood?.text;
  if (!text) return null;
  const lead = text.indexOf(": ") + 1; // "Understood:"
  const parts = [...new Set(text.slice(lead).split(" · ").map((part) => part.trim()))];
  if (response.directAnswer && parts.every((part) => said(part, response.directAnswer))) return null;
  return h("p.understood", {}, `${text.slice(0, lead)} ${parts.join(" · ")}`.trim());
}

/** Whether `text` is already said in `where` (spacing and a final full stop aside). */
function said(text, where) {
  const plain = (value) => sentenceKey(String(value || "").replace(/\s+/g, " "));
  return Boolean(plain(text)) && plain(where).includes(plain(text));
}

function conflictBanner(conflict) {
  if (!conflict) return null;
  const recorded = Boolean(conflict.resolutionId); // settled by the knowledge maintainers, on the record
  const title = t(recorded ? "conflictRecorded" : "conflict");
  const loser = recorded ? conflict.loser?.sourceId : null;
  return h(
    recorded ? "section.conflict-banner.recorded" : "section.conflict-banner",
    { role: "note", "aria-label": title },
    h("h4", {}, title),
    h("p", {}, conflict.description || ""),
    recorded ? recordedDecision(conflict) : null,
    h("div.source-cards.sides", {}, (conflict.sources || []).map((card) => sourceCard(card, { winner: card.id === conflict.winningSourceId, setAside: card.id === loser }))),
  );
}

/** What a decision on the record applied and set aside, why, and who decided it when. */
function recordedDecision(conflict) {
  const value = (side) => side?.valueText || side?.value || "";
  const decided = t("conflictDecidedBy", { by: conflict.decidedBy || "", date: formatDate(conflict.decidedAt), strategy: t(`strategy.${conflict.strategy}`) });
  return h(
    "dl.recorded-decision",
    {},
    h("dt", {}, t("conflictApplied")),
    h("dd.applied", {}, value(conflict.winner)),
    h("dt", {}, t("conflictSetAside")),
    h("dd.set-aside", {}, value(conflict.loser)),
    h("dt", {}, t("conflictRationale")),
    h("dd.rationale", {}, conflict.rationale || ""),
    h("dt", {}, t("conflictDecided")),
    h("dd.decided", {}, decided),
  );
}

/** One row per ask (a fact, a year, a row of a table), each value with its condition and a
 * link to the card that proves it; null when the question asked one value. A value that
 * depends on the asker's facts is one ask whose rows come with the question that settles them. */
function asks(response) {
  const asked = response.understood?.asks || [];
  if (asked.length < 2 && (asked[0]?.values || []).length < 2) return null;
  const cards = citedCards(response.citations, response.additionalCitations);
  const numbers = new Map(cards.map((card, index) => [card.id, index + 1]));
  const clarification = response.obligationContext?.clarification;
  const conditional = response.obligationContext?.type === "CONDITIONAL" && Boolean(clarification);
  const rows =
    asked.length === 1
      ? askValues(asked[0], numbers)
      : h("ol", {}, asked.map((ask) => askRow(ask, numbers)));
  return h(
    conditional ? "section.asks.conditional" : "section.asks",
    {},
    h("h4", {}, t(conditional ? "dependsOn" : "asks")),
    rows,
    conditional ? h("p.clarification", {}, clarification) : null,
  );
}

/** An ask's line; its one plain value's proof link sits on the line itself. */
function askRow(ask, numbers) {
  const values = ask.values || [];
  const single = values.length === 1 && !values[0].condition && numbers.has(values[0].card);
  return h(
    `li.ask.ask-${ask.status || "answered"}`,
    single ? { dataset: { card: values[0].card } } : {},
    h("p.ask-text", {}, ask.text, single ? [" ", proofLink(values[0].card, numbers)] : null),
    single ? null : askValues(ask, numbers),
  );
}

function proofLink(id, numbers) {
  return h("a.ask-proof", { href: "#", onclick: (event) => showCard(event, id) }, t("askProof", { n: numbers.get(id) }));
}

function askValues(ask, numbers) {
  const values = (ask.values || []).filter((value) => numbers.has(value.card));
  if (!values.length) return null;
  return h(
    "ul.ask-values",
    {},
    values.map((value) =>
      h(
        "li",
        { dataset: { card: value.card } },
        h("span.ask-value", {}, value.condition ? `${value.shown} (${value.condition})` : value.shown),
        " ",
        proofLink(value.card, numbers),
      ),
    ),
  );
}

/** Bring a value's card into view within its own answer. */
function showCard(event, id) {
  event.preventDefault();
  const card = [...event.target.closest(".card-body").querySelectorAll(".proof .source-card")].find((node) => node.dataset.card === id);
  if (!card) return;
  card.scrollIntoView({ block: "nearest" });
  card.classList.add("shown");
  setTimeout(() => card.classList.remove("shown"), 1500);
}

/** Key details, or, when the value depends on the asker's facts, one row per condition. */
function details(response) {
  // rows that each state a value under a condition come with the question that settles them
  const conditional = response.obligationContext?.type === "CONDITIONAL" && Boolean(response.obligationContext.clarification);
  // a detail the answer's text already says ("In force since …") is not said again
  const rows = (response.keyDetails || []).filter((row) => conditional || !said(row, response.directAnswer));
  if (!rows.length) return null;
  return h(
    conditional ? "section.conditional" : "section.key-details",
    {},
    h("h4", {}, t(conditional ? "dependsOn" : "keyDetails")),
    h("ul", {}, rows.map((row) => h("li", {}, row))),
    conditional && response.obligationContext.clarification ? h("p.clarification", {}, response.obligationContext.clarification) : null,
  );
}

/** The client data an APP answer used, and what was computed from it: only what the
 * headline and the answer's text do not say already (they state the computed result). */
function clientData(response) {
  const block = response.clientContext;
  if (!block) return null;
  const result = block.computedResult;
  const line = result && !(said(result.label, response.headline) && said(result.value, response.headline)) ? `${result.label}: ${result.value}` : "";
  const explanation = result?.explanation && !said(result.explanation, response.directAnswer) ? result.explanation : "";
  const used = (block.used || []).filter((point) => !said(point.value, response.directAnswer));
  const assumptions = block.assumptions || [];
  if (!line && !explanation && !used.length && !assumptions.length) return null;
  return h(
    "section.client-data",
    {},
    line || explanation ? h("p.computed", {}, line ? h("strong", {}, line) : null, explanation ? `${line ? " " : ""}${explanation}` : "") : null,
    used.length ? h("ul.used", {}, used.map((point) => h("li", {}, `${factName(point.label)}: ${point.value}`))) : null,
    assumptions.map((text) => h("p.assumption", {}, text)),
  );
}

/** A fact's name in words ("turnover" → "Promet"), never the field's key. */
function factName(name) {
  const key = `factNames.${name}`;
  const worded = t(key);
  return worded === key ? String(name).replaceAll("_", " ") : worded;
}

/** The reasons, collapsed, each one whole: a bullet the contract's 140 characters cut ("…")
 * is completed from the rule's explanation or the concept's caveat it was cut from. */
function why(response) {
  // what the conflict banner already says (the decision on the record, its rationale) is not
  // said again among the reasons
  const banner = [response.conflict?.description, response.conflict?.rationale].filter(Boolean).join(" ");
  const bullets = (response.why?.bullets || []).filter((bullet) => !(banner && said(bullet.replace(/…$/u, ""), banner)));
  if (!bullets.length) return null;
  const items = bullets.map((bullet) => h("li", {}, bullet));
  if (bullets.some(isCut)) wholeBullets(items, bullets, response);
  return h("details.why", {}, h("summary", {}, t("why")), h("ul", {}, items));
}

const isCut = (bullet) => bullet.endsWith("…");

async function wholeBullets(items, bullets, response) {
  const lang = response.language;
  const cards = [...citedCards(response.citations, response.additionalCitations), ...(response.conflict?.sources || [])];
  const ids = [...new Set(cards.map((card) => String(card.id || "").split("@")[0]).filter(Boolean))];
  const [rules, known] = await Promise.all([Promise.all(ids.map((id) => rule(id).catch(() => null))), concepts().catch(() => [])]);
  const cited = rules.filter(Boolean);
  const slugs = new Set(cited.map((found) => found.concept));
  const texts = [
    ...cited.map((found) => found.explanation?.[lang] || found.explanation?.en),
    ...known.filter((concept) => slugs.has(concept.slug)).map((concept) => concept.caveat?.[lang]),
  ].filter(Boolean);
  bullets.forEach((bullet, index) => {
    if (!isCut(bullet)) return;
    const start = bullet.slice(0, -1);
    const whole = texts.find((text) => text.length > start.length && text.startsWith(start));
    if (whole) items[index].textContent = whole;
  });
}

/** Buttons that ask the question they show. */
export function relatedQuestions(questions, actions, kind) {
  if (!questions?.length) return null;
  return h(
    `nav.related.${kind}`,
    { "aria-label": t(kind === "clarify" ? "clarify" : "related") },
    h("h4", {}, t(kind === "clarify" ? "clarify" : "related")),
    h("ul", {}, questions.map((question) => h("li", {}, h("button.ask-this", { type: "button", onclick: () => actions.ask(question) }, question)))),
  );
}

function disclaimer(block) {
  if (!block) return null;
  return h(
    "footer.disclaimer",
    {},
    block.highRiskWarning ? h("p.high-risk", { role: "note" }, block.highRiskWarning) : null,
    h("details", {}, h("summary", {}, block.short), h("p", {}, block.expanded)),
  );
}

export function retriable(response, actions) {
  if (!response.error) return null;
  return h(
    "div.retry",
    { role: "alert" },
    h("p", {}, response.error.message || t("failed")),
    response.error.retriable ? h("button.retry-button", { type: "button", onclick: () => actions.retry() }, t("retry")) : null,
  );
}
