// The API-key prompt: shown when the server answers 401, once; the key is kept for this tab.
import { onKeyNeeded, setKey, hasKey } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";

let pending = null;

/** Show the dialog; resolves to the key typed, or null when cancelled. */
function promptForKey(wrong) {
  if (pending) return pending;
  const dialog = $("#key-dialog");
  const input = $("#key-input");
  const error = $("#key-error");
  error.hidden = !wrong;
  error.textContent = wrong ? t("keyWrong") : "";
  if (wrong) setKey(null);
  input.value = "";
  pending = new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        pending = null;
        const secret = dialog.returnValue === "save" ? input.value.trim() : "";
        input.value = "";
        showKeyButton();
        resolve(secret || null);
      },
      { once: true },
    );
  });
  dialog.showModal();
  input.focus();
  return pending;
}

export function showKeyButton() {
  const button = $("#key-button");
  button.hidden = false;
  button.setAttribute("aria-pressed", hasKey() ? "true" : "false");
}

export function installKeyPrompt(changed) {
  onKeyNeeded(promptForKey);
  $("#key-button").addEventListener("click", async () => {
    const secret = await promptForKey(false);
    if (secret) {
      setKey(secret);
      changed();
    }
  });
  if (hasKey()) showKeyButton();
}
