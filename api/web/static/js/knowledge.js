// The knowledge browser: concepts and sources with search and a country filter; a concept
// opens with its value history as a timeline (one lane per rule, so overlapping rules stay
// visible) and the same history as a table for screen readers and exact dates. Every value is
// shown in the interface language (formatRuleValue), never as the pack wrote it.
import { json } from "./api.js";
import { $, fill, h } from "./dom.js";
import { formatDate, formatRuleValue, language, t } from "./i18n.js";
import { concepts, labelIn, rule, sources } from "./knowledge-cache.js";

const SHOWN = 80;

export async function drawKnowledge(actions) {
  const [allConcepts, allSources] = await Promise.all([concepts(), sources()]);
  const search = $("#kb-search");
  const country = $("#kb-country");
  const redraw = () => drawLists(allConcepts, allSources, search.value, country.value, actions);
  search.oninput = redraw;
  country.onchange = redraw;
  redraw();
}

function fold(text) {
  return String(text || "").normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
}

function matches(words, ...fields) {
  const haystack = fold(fields.flat(2).join(" "));
  return words.every((word) => haystack.includes(word));
}

// How closely a concept's names meet the search: 0 a name is the search ("KOR" → the KOR),
// 1 a name starts with it, 2 every word of it is a whole word of one name, 3 it is found inside
// a name ("heffingskorting" holds "kor"). Closer first; ties keep the knowledge base's order.
function closeness(words, names) {
  const wanted = words.join(" ");
  const folded = names.map((name) => fold(name));
  if (folded.some((name) => name === wanted)) return 0;
  if (folded.some((name) => name.startsWith(wanted))) return 1;
  if (folded.some((name) => words.every((word) => name.split(/[^\p{L}\p{N}]+/u).includes(word)))) return 2;
  return 3;
}

function conceptNames(c) {
  return [c.slug.split("-").slice(1).join(" "), ...Object.values(c.labels), ...Object.values(c.aliases || {}).flat()];
}

function drawLists(allConcepts, allSources, query, country, actions) {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const lang = language();
  const foundConcepts = allConcepts
    .filter((c) => (!country || c.jurisdiction === country) && matches(words, c.slug, Object.values(c.labels), Object.values(c.aliases || {})))
    .map((c, index) => ({ c, index, rank: words.length ? closeness(words, conceptNames(c)) : 0 }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ c }) => c);
  const foundSources = allSources.filter(
    (s) => (!country || s.jurisdiction === country) && matches(words, s.id, s.title, s.act, s.publisher),
  );
  $("#kb-concepts-count").textContent = t("results", { count: foundConcepts.length });
  $("#kb-sources-count").textContent = t("results", { count: foundSources.length });
  fill(
    $("#kb-concepts"),
    foundConcepts.length
      ? foundConcepts.slice(0, SHOWN).map((c) =>
          h("li", {}, h("button.concept", { type: "button", dataset: { slug: c.slug }, onclick: () => actions.concept(c.slug) }, h("span.badge.country", {}, c.jurisdiction), " ", labelIn(c.labels, lang))),
        )
      : h("li.muted", {}, t("noResults")),
  );
  fill(
    $("#kb-sources"),
    foundSources.length
      ? foundSources.slice(0, SHOWN).map((s) =>
          h(
            "li.kb-source",
            {},
            h("span.badge.country", {}, s.jurisdiction),
            " ",
            h(`span.badge.authority.authority-${s.authority}`, {}, t(`authority.${s.authority}`)),
            " ",
            /^https?:\/\//.test(s.url) ? h("a", { href: s.url, target: "_blank", rel: "noopener noreferrer" }, s.title) : s.title,
            h("span.muted", {}, ` — ${s.publisher}`),
          ),
        )
      : h("li.muted", {}, t("noResults")),
  );
}

/** Open the concept `slug` names (the page's address says which: see main.js). */
export async function showConcept(slug, actions) {
  const concept = (await concepts()).find((c) => c.slug === slug);
  if (concept) await openConcept(concept, actions);
  else fill($("#kb-concept"), h("p.muted", {}, t("noResults")));
}

async function openConcept(concept, actions) {
  const panel = $("#kb-concept");
  const label = labelIn(concept.labels, language());
  fill(panel, h("p.muted", {}, t("loading")));
  const view = await json(`/api/kb/concepts/${encodeURIComponent(concept.slug)}`);
  const shown = await shownValues(view.history);
  fill(
    panel,
    h("h3", { id: "kb-concept-title", tabindex: "-1" }, label),
    h("p.muted", {}, h("code", {}, concept.slug), ` · ${t(`jurisdictions.${concept.jurisdiction}`)}`),
    h("button.ask-about", { type: "button", onclick: () => actions.suggest(`${label}?`) }, t("askAbout")),
    h("h4", {}, t("history")),
    timeline(view.history, shown),
    h("h4", {}, t("historyTable")),
    historyTable(view.history, shown),
  );
  $("#kb-concept-title").focus();
}

/** rule id → its value in the interface language. The history names each rule's value and
 * unit; the rule itself adds the value's type and the pack's wording of a text value in each
 * language ("1. travnja" for "April 1"). Without the rule, the value is read from its unit. */
async function shownValues(history) {
  const lang = language();
  const rules = await Promise.all(history.map((entry) => rule(entry.rule).catch(() => entry)));
  return new Map(history.map((entry, index) => [entry.rule, formatRuleValue(rules[index], lang)]));
}

const DAY = 86400000;
const time = (day) => Date.parse(`${day}T00:00:00Z`);

/** One lane per rule, placed between the earliest start and the latest end (today for rules
 * still in force). */
function timeline(history, shown) {
  if (!history.length) return h("p.muted", {}, t("noResults"));
  const today = new Date().toISOString().slice(0, 10);
  const start = Math.min(...history.map((entry) => time(entry.effective_from)));
  const end = Math.max(time(today), ...history.map((entry) => time(entry.effective_until || today))) + DAY;
  const span = Math.max(end - start, DAY);
  const lanes = history.map((entry) => {
    const from = time(entry.effective_from);
    const until = entry.effective_until ? time(entry.effective_until) : end;
    const segment = h(
      `span.segment.status-${entry.status}.authority-${entry.authority}`,
      { title: `${shown.get(entry.rule)} · ${formatDate(entry.effective_from)} – ${entry.effective_until ? formatDate(entry.effective_until) : t("open")}` },
      shown.get(entry.rule),
    );
    segment.style.left = `${((from - start) / span) * 100}%`;
    segment.style.width = `${Math.max(((until - from) / span) * 100, 2)}%`;
    return h("li.lane", {}, segment);
  });
  return h(
    "figure.timeline",
    { "aria-hidden": "true" },
    h("ol.lanes", {}, lanes),
    h("p.axis", {}, h("span", {}, formatDate(new Date(start).toISOString())), h("span", {}, t("today"))),
  );
}

function historyTable(history, shown) {
  return h(
    "table.history",
    {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("value")), h("th", { scope: "col" }, t("from")), h("th", { scope: "col" }, t("until")), h("th", { scope: "col" }, t("source")))),
    h(
      "tbody",
      {},
      history.map((entry) =>
        h(
          "tr",
          {},
          h("td", {}, shown.get(entry.rule)),
          h("td", {}, formatDate(entry.effective_from)),
          // effective_until is exclusive: the last day in force is the day before
          h("td", {}, entry.effective_until ? formatDate(new Date(time(entry.effective_until) - DAY).toISOString()) : t("open")),
          h("td", {}, t(`authority.${entry.authority}`)),
        ),
      ),
    ),
  );
}
