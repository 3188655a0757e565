// What the phone does next with a hand it sent (static/js/offline-next.js): one answer of
// scorekeeper/games/offline.py (or none) at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ASK, LONGEST_WAIT, OPEN_PAGE, POST_FORM, RETRY, SEND_NEXT, SERVER_TRIES,
  backoff, nextStep, question, retryAfter, sendsAtOnce,
} from "../../static/js/offline-next.js";

const HAND = { key: "k1", number: 2, summary: "Bogdan · Bid: 2" };
const FIRST = { first: true, tries: 0, offline: false };
const QUEUED = { first: false, tries: 0, offline: false };
const json = (http, body, retry = null) => ({ http, retryAfter: retry, body });

test("a hand saved on its first try opens the game page showing it", () => {
  assert.deepEqual(nextStep(HAND, json(201, { status: "saved", number: 2, said: "…" }), FIRST),
    { step: OPEN_PAGE, number: 2 });
});

test("a kept hand saved, or saved already by its key, is forgotten and the next one sent", () => {
  for (const status of ["saved", "already-saved"]) {
    assert.deepEqual(nextStep(HAND, json(200, { status, number: 2 }), QUEUED),
      { step: SEND_NEXT, number: 2 });
  }
});

test("no answer keeps the hand and tries again, later at each miss", () => {
  const network = { network: true };
  assert.deepEqual(nextStep(HAND, network, FIRST), { step: RETRY, after: 1500 });
  assert.deepEqual(nextStep(HAND, network, { ...QUEUED, tries: 2 }), { step: RETRY, after: 6000 });
  assert.deepEqual(nextStep(HAND, network, { ...QUEUED, offline: true }), { step: RETRY, after: 3000 });
});

test("the wait between tries doubles and stops at the longest", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((tries) => backoff(tries, false)),
    [1500, 3000, 6000, 12000, 24000, LONGEST_WAIT]);
  assert.equal(backoff(10, true), LONGEST_WAIT);
});

test("a busy server's Retry-After is the wait, within bounds", () => {
  const busy = json(503, { error: "Another program is writing to the database" }, "2");
  assert.deepEqual(nextStep(HAND, busy, FIRST), { step: RETRY, after: 2000, busy: true });
  assert.deepEqual(nextStep(HAND, busy, { ...QUEUED, tries: 9 }), { step: RETRY, after: 2000, busy: true });
  assert.equal(retryAfter("0"), 500);
  assert.equal(retryAfter(" 45 "), LONGEST_WAIT);
  assert.equal(retryAfter(null), null);
  assert.equal(retryAfter("Wed, 21 Oct 2026 07:28:00 GMT"), null);
});

test("a server error without Retry-After is tried again, then the table is asked", () => {
  const failing = json(500, { error: "Nothing was lost" });
  assert.deepEqual(nextStep(HAND, failing, FIRST), { step: RETRY, after: 1500, busy: true });
  for (let tries = 1; tries < SERVER_TRIES - 1; tries += 1) {
    assert.equal(nextStep(HAND, failing, { ...QUEUED, tries }).step, RETRY);
  }
  const asked = nextStep(HAND, failing, { ...QUEUED, tries: SERVER_TRIES - 1 });
  assert.equal(asked.step, ASK);
  assert.equal(asked.question.kind, "unknown");
  assert.deepEqual(asked.question.choices, [{ words: "retry", primary: true, change: {} }]);
});

test("a first try not saved lets the form post itself, whatever the answer", () => {
  const answers = [
    json(409, { status: "conflict", number: 2, next: 3, recorded: [] }),
    json(409, { status: "same", number: 1, said: "Ana made 3." }),
    json(400, { status: "refused", messages: ["Choose the bid."] }),
    json(200, { status: "undone", number: 1, said: "…" }),
    json(200, null),
    json(400, { error: "That request did not make sense" }),
  ];
  for (const answer of answers) {
    assert.deepEqual(nextStep(HAND, answer, FIRST), { step: POST_FORM });
  }
});

test("a kept hand the game moved past asks which hand it is, both in words", () => {
  const body = {
    status: "conflict", number: 2, next: 3, finished: false, message: "",
    recorded: [{ number: 2, said: "Dana made 2." }],
  };
  const step = nextStep(HAND, json(409, body), QUEUED);
  assert.equal(step.step, ASK);
  assert.equal(step.serverNext, 3);
  assert.deepEqual(step.question, {
    kind: "conflict",
    lines: [
      { words: "waiting_hand", values: { number: 2, hand: "Bogdan · Bid: 2" }, className: "waiting-hand" },
      { words: "recorded", values: { number: 2, hand: "Dana made 2." }, className: "recorded" },
      { words: "which" },
    ],
    list: null,
    choices: [
      { words: "save_as", values: { number: 3 }, primary: true, change: { renumber: 3 } },
      { words: "drop", change: { forget: true } },
    ],
  });
});

test("a kept hand of a game that ended meanwhile can only be dropped", () => {
  const body = { status: "conflict", number: 2, next: 3, finished: true, message: "", recorded: [] };
  const asked = nextStep(HAND, json(409, body), QUEUED).question;
  assert.deepEqual(asked.choices.map((c) => c.words), ["drop"]);
});

test("the server's own words show when it names no hand recorded meanwhile", () => {
  const body = { status: "conflict", number: 2, next: 2, finished: false, recorded: [], message: "Changed." };
  const asked = nextStep(HAND, json(409, body), QUEUED).question;
  assert.deepEqual(asked.lines.slice(1), [{ text: "Changed." }, { words: "which" }]);
});

test("a kept hand the same as the last one asks before it is recorded again", () => {
  const body = { status: "same", number: 1, said: "Ana made 3." };
  const asked = nextStep(HAND, json(409, body), QUEUED).question;
  assert.deepEqual(asked.lines[1], { words: "same", values: { number: 1 }, text: "Ana made 3." });
  assert.deepEqual(asked.choices, [
    { words: "again", primary: true, change: { again: 1 } },
    { words: "drop_refused", change: { forget: true } },
  ]);
});

test("a kept hand refused says why, and may be tried again or dropped", () => {
  const refused = question(HAND, { status: "refused", messages: ["Choose the bid.", "Choose Low."] });
  assert.deepEqual(refused.lines[1], { words: "refused", values: { number: 2 } });
  assert.deepEqual(refused.list, ["Choose the bid.", "Choose Low."]);
  assert.deepEqual(refused.choices, [
    { words: "retry", change: {} },
    { words: "drop_refused", change: { forget: true } },
  ]);
  const undone = question(HAND, { status: "undone", number: 2, said: "It was undone since." });
  assert.deepEqual(undone.list, ["It was undone since."]);
});

test("an answer that is not the door's own asks, with the hand kept", () => {
  const step = nextStep(HAND, json(200, null), QUEUED);
  assert.equal(step.step, ASK);
  assert.deepEqual(step.question.lines.map((l) => l.words), ["waiting_hand", "server_said"]);
});

test("a hand tapped is sent at once only when nothing waits or is being sent or asked", () => {
  assert.equal(sendsAtOnce({ waiting: 0, sending: false, asking: false }), true);
  assert.equal(sendsAtOnce({ waiting: 1, sending: false, asking: false }), false);
  assert.equal(sendsAtOnce({ waiting: 0, sending: true, asking: false }), false);
  assert.equal(sendsAtOnce({ waiting: 0, sending: false, asking: true }), false);
});
