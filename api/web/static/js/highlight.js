// Marking a rule's value in the verbatim quote that proves it. Numbers are compared by value,
// whatever their spelling ("40.000,00" and "40,000.00" are both 40000), so the highlight never
// depends on how a source writes its figures; text values are found as they are.
import { h } from "./dom.js";

const NUMBER = /\d(?:[\d.,]*\d)?/g;

/** The numeric value of a figure as written in a quote, or NaN. */
export function readFigure(written) {
  const dots = (written.match(/\./g) || []).length;
  const commas = (written.match(/,/g) || []).length;
  let plain = written;
  if (dots && commas) {
    const decimal = written.lastIndexOf(",") > written.lastIndexOf(".") ? "," : ".";
    const thousands = decimal === "," ? "." : ",";
    plain = written.split(thousands).join("").replace(decimal, ".");
  } else if (dots + commas > 0) {
    const mark = dots ? "." : ",";
    const groups = written.split(mark);
    const thousandsOnly = groups.length > 2 || groups[1].length === 3;
    plain = thousandsOnly ? groups.join("") : groups.join(".");
  }
  return Number(plain);
}

/** Spans [start, end) of `quote` that state `value`: for a numeric value (which may be a
 * range such as "15% – 22%") each of its figures, compared by value; else the value as written. */
export function valueSpans(quote, value, numeric) {
  const text = String(value ?? "").trim();
  if (numeric) {
    const targets = new Set([...text.matchAll(NUMBER)].map((match) => readFigure(match[0])));
    const spans = [];
    for (const match of quote.matchAll(NUMBER)) {
      if (targets.has(readFigure(match[0]))) spans.push([match.index, match.index + match[0].length]);
    }
    if (spans.length) return spans;
  }
  const at = text.length >= 2 ? quote.toLowerCase().indexOf(text.toLowerCase()) : -1;
  return at < 0 ? [] : [[at, at + text.length]];
}

/** The quote as nodes, each span of the value in a <mark>. */
export function markedQuote(quote, spans) {
  const nodes = [];
  let from = 0;
  for (const [start, end] of spans) {
    if (start < from) continue;
    nodes.push(quote.slice(from, start), h("mark", {}, quote.slice(start, end)));
    from = end;
  }
  nodes.push(quote.slice(from));
  return nodes;
}
