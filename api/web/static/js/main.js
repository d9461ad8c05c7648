// The page: asking (streamed answers), the conversation sidebar, the profile and the knowledge
// browser, wired to the public API. The page's address names what it shows (see `placeOf`), so
// Back and Forward move between views and conversations, a link reopens the same view and a new
// tab starts a new conversation; it holds ids only. The API key (when the server needs one) is
// kept for this tab only; what the asker types is kept only while its answer is in flight.
import { ApiError, hasKey, openStream } from "./api.js";
import { cardContent } from "./answer.js";
import { $, $$, announce, fill, h } from "./dom.js";
import { browserLanguage, language, setLanguage, t, translatePage } from "./i18n.js";
import { CONVERSATION_ID, drawConversationList, drawSources, drawTurns, currentId, loadTurns, loadView, remember, setCurrent } from "./conversations.js";
import { installKeyPrompt, showKeyButton } from "./keys.js";
import { drawKnowledge, showConcept } from "./knowledge.js";
import { topics } from "./knowledge-cache.js";
import { drawProfile } from "./profile.js";
import { problemText, retryHelps } from "./problems.js";
import { readStream } from "./stream.js";

const state = {
  choice: "auto", // the language switch: auto follows the language of the last answer
  answerLanguage: null,
  shown: undefined, // the conversation the thread shows (null: a new one), once drawn
  busy: false,
  knowledgeDrawn: false,
  cards: new Map(), // card element on screen → what it shows, to draw again in another language
};

const actions = {
  ask: (question) => ask(question),
  retry: () => {},
  browse: () => go("#/knowledge"),
  concept: (slug) => go(`#/knowledge/${encodeURIComponent(slug)}`),
  suggest: (question) => suggest(question),
  open: (id) => go(`#/c/${id}`),
  deleted: () => {
    if (!currentId()) newConversation();
    refreshSidebar();
  },
};

// The question in flight, in this tab's sessionStorage until its answer is in: a reload
// mid-answer shows it again with a retry instead of losing it.
const PENDING_SLOT = "navod.pending";

/** What the address names: "#/" a new conversation, "#/c/<id>" a conversation, "#/knowledge"
 * the knowledge browser, "#/knowledge/<slug>" one of its concepts. */
function placeOf(hash) {
  const [view, item] = hash.replace(/^#\/?/, "").split("/");
  if (view === "knowledge") return { view, slug: item ? decodeURIComponent(item) : null };
  return { view: "ask", id: view === "c" && CONVERSATION_ID.test(item || "") ? item : null };
}

const askPlace = () => (currentId() ? `#/c/${currentId()}` : "#/");

/** Go to `hash`: a new history entry, shown by `route` (the same place is shown again). */
function go(hash) {
  if (location.hash === hash) route().catch(showProblem);
  else location.hash = hash;
}

/** Show what the address names; Back, Forward, links and the page's own moves all come here.
 * An in-page link ("#question", the skip link) is no place: the view stays as it is. */
async function route({ first = false } = {}) {
  if (location.hash && !location.hash.startsWith("#/") && state.shown !== undefined) return;
  const place = placeOf(location.hash.startsWith("#/") ? location.hash : "");
  if (place.view === "knowledge") {
    showView("knowledge");
    if (place.slug) await showConcept(place.slug, actions);
    else fill($("#kb-concept"));
    return;
  }
  showView("ask");
  // on arrival the focus stays where the browser puts it (the skip link comes first)
  if (place.id !== state.shown) await openConversation(place.id, { focus: !first });
}

function uiLanguage() {
  return state.choice === "auto" ? state.answerLanguage || browserLanguage() : state.choice;
}

function applyLanguage() {
  setLanguage(uiLanguage());
  translatePage();
  redrawCards();
  refreshSidebar();
  if (state.knowledgeDrawn) drawKnowledge(actions).catch(showProblem);
}

function requestBody(question) {
  const body = { query: question, surface: $("input[name=surface]:checked").value, explain: true };
  if (state.choice !== "auto") body.language = state.choice;
  const asOf = $("#as-of").value;
  if (asOf) body.asOfDate = asOf;
  const session = currentId();
  if (session) body.sessionId = session;
  return body;
}

/** Ask `question`: its card fills in line by line from the stream. */
async function ask(question) {
  const text = question.trim();
  if (!text || state.busy) return;
  if (placeOf(location.hash).view !== "ask") go(askPlace());
  announce(""); // an earlier problem is no longer news
  setBusy(true);
  const [turn, card] = turnElement(text);
  card.setAttribute("aria-busy", "true");
  $("#thread").append(turn);
  const keepInView = pinned(turn);
  const cardActions = { ...actions, retry: () => retry(turn, text) };
  fill(card, h("p.loading", {}, t("loading")));
  keepInView();
  const pending = { conversation: currentId(), question: text, after: $$("#thread .turn").length - 1 };
  sessionStorage.setItem(PENDING_SLOT, JSON.stringify(pending));
  try {
    const response = await openStream(requestBody(text));
    const merged = await readStream(response, (_line, sofar) => {
      if (sofar.sessionId && !currentId()) started(sofar.sessionId, pending);
      // the metadata line comes first: the card is drawn in the answer's language from the start
      // a question in a language Navod does not read is refused in English (or the language
      // chosen): the interface keeps its own
      if (sofar.language && !sofar.unreadLanguage) adoptLanguage(sofar.language);
      drawCard(card, sofar, cardActions);
      keepInView();
    });
    drawCard(card, merged, cardActions);
    keepInView();
    await finished(text, merged);
  } catch (error) {
    fill(card, problem(error, cardActions));
  } finally {
    sessionStorage.removeItem(PENDING_SLOT);
    keepInView.release();
    card.setAttribute("aria-busy", "false");
    setBusy(false);
  }
}

/**
 * Keep a new turn's top in view while its card is drawn line by line, until the reader scrolls
 * on their own (wheel, touch or a scrolling key): then the page stays where they put it.
 */
function pinned(turn) {
  let held = true;
  const letGo = () => { held = false; };
  const keys = (event) => { if (["PageUp", "PageDown", "ArrowUp", "ArrowDown", "Home", "End", " "].includes(event.key) && event.target === document.body) letGo(); };
  window.addEventListener("wheel", letGo, { passive: true });
  window.addEventListener("touchmove", letGo, { passive: true });
  window.addEventListener("keydown", keys);
  const keep = () => { if (held && turn.isConnected) turn.scrollIntoView({ block: "start", behavior: "auto" }); };
  keep.release = () => {
    window.removeEventListener("wheel", letGo);
    window.removeEventListener("touchmove", letGo);
    window.removeEventListener("keydown", keys);
  };
  return keep;
}

/** A new conversation got its id with its first answer: the address names it from now on (in
 * place of "#/", so Back does not return to an empty conversation). */
function started(id, pending) {
  setCurrent(id);
  state.shown = id;
  remember(id);
  history.replaceState(history.state, "", `#/c/${id}`);
  sessionStorage.setItem(PENDING_SLOT, JSON.stringify({ ...pending, conversation: id }));
}

/** A turn of the thread: the question as asked, and the card its answer is drawn in. */
function turnElement(question) {
  const card = h("section.card");
  const turn = h("article.turn", {}, h("p.asked", {}, h("span.visually-hidden", {}, `${t("asked")}: `), question), card);
  return [turn, card];
}

function retry(turn, question) {
  turn.remove();
  ask(question);
}

function drawCard(card, response, cardActions) {
  state.cards.set(card, { response, cardActions });
  fill(card, cardContent(response, cardActions));
}

function redrawCards() {
  for (const [card, { response, cardActions }] of state.cards) {
    if (card.isConnected) fill(card, cardContent(response, cardActions));
    else state.cards.delete(card);
  }
}

/** With the switch on automatic, the interface speaks the language of the latest answer. */
function adoptLanguage(answerLanguage) {
  if (state.choice !== "auto" || answerLanguage === state.answerLanguage) return;
  state.answerLanguage = answerLanguage;
  setLanguage(uiLanguage());
  translatePage();
  redrawCards();
  setBusy(state.busy);
  refreshSidebar();
}

async function finished(_question, response) {
  const id = response.sessionId || response.dossier?.id;
  if (!id) return;
  if (!currentId()) started(id, {});
  remember(id);
  await refreshSidebar();
}

/** What went wrong instead of an answer: never a part of one. */
function problem(error, cardActions) {
  if (error instanceof ApiError && error.status === 404) {
    setCurrent(null); // the conversation is gone: the retry starts a new one
    state.shown = null;
    history.replaceState(history.state, "", "#/");
    refreshSidebar();
  }
  return h(
    "div.stream-broken",
    { role: "alert" },
    h("p", {}, problemText(error)),
    retryHelps(error) ? h("button.retry-button", { type: "button", onclick: () => cardActions.retry() }, t("retry")) : null,
  );
}

function setBusy(busy) {
  state.busy = busy;
  const send = $("#send");
  send.disabled = busy;
  send.textContent = t(busy ? "sending" : "send");
}

function suggest(question) {
  go(askPlace());
  const box = $("#question");
  box.value = question;
  box.focus();
  box.select();
}

function showProblem(error) {
  announce(problemText(error));
}

/** The sidebar and the profile for the current conversation. */
async function refreshSidebar() {
  const id = currentId();
  const view = id ? await loadView(id).catch(() => null) : null;
  if (id && !view) {
    setCurrent(null);
    state.shown = null;
    history.replaceState(history.state, "", "#/");
  }
  drawTurns(view);
  drawSources(view, (changed) => drawSources(changed, sourcesChanged));
  await Promise.all([
    drawConversationList(actions).catch(showProblem),
    drawProfile(view?.id || null, actions).catch(showProblem),
  ]);
}

function sourcesChanged(view) {
  drawSources(view, sourcesChanged);
}

/** Every turn of the conversation as it was answered: its card in full from the response the
 * server kept, or, for a turn kept before responses were, its headline. */
function drawThread(turns) {
  fill(
    $("#thread"),
    turns.map(({ question, response, headline }) => {
      const [turn, card] = turnElement(question);
      if (response) drawCard(card, response, { ...actions, retry: () => retry(turn, question) });
      else fill(card, h("h3.headline", {}, headline), h("p.muted.headline-only", {}, t("headlineOnly")));
      return turn;
    }),
  );
}

/** The question a reload cut off before its answer arrived, with a retry, in its conversation. */
function resumePending(id, turns) {
  let pending = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING_SLOT) || "null");
  } catch {
    pending = null;
  }
  if (!pending?.question || (pending.conversation || null) !== id) return;
  if (turns.length > pending.after) return sessionStorage.removeItem(PENDING_SLOT); // it was answered
  const [turn, card] = turnElement(pending.question);
  fill(
    card,
    h(
      "div.stream-broken.interrupted",
      { role: "alert" },
      h("p", {}, t("interrupted")),
      h("button.retry-button", { type: "button", onclick: () => { sessionStorage.removeItem(PENDING_SLOT); retry(turn, pending.question); } }, t("retry")),
    ),
  );
  $("#thread").append(turn);
}

/** Show conversation `id` (null: a new one) with every turn in full. */
async function openConversation(id, { focus = true } = {}) {
  setCurrent(id);
  state.shown = id;
  const turns = id ? await loadTurns(id) : [];
  if (turns === null) {
    // gone (deleted, expired, another key's): a new conversation in its place
    setCurrent(null);
    state.shown = null;
    history.replaceState(history.state, "", "#/");
  }
  drawThread(turns || []);
  resumePending(currentId(), turns || []);
  await refreshSidebar();
  if (focus) $("#question").focus();
}

function newConversation() {
  const place = placeOf(location.hash);
  if (place.view === "ask" && !place.id) openConversation(null).catch(showProblem); // drawn afresh
  else location.hash = "#/";
}

function showView(name) {
  const knowledge = name === "knowledge";
  $("#ask-view").hidden = knowledge;
  $("#knowledge-view").hidden = !knowledge;
  $("#nav-ask").setAttribute("aria-current", knowledge ? "false" : "page");
  $("#nav-knowledge").setAttribute("aria-current", knowledge ? "page" : "false");
  if (knowledge && !state.knowledgeDrawn) {
    state.knowledgeDrawn = true;
    drawKnowledge(actions).catch((error) => {
      state.knowledgeDrawn = false;
      showProblem(error);
    });
  }
}

function installPanels() {
  for (const button of $$("[data-toggles]")) {
    button.addEventListener("click", () => {
      const panel = $(`#${button.dataset.toggles}`);
      const open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      panel.classList.toggle("open", open);
    });
  }
}

function install() {
  setLanguage(browserLanguage());
  translatePage();
  installKeyPrompt(() => newConversation());
  installPanels();
  $("#ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const box = $("#question");
    const question = box.value;
    if (!question.trim() || state.busy) return;
    box.value = "";
    ask(question);
  });
  $("#question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $("#ask-form").requestSubmit();
    }
  });
  $("#language").addEventListener("change", (event) => {
    state.choice = event.target.value;
    applyLanguage();
  });
  $("#new-conversation").addEventListener("click", newConversation);
  $("#nav-ask").addEventListener("click", () => go(askPlace()));
  $("#nav-knowledge").addEventListener("click", () => go("#/knowledge"));
  window.addEventListener("hashchange", () => route().catch(showProblem));
  if (hasKey()) showKeyButton();
  // the first request: on a server that needs a key, this is where the page asks for it
  topics().catch(showProblem);
  route({ first: true }).catch(showProblem);
}

install();
