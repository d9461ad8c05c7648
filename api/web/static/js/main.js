// The page: asking (streamed answers), the conversation sidebar, the profile and the knowledge
// browser, wired to the public API. It keeps the conversation id (localStorage) and, when the
// server needs one, the API key (this tab only); nothing the asker types is stored by the page.
import { ApiError, hasKey, openStream } from "./api.js";
import { cardContent } from "./answer.js";
import { $, $$, announce, fill, h } from "./dom.js";
import { browserLanguage, language, setLanguage, t, translatePage } from "./i18n.js";
import { drawConversationList, drawSources, drawTurns, currentId, loadView, remember, setCurrent, turnItem } from "./conversations.js";
import { installKeyPrompt, showKeyButton } from "./keys.js";
import { drawKnowledge } from "./knowledge.js";
import { topics } from "./knowledge-cache.js";
import { drawProfile } from "./profile.js";
import { problemText, retryHelps } from "./problems.js";
import { readStream } from "./stream.js";

const state = {
  choice: "auto", // the language switch: auto follows the language of the last answer
  answerLanguage: null,
  turns: new Map(), // conversation id → [{question, response}] asked in this page
  busy: false,
  knowledgeDrawn: false,
  cards: new Map(), // card element on screen → what it shows, to draw again in another language
};

const actions = {
  ask: (question) => ask(question),
  retry: () => {},
  browse: () => showView("knowledge"),
  suggest: (question) => suggest(question),
  open: (id) => openConversation(id),
  deleted: (id) => {
    state.turns.delete(id);
    if (!currentId()) newConversation();
    refreshSidebar();
  },
};

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
  showView("ask");
  announce(""); // an earlier problem is no longer news
  setBusy(true);
  const [turn, card] = turnElement(text);
  card.setAttribute("aria-busy", "true");
  $("#thread").append(turn);
  const keepInView = pinned(turn);
  const cardActions = { ...actions, retry: () => retry(turn, text) };
  fill(card, h("p.loading", {}, t("loading")));
  keepInView();
  try {
    const response = await openStream(requestBody(text));
    const merged = await readStream(response, (_line, sofar) => {
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

async function finished(question, response) {
  const id = response.sessionId || response.dossier?.id;
  if (!id) return;
  remember(id);
  const turns = state.turns.get(id) || [];
  turns.push({ question, response });
  state.turns.set(id, turns);
  await refreshSidebar();
}

/** What went wrong instead of an answer: never a part of one. */
function problem(error, cardActions) {
  if (error instanceof ApiError && error.status === 404) {
    setCurrent(null); // the conversation is gone: the retry starts a new one
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
  showView("ask");
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
  if (id && !view) setCurrent(null);
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

/** Cards of this page's turns in full; older turns of the conversation by their headline. */
function redrawThread(view = null) {
  const thread = $("#thread");
  const id = currentId();
  const asked = id ? state.turns.get(id) || [] : [];
  const earlier = view ? view.index.slice(0, Math.max(view.index.length - asked.length, 0)) : [];
  fill(
    thread,
    earlier.length ? h("section.earlier", {}, h("h2.small-heading", {}, t("earlier")), h("ol", {}, earlier.map(turnItem))) : null,
    asked.map(({ question, response }) => {
      const [turn, card] = turnElement(question);
      drawCard(card, response, { ...actions, retry: () => retry(turn, question) });
      return turn;
    }),
  );
}

async function openConversation(id) {
  setCurrent(id);
  const view = await loadView(id);
  redrawThread(view);
  await refreshSidebar();
  $("#question").focus();
}

function newConversation() {
  setCurrent(null);
  redrawThread();
  refreshSidebar();
  $("#question").focus();
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
  installKeyPrompt(() => {
    state.turns.clear();
    newConversation();
  });
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
  $("#nav-ask").addEventListener("click", () => showView("ask"));
  $("#nav-knowledge").addEventListener("click", () => showView("knowledge"));
  if (hasKey()) showKeyButton();
  // the first request: on a server that needs a key, this is where the page asks for it
  topics().catch(showProblem);
  const id = currentId();
  (id ? openConversation(id) : refreshSidebar()).catch(showProblem);
}

install();
