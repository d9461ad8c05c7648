// The interface in the asker's language (hr, nl, en): every word the page itself writes.
// Answers, refusals and labels from the server already come in the language of the answer.

import en from "./strings/en.js";
import hr from "./strings/hr.js";
import nl from "./strings/nl.js";

const STRINGS = { en, hr, nl };

export const LANGUAGES = ["hr", "nl", "en"];
let current = "en";

export function setLanguage(language) {
  current = LANGUAGES.includes(language) ? language : "en";
  document.documentElement.lang = current;
}

export const language = () => current;

/** `draw()` with the page's words in `lang`: a card speaks the language of its answer, whatever
 * the interface has switched to since (a Dutch answer keeps "Wat Navod niet kon"). */
export function inLanguage(lang, draw) {
  if (!LANGUAGES.includes(lang)) return draw();
  const before = current;
  current = lang;
  try {
    return draw();
  } finally {
    current = before;
  }
}

/** The string `key` ("trace_.chose") in the interface language, `{name}` filled from `values`. */
export function t(key, values = {}) {
  let found = key.split(".").reduce((node, part) => (node == null ? node : node[part]), STRINGS[current]);
  if (found == null) found = key.split(".").reduce((node, part) => (node == null ? node : node[part]), STRINGS.en);
  if (typeof found !== "string") return found ?? key;
  return found.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

/** The language a browser prefers, when it is one of ours. */
export function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

const LOCALES = { hr: "hr-HR", nl: "nl-NL", en: "en-US" };

/** "2024-01-01" or an ISO time, as a date in the interface language ("1. siječnja 2024."). */
export function formatDate(value, lang = current) {
  if (!value) return "";
  const day = String(value).slice(0, 10);
  const [year, month, date] = day.split("-").map(Number);
  if (!year || !month || !date) return String(value);
  const stamp = new Date(Date.UTC(year, month - 1, date));
  return new Intl.DateTimeFormat(LOCALES[lang] || "en-US", { dateStyle: "long", timeZone: "UTC" }).format(stamp);
}

/** A rule's value with its unit; plain figures ("39816.84") in the interface's spelling. */
export function formatValue(value, unit = "") {
  const text = String(value ?? "");
  const figure = /^-?\d+(?:\.(\d+))?$/.exec(text);
  const shown = figure
    ? new Intl.NumberFormat(LOCALES[current], { minimumFractionDigits: figure[1]?.length || 0 }).format(Number(text))
    : text;
  return unit ? `${shown} ${unit}` : shown;
}

// Units packs write in their source's language, each worded in the interface's (as the engine
// words them: engine/text/formatting.py).
const UNIT_OF = {
  dana: "day", dan: "day", days: "day", dagen: "day",
  "dan u mjesecu": "dayOfMonth",
  "dana po isteku kalendarske godine": "daysAfterYearEnd",
  months: "month", mjeseci: "month", maanden: "month",
  uren: "hour", uur: "hour", hours: "hour", sati: "hour",
  godine: "year", godina: "year", jaar: "year", years: "year",
};
const TYPE_OF_UNIT = { "%": "percentage", EUR: "currency_eur", USD: "currency_usd", years: "years" };
const CURRENCY = { currency_eur: ["€", "EUR"], currency_usd: ["$", "USD"] };

/** A rule's value ({value, value_type, unit, value_label}, as /api/kb/rules/{id} gives it) in
 * the interface language: the pack's wording of a text value ("1. travnja" for "April 1"),
 * dates, figures, currencies and units as the language writes them ("70 ½ godina",
 * "60.000,00 EUR", "€ 20.000", "$7,500", "8,10%"). Without a value_type it is read from the
 * unit. A value that does not read as its type is shown as written. */
export function formatRuleValue(rule, lang = current) {
  return inLanguage(lang, () => ruleValue(rule, LANGUAGES.includes(lang) ? lang : "en"));
}

function ruleValue(rule, lang) {
  const value = String(rule.value ?? "").trim();
  const unit = String(rule.unit || "").trim();
  const worded = rule.value_label?.[lang];
  const kind = UNIT_OF[unit];
  // a worded figure without its unit ("70 ½" years) gets the unit's noun
  if (worded) return /\p{L}/u.test(worded) || !kind ? worded : `${worded} ${noun(t(`valueWords.${kind}`), NaN, lang)}`;
  const type = rule.value_type || (/^\d{4}-\d{2}-\d{2}$/.test(value) ? "date" : TYPE_OF_UNIT[unit] || "integer");
  if (type === "text") return value;
  if (type === "boolean") return t(["true", "yes", "1", "da", "ja"].includes(value.toLowerCase()) ? "valueWords.yes" : "valueWords.no");
  if (type === "date") return formatDate(value, lang);
  if (!/^-?\d+(\.\d+)?$/.test(value)) return value;
  const amount = Number(value);
  if (type === "percentage") return `${figure(value, lang)}${lang === "hr" ? " %" : "%"}`;
  if (CURRENCY[type]) {
    const [symbol, code] = CURRENCY[type];
    if (lang === "hr") return `${figure(value, lang, 2)} ${code}`; // Croatian practice: cents, code after
    const shown = figure(value, lang, Number.isInteger(amount) ? 0 : 2);
    return lang === "nl" ? `${symbol} ${shown}` : `${symbol}${shown}`;
  }
  const unitKind = type === "years" ? "year" : kind;
  if (!unitKind) return unit ? `${figure(value, lang)} ${unit}` : figure(value, lang);
  const nouns = t(`valueWords.${unitKind === "daysAfterYearEnd" ? "day" : unitKind}`);
  const phrase = { dayOfMonth: "valueWords.dayOfMonth", daysAfterYearEnd: "valueWords.daysAfterYearEnd" }[unitKind];
  const named = noun(nouns, amount, lang);
  return phrase ? t(phrase, { n: figure(value, lang), noun: named }) : `${figure(value, lang)} ${named}`;
}

/** A plain figure ("39816.84") grouped and pointed as `lang` writes it, with the decimals it
 * was written with unless `decimals` says how many. */
function figure(value, lang, decimals) {
  const places = decimals ?? (value.split(".")[1] || "").length;
  const [whole, fraction] = Math.abs(Number(value)).toFixed(places).split(".");
  const [group, point] = lang === "en" ? [",", "."] : [".", ","];
  const sign = Number(value) < 0 ? "-" : "";
  return sign + whole.replace(/\B(?=(\d{3})+$)/g, group) + (fraction ? point + fraction : "");
}

/** The form of a noun (`forms`: one, few, many) that goes with `amount`; Croatian agrees 2–4
 * apart from 5–20 (2 godine, 5 godina), a fraction takes the "few" form there. */
function noun(forms, amount, lang) {
  const [one, few, many] = Array.isArray(forms) ? forms : ["", "", ""];
  if (!Number.isInteger(amount)) return lang === "hr" ? few : many;
  if (lang !== "hr") return amount === 1 ? one : many;
  if (amount % 10 === 1 && amount % 100 !== 11) return one;
  if ([2, 3, 4].includes(amount % 10) && ![12, 13, 14].includes(amount % 100)) return few;
  return many;
}

export function formatPercent(fraction) {
  return new Intl.NumberFormat(LOCALES[current], { style: "percent", maximumFractionDigits: 0 }).format(fraction);
}

/** Apply the interface language to every element carrying data-i18n (text) or data-i18n-attr. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":");
      node.setAttribute(attribute, t(key));
    }
  }
}
