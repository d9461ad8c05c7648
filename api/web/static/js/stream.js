// The NDJSON stream of /api/assistant/chat/stream: lines merged into one response, in the
// contract's order (metadata, citations before the text, content, refusal, related, the other
// blocks, `_done` last). A stream that ends without `_done` is broken: the caller shows a retry
// message and nothing of the partial answer.

export class StreamBroken extends Error {}

/** Read `response`'s body line by line, calling `onLine(line, merged)` for each; resolves to
 * the merged response once `_done` arrives, rejects with StreamBroken otherwise. */
export async function readStream(response, onLine) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const merged = {};
  let buffer = "";
  let done = false;
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!text) continue;
        const line = parse(text);
        if (line._done === true) {
          done = true;
          continue;
        }
        mergeLine(merged, line);
        onLine(line, merged);
      }
    }
  } catch (error) {
    if (error instanceof StreamBroken) throw error;
    throw new StreamBroken(String(error));
  }
  if (!done || buffer.trim()) throw new StreamBroken("the stream ended before its last line");
  return merged;
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    throw new StreamBroken("a line of the stream is not JSON");
  }
}

/** The stream's error line carries `error` as a string and `errorDetail` as the object. */
export function mergeLine(merged, line) {
  for (const [key, value] of Object.entries(line)) {
    if (key === "errorDetail") merged.error = value;
    else if (key === "error" && typeof value === "string") merged.error = merged.error || { message: value };
    else merged[key] = value;
  }
  return merged;
}
