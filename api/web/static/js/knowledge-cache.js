// What the page looks up about the knowledge base, each fetched once per page: concept labels
// (for the explain trace and the browse view), sources (a quote's language) and rules (the
// value to highlight in a quote).
import { json } from "./api.js";

const once = new Map();

function cached(key, load) {
  if (!once.has(key)) once.set(key, load().catch((error) => {
    once.delete(key); // a failed lookup is tried again next time
    throw error;
  }));
  return once.get(key);
}

export const concepts = () => cached("concepts", async () => (await json("/api/kb/concepts")).concepts);
export const sources = () => cached("sources", async () => (await json("/api/kb/sources")).sources);
export const topics = () => cached("topics", async () => (await json("/api/kb/topics")).topics);
export const rule = (id) => cached(`rule:${id}`, () => json(`/api/kb/rules/${encodeURIComponent(id)}`));

/** slug → labels, or an empty map when the concepts cannot be read. */
export async function conceptLabels() {
  try {
    return new Map((await concepts()).map((concept) => [concept.slug, concept.labels]));
  } catch {
    return new Map();
  }
}

/** evidence id → its source, or an empty map when the sources cannot be read. */
export async function sourceOfEvidence() {
  try {
    const bySource = new Map();
    for (const source of await sources()) for (const id of source.evidence) bySource.set(id, source);
    return bySource;
  } catch {
    return new Map();
  }
}

export function labelIn(labels, language) {
  return (labels && (labels[language] || labels.en)) || "";
}
