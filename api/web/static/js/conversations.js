// The sidebar: the asker's conversations (new, switch, delete), the turns of the current one
// and its sources with select/unselect toggles — the API's own operations. With a key the
// server lists the key's conversations; without one (anonymous conversations are never
// listed) the browser remembers the ids it created, and nothing else, in localStorage. A turn
// reopens in full: the server keeps the response each turn was answered with.
import { ApiError, hasKey, json, post, remove } from "./api.js";
import { $, announce, fill, h } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { problemText } from "./problems.js";

const IDS_SLOT = "navod.conversations";
const MOST_REMEMBERED = 50;
export const CONVERSATION_ID = /^dos_[0-9a-f]{32}$/;

// The conversation this tab shows; the page's address names it (main.js), so a new tab starts
// a new conversation and a link reopens the one it names.
let current = null;

export const currentId = () => current;

export function setCurrent(id) {
  current = id || null;
}

function rememberedIds() {
  try {
    const ids = JSON.parse(localStorage.getItem(IDS_SLOT) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => CONVERSATION_ID.test(id)) : [];
  } catch {
    return [];
  }
}

function rememberIds(ids) {
  localStorage.setItem(IDS_SLOT, JSON.stringify(ids.slice(0, MOST_REMEMBERED)));
}

/** A conversation the page created: remembered for the anonymous list. */
export function remember(id) {
  if (!hasKey()) rememberIds([id, ...rememberedIds().filter((known) => known !== id)]);
  setCurrent(id);
}

function forget(id) {
  rememberIds(rememberedIds().filter((known) => known !== id));
  if (currentId() === id) setCurrent(null);
}

/** The conversation's full view, or null when it is gone (deleted, expired, another key's). */
export async function loadView(id) {
  try {
    return await json(`/api/dossiers/${id}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      forget(id);
      return null;
    }
    throw error;
  }
}

/** Summaries, most recently updated first. */
async function listConversations() {
  if (hasKey()) return (await json("/api/dossiers?limit=50")).dossiers;
  const views = await Promise.all(rememberedIds().map((id) => loadView(id)));
  return views
    .filter(Boolean)
    .map((view) => ({ id: view.id, updatedAt: view.updatedAt, turns: view.index.length, lastQuestion: view.index.at(-1)?.question || null }))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** Draw the list; `actions.open(id)` switches, `actions.deleted(id)` follows a deletion. */
export async function drawConversationList(actions) {
  const list = $("#conversation-list");
  let summaries;
  try {
    summaries = await listConversations();
  } catch (error) {
    fill(list, h("li.muted", {}, problemText(error)));
    return;
  }
  if (!summaries.length) {
    fill(list, h("li.muted", {}, t("noConversations")));
    return;
  }
  const current = currentId();
  fill(
    list,
    summaries.map((summary) => {
      const title = summary.lastQuestion || t("newConversation");
      return h(
        "li.conversation",
        { dataset: { id: summary.id } },
        h(
          "button.open-conversation",
          { type: "button", "aria-current": summary.id === current ? "true" : undefined, onclick: () => actions.open(summary.id) },
          h("span.conversation-title", {}, title),
          h("span.conversation-meta", {}, `${formatDate(summary.updatedAt)} · ${summary.turns}`),
        ),
        h(
          "button.delete-conversation.icon-button",
          {
            type: "button",
            "aria-label": `${t("deleteConversation")}: ${title}`,
            title: t("deleteConversation"),
            onclick: async () => {
              if (!confirm(t("deleteConfirm"))) return;
              try {
                await remove(`/api/dossiers/${summary.id}`);
              } catch (error) {
                // already gone is what was asked; anything else leaves the conversation listed
                if (!(error instanceof ApiError && error.status === 404)) return announce(problemText(error));
              }
              forget(summary.id);
              actions.deleted(summary.id);
            },
          },
          "×",
        ),
      );
    }),
  );
}

/** The conversation's turns, oldest first, each with the response it was answered with (null
 * for a turn kept before responses were); null when the conversation is gone. */
export async function loadTurns(id) {
  try {
    return (await json(`/api/dossiers/${id}/turns`)).turns;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      forget(id);
      return null;
    }
    throw error;
  }
}

/** One stored turn as a list item: its question and the headline it was answered with. */
export const turnItem = (turn) => h("li", {}, h("span.turn-question", {}, turn.question), h("span.turn-answer", {}, turn.answer));

/** The turns of the current conversation, oldest first. */
export function drawTurns(view) {
  const list = $("#turn-list");
  const turns = view?.index || [];
  if (!turns.length) {
    fill(list, h("li.muted", {}, t("noTurns")));
    return;
  }
  fill(list, turns.map(turnItem));
}

/** The conversation's sources, ticked when selected; a change is the API's select/unselect. */
export function drawSources(view, changed) {
  const list = $("#source-list");
  const sources = [...(view?.selected || []).map((s) => [s, true]), ...(view?.unselected || []).map((s) => [s, false])];
  if (!sources.length) {
    fill(list, h("li.muted", {}, t("noSources")));
    return;
  }
  fill(
    list,
    sources.map(([source, selected]) => {
      const id = `source-${source.evidenceId}`;
      const box = h("input", { type: "checkbox", id, checked: selected, dataset: { evidence: source.evidenceId } });
      box.addEventListener("change", async () => {
        box.disabled = true;
        const action = box.checked ? "select" : "unselect";
        try {
          changed(await post(`/api/dossiers/${view.id}/sources/${source.evidenceId}:${action}`));
        } catch (error) {
          box.checked = !box.checked; // the server kept the source as it was: so does the box
          box.disabled = false;
          announce(problemText(error));
        }
      });
      return h(
        "li.source-toggle",
        {},
        box,
        h("label", { for: id }, h(`span.badge.authority.authority-${source.authority}`, {}, t(`authority.${source.authority}`)), " ", source.title),
      );
    }),
  );
}
