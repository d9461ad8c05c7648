// A verbatim quote as a person reads it. Quotes come from pages converted to markdown, so a
// table row arrives as "| - | € 38.883 | – | 8,10% |" and a link as "[artikel 7a](https://…)".
// Shown, a row is its cells apart, a link is its text, and emphasis, heading and list marks are
// dropped. The API's quote stays verbatim: only what the page shows changes.

const CELL_GAP = " · ";

const SEPARATOR_CELL = /^:?-{3,}:?$/;

/** The text the page shows for `quote`: table rows one a line, their cells apart, prose as
 * plain text. */
export function quoteText(quote) {
  // a new table row starts on a line of its own with a pipe; a cell may wrap over lines
  const rows = String(quote || "").split(/\r?\n(?=[ \t]*\|)/);
  return rows
    .map((row) => (row.includes("|") ? tableRow(row) : prose(row)))
    .filter(Boolean)
    .join("\n");
}

function tableRow(row) {
  const cells = row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => inline(cell.replace(/\s+/g, " ").trim()));
  if (cells.every((cell) => !cell || SEPARATOR_CELL.test(cell))) return ""; // |---|---|
  return cells.filter(Boolean).join(CELL_GAP);
}

function prose(text) {
  const lines = text.split(/\r?\n/).map((line) =>
    line
      .replace(/^\s*#{1,6}\s+/, "") // a heading's marks
      .replace(/^\s*[-*+]\s+(?=\S)/, ""), // a list item's mark
  );
  return inline(lines.join(" ").replace(/\s+/g, " ").trim());
}

/** Links as their text, emphasis without its marks. A quote cut inside a link keeps the text
 * it has of it: "[artikel" and "Ouderdomswet](https://…)" both lose their link syntax. */
function inline(text) {
  return text
    .replace(/\[([^\]]*)\]\([^)\s]*\)?/g, "$1") // [text](url), or a url cut short
    .replace(/\]\([^)\s]*\)?/g, "") // the end of a link whose start was cut off
    .replace(/\[(?=[^\]]*$)/g, "") // the start of a link whose end was cut off
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/\*\*/g, "") // a stray bold mark (a footnote sign in some tables)
    .replace(/(^|[\s(])\*(\S(?:[^*]*\S)?)\*(?=$|[\s.,;:!?)])/g, "$1$2")
    .replace(/ {2,}/g, " ");
}
