// The profile of the current conversation: the facts Navod holds about the asker, grouped by
// planning topic, each with the question that asks for it and its value in words of the
// interface language; a fact Navod inferred is marked so. Every fact can be corrected in place
// or removed (each a new record: the API keeps the history). A topic's completeness bar, opened,
// shows Navod's next question *to* the asker, with its own input: the answer is stored as a
// fact through the facts API, never sent as a chat message.
import { json, post, remove } from "./api.js";
import { $, announce, fill, h } from "./dom.js";
import { CHOICES, choiceText, currencyOf, enteredValue, kindOf, valueText } from "./facts.js";
import { formatPercent, language, t } from "./i18n.js";
import { labelIn, topics } from "./knowledge-cache.js";
import { problemText } from "./problems.js";

let shownFor = null; // the conversation the profile shows
let redraw = () => {};

export async function drawProfile(conversationId, actions) {
  const facts = $("#facts");
  const chart = $("#completeness");
  shownFor = conversationId;
  redraw = () => drawProfile(conversationId, actions).catch((error) => announce(problemText(error)));
  if (!conversationId) {
    fill(facts, h("p.muted", {}, t("noFacts")));
    fill(chart, h("p.muted", {}, t("noCompleteness")));
    return;
  }
  const [factList, completeness, known] = await Promise.all([
    json(`/api/dossiers/${conversationId}/facts`),
    json(`/api/dossiers/${conversationId}/completeness`),
    topics().catch(() => []),
  ]);
  if (shownFor !== conversationId) return; // another conversation was opened meanwhile
  const byId = new Map(known.map((topic) => [topic.id, topic]));
  drawFacts(facts, factList.facts, byId, conversationId);
  drawChart(chart, completeness.scores, byId, conversationId);
}

function topicLabel(topic, id) {
  return labelIn(topic?.label, language()) || id;
}

/** The question that asks for a fact, in the interface language: the fact's label. */
function questionFor(topic, fact) {
  const item = topic?.checklist.find((entry) => entry.fact === fact);
  return item ? labelIn(item.question, language()) : t("otherFact");
}

/** The facts held now: the latest record of each fact type, none for one taken back. */
function heldFacts(records) {
  const latest = new Map();
  for (const record of records) latest.set(record.fact_type, record);
  return [...latest.values()].filter((record) => !record.retracted);
}

function drawFacts(node, records, byId, conversationId) {
  const held = heldFacts(records);
  if (!held.length) {
    fill(node, h("p.muted", {}, t("noFacts")));
    return;
  }
  const groups = new Map();
  for (const fact of held) groups.set(fact.topic, [...(groups.get(fact.topic) || []), fact]);
  fill(
    node,
    [...groups].map(([topicId, facts]) => {
      const topic = byId.get(topicId);
      return h(
        "section.fact-group",
        {},
        h("h3", {}, topicLabel(topic, topicId)),
        h("dl", {}, facts.map((fact) => [h("dt", {}, questionFor(topic, fact.fact_type)), factValue(fact, questionFor(topic, fact.fact_type), conversationId)])),
      );
    }),
  );
}

/** A held fact: its value in words, whether Navod inferred it, and its correct/remove buttons. */
function factValue(fact, question, conversationId) {
  const cell = h("dd.fact", { dataset: { fact: fact.fact_type } });
  const show = () =>
    fill(
      cell,
      h("span.fact-value", {}, valueText(fact)),
      fact.inferred ? [" ", h("span.badge.inferred", { title: t("inferredHint") }, t("inferredFact"))] : null,
      fact.inferred ? h("p.hint.inferred-hint", {}, t("inferredHint")) : null,
      h(
        "span.fact-actions",
        {},
        h("button.link-button.correct-fact", { type: "button", "aria-label": `${t("correctFact")}: ${question}`, onclick: () => fill(cell, answerForm(fact.fact_type, fact.topic, fact.subtopic, conversationId, show, fact.value)) }, t("correctFact")),
        h("button.link-button.remove-fact", { type: "button", "aria-label": `${t("removeFact")}: ${question}`, onclick: () => removeFact(conversationId, fact.fact_type) }, t("removeFact")),
      ),
    );
  show();
  return cell;
}

async function removeFact(conversationId, factType) {
  try {
    await remove(`/api/dossiers/${conversationId}/facts/${encodeURIComponent(factType)}`);
    announce(t("factRemoved"));
  } catch (error) {
    announce(problemText(error));
  }
  redraw();
}

let formCount = 0;

/** An input for a fact's answer (choices, yes or no, a number, words), stored on submit as a
 * fact through the facts API; `done` is called on cancel. */
function answerForm(factType, topicId, subtopic, conversationId, done, current = null) {
  const id = `fact-answer-${++formCount}`;
  const kind = kindOf(factType);
  let input;
  if (kind === "yesNo" || kind === "choice") {
    const options = kind === "yesNo" ? [["true", t("yes")], ["false", t("no")]] : CHOICES[factType].map((value) => [value, choiceText(factType, value)]);
    input = h("select", { id, name: "value" }, h("option", { value: "" }, t("choose")), options.map(([value, label]) => h("option", { value, selected: current !== null && String(current) === value }, label)));
  } else {
    const numeric = kind === "whole" || kind === "amount";
    input = h("input", { id, name: "value", type: "text", inputmode: numeric ? "numeric" : "text", autocomplete: "off", maxlength: "200", value: current === null ? "" : String(current) });
  }
  const problem = h("p.error.fact-problem", { role: "alert", hidden: true });
  const form = h(
    "form.fact-answer",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        const value = enteredValue(factType, input.value);
        if (value === null) return input.focus();
        try {
          await post(`/api/dossiers/${conversationId}/facts`, { facts: [{ topic: topicId, fact_type: factType, value, subtopic: subtopic || "" }] });
          announce(t("factSaved"));
          redraw();
        } catch (error) {
          problem.hidden = false;
          problem.textContent = problemText(error);
        }
      },
    },
    h("label", { for: id }, t("yourAnswer"), currencyOf(factType) ? ` (${currencyOf(factType)})` : ""),
    " ",
    input,
    " ",
    h("button.primary", { type: "submit" }, t("saveFact")),
    " ",
    h("button", { type: "button", onclick: () => done() }, t("cancel")),
    problem,
  );
  queueMicrotask(() => input.focus());
  return form;
}

function missingFacts(reason) {
  const match = /missing:\s*(.+)$/.exec(reason || "");
  return match ? match[1].split(",").map((name) => name.trim()).filter(Boolean) : [];
}

function drawChart(node, scores, byId, conversationId) {
  if (!scores.length) {
    fill(node, h("p.muted", {}, t("noCompleteness")));
    return;
  }
  fill(
    node,
    h(
      "ul.chart",
      {},
      scores.map((score) => {
        const topic = byId.get(score.topic);
        const label = topicLabel(topic, score.topic);
        const missing = missingFacts(score.reason);
        // the heaviest missing fact first: what Navod would ask next
        const next = [...missing].sort((a, b) => weight(topic, b) - weight(topic, a))[0];
        const bar = h("span.bar-fill");
        bar.style.width = `${score.score}%`;
        const asks = h("div.navod-asks", { id: `asks-${score.topic}`, hidden: true });
        const button = h(
          "button.topic-bar",
          {
            type: "button",
            "aria-describedby": `missing-${score.topic}`,
            "aria-expanded": "false",
            "aria-controls": `asks-${score.topic}`,
            disabled: !next,
            onclick: () => {
              const open = asks.hidden;
              asks.hidden = !open;
              button.setAttribute("aria-expanded", String(open));
              if (open) fill(asks, h("p.navod-question", {}, h("strong", {}, `${t("navodAsks")}: `), questionFor(topic, next)), answerForm(next, score.topic, subtopicOf(topic, next), conversationId, () => button.click()));
            },
          },
          h("span.topic-name", {}, label),
          h("span.topic-score", {}, formatPercent(score.score / 100)),
          h("span.bar", { "aria-hidden": "true" }, bar),
        );
        return h(
          "li",
          { dataset: { topic: score.topic, score: String(score.score) } },
          button,
          h("p.topic-missing", { id: `missing-${score.topic}` }, missing.length ? `${t("missing")}: ${missing.map((fact) => questionFor(topic, fact)).join(" ")}` : t("complete")),
          asks,
        );
      }),
    ),
  );
}

const weight = (topic, fact) => topic?.checklist.find((entry) => entry.fact === fact)?.weight || 0;
const subtopicOf = (topic, fact) => topic?.checklist.find((entry) => entry.fact === fact)?.subtopic || "";
