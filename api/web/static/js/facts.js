// The asker's facts in words: how each fact type is answered (yes or no, one of a few choices,
// a whole number, an amount, or words) and its value as the interface language says it. The
// fact types are the API's clientContext fields; the page never shows one by its field name.
import { formatValue, language, t } from "./i18n.js";

const YES_NO = new Set([
  "vat_registered", "pension_second_pillar", "heeft_partner", "medicare_enrolled",
  "long_term_care_insurance", "has_will", "gifts_planned",
]);
export const CHOICES = {
  entity_type: ["pausalni_obrt", "obrt", "doo", "freelancer"],
  municipality_type: ["opcina", "grad", "grad_zagreb"],
  health_coverage: ["medicare", "employer", "marketplace", "none"],
  housing_plan: ["stay", "downsize", "move"],
};
const WHOLE = new Set([
  "birth_year", "age", "spouse_birth_year", "spouse_age", "hours_worked", "partner_uren",
  "startersaftrek_ao_eerdere_jaren", "social_security_claim_age",
]);
const CURRENCY = { eur: "EUR", usd: "USD", hrk: "HRK" };

/** How a fact is answered: "yesNo", "choice", "whole", "amount" or "words". */
export function kindOf(factType) {
  if (YES_NO.has(factType)) return "yesNo";
  if (factType in CHOICES) return "choice";
  if (WHOLE.has(factType)) return "whole";
  if (currencyOf(factType)) return "amount";
  return "words";
}

/** The currency an amount is stated in ("annual_receipts_eur" → EUR; the WOZ value in euros). */
export function currencyOf(factType) {
  if (factType === "eigenwoningwaarde") return "EUR";
  const match = /_(eur|usd|hrk)$/.exec(factType);
  return match ? CURRENCY[match[1]] : null;
}

/** A choice in the interface language ("pausalni_obrt" → "paušalni obrt"). */
export const choiceText = (factType, value) => t(`factValue.${factType}.${value}`);

/** A fact's value as the interface language says it. */
export function valueText(fact) {
  const { fact_type: type, value } = fact;
  if (value === null || value === undefined) return t("unreadableFact");
  switch (kindOf(type)) {
    case "yesNo":
      return t(value ? "yes" : "no");
    case "choice":
      return CHOICES[type].includes(value) ? choiceText(type, value) : String(value);
    case "amount":
      return formatValue(String(value), currencyOf(type));
    case "whole":
      return String(value);
    default:
      return wordsOf(type, String(value));
  }
}

/** Places are kept folded ("new york", "porec"): shown with capitals; a month as its name. */
function wordsOf(type, value) {
  if (type === "state_of_residence" || type === "city") return value.replace(/(^|[\s-])\p{L}/gu, (start) => start.toUpperCase());
  const month = /^(\d{4})-(\d{2})$/.exec(value);
  if (type === "retirement_date" && month) {
    const stamp = new Date(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1));
    return new Intl.DateTimeFormat({ hr: "hr-HR", nl: "nl-NL", en: "en-US" }[language()], { month: "long", year: "numeric", timeZone: "UTC" }).format(stamp);
  }
  return value;
}

/** The value typed or chosen in a fact's input, as the facts API takes it; null if empty. */
export function enteredValue(factType, raw) {
  const text = String(raw ?? "").trim();
  if (!text) return null;
  switch (kindOf(factType)) {
    case "yesNo":
      return text === "true";
    case "whole":
      return Number.isInteger(Number(text)) ? Number(text) : text;
    case "amount": {
      // the asker's spelling: "45.000", "45,000" or "45 000" are forty-five thousand
      const digits = text.replace(/[\s.,'’](?=\d{3}(\D|$))/g, "").replace(",", ".");
      const amount = Number(digits);
      return Number.isFinite(amount) ? amount : text;
    }
    default:
      return text;
  }
}
