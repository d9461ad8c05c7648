// What went wrong, in the interface language: the server's error codes and the page's own
// failures mapped to the page's words (the server writes its error messages in English).
import { ApiError, NetworkError } from "./api.js";
import { t } from "./i18n.js";
import { StreamBroken } from "./stream.js";

export function problemText(error) {
  if (error instanceof StreamBroken) return t("broken");
  if (error instanceof NetworkError) return t("network");
  if (!(error instanceof ApiError)) return t("failed");
  if (error.status === 404) return t("unknownConversation");
  if (error.status === 429) return t("rateLimited", { seconds: error.retryAfter || 60 });
  if (error.status === 503) return t("unavailable");
  if (error.status === 401) return t("keyExplain");
  if (error.status === 400 || error.status === 413) return t("badRequest", { message: error.field || error.code });
  return t("failed");
}

/** A question the server will never take as it is: asking again would not help. */
export const retryHelps = (error) => !(error instanceof ApiError && (error.status === 400 || error.status === 413));
