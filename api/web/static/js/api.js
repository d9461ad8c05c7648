// The public API, as every client uses it. The API key (when the server asks for one) lives in
// this tab's sessionStorage only: it is gone when the tab closes and never reaches the URL.

const KEY_SLOT = "navod.apiKey";

export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super(body?.error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code || "";
    this.field = body?.error?.field || null;
    this.retryAfter = retryAfter;
  }
}

/** Thrown when no request could be made or no answer came back at all. */
export class NetworkError extends Error {}

let askForKey = async () => null; // replaced by the page: shows the key dialog

export function onKeyNeeded(prompt) {
  askForKey = prompt;
}

export const apiKey = () => sessionStorage.getItem(KEY_SLOT);
export const hasKey = () => Boolean(apiKey());

export function setKey(secret) {
  if (secret) sessionStorage.setItem(KEY_SLOT, secret);
  else sessionStorage.removeItem(KEY_SLOT);
}

function headers(extra = {}) {
  const key = apiKey();
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

/** fetch() with the key; a 401 asks for a key (again, saying so, when the one sent was refused)
 * and repeats the request with it, until the asker cancels. */
export async function request(path, options = {}) {
  let response;
  try {
    response = await fetch(path, { ...options, headers: headers(options.headers) });
  } catch (error) {
    throw new NetworkError(String(error));
  }
  if (response.status === 401) {
    const secret = await askForKey(hasKey());
    if (secret) {
      setKey(secret);
      return request(path, options);
    }
  }
  return response;
}

async function bodyOf(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** The JSON of a successful response; an ApiError with the server's error otherwise. */
export async function json(path, options = {}) {
  const response = await request(path, options);
  if (response.status === 204) return null;
  const body = await bodyOf(response);
  if (!response.ok) throw new ApiError(response.status, body, response.headers.get("Retry-After"));
  return body;
}

export const post = (path, body) =>
  json(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body ?? {}) });

export const remove = (path) => json(path, { method: "DELETE" });

/** Start the NDJSON stream of an answer; the caller reads it with stream.js. A status other
 * than 200 and 503 (whose body is a whole refusal stream) is an ApiError. */
export async function openStream(body) {
  const response = await request("/api/assistant/chat/stream", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/x-ndjson" },
    body: JSON.stringify(body),
  });
  if (response.ok || response.status === 503) return response;
  throw new ApiError(response.status, await bodyOf(response), response.headers.get("Retry-After"));
}
