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
