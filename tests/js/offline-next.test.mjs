// What the phone does next with a hand it sent (static/js/offline-next.js): one answer of
// scorekeeper/games/offline.py (or none) at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ASK, LONGEST_WAIT, OPEN_PAGE, POST_FORM, RETRY, SEND_NEXT, SERVER_TRIES, SHOW_NEXT,
  backoff, compared, nextStep, question, restored, retryAfter, sendsAtOnce,
} from "../../static/js/offline-next.js";

const HAND = { key: "k1", number: 2, summary: "Bogdan · Bid: 2" };
const FIRST = { first: true, tries: 0, offline: false };
const QUEUED = { first: false, tries: 0, offline: false };
const json = (http, body, retry = null) => ({ http, retryAfter: retry, body });

test("a hand saved on its first try shows the next hand's form in place, with its sentence", () => {
  const saved = { status: "saved", number: 2, said: "Ana made 3.", finished: false };
  assert.deepEqual(nextStep(HAND, json(201, saved), FIRST),
    { step: SHOW_NEXT, number: 2, said: "Ana made 3." });
});

test("a hand that ends the game on its first try opens the game page afresh", () => {
  const won = { status: "saved", number: 2, said: "Ana made 3. Ana wins!", finished: true };
  assert.deepEqual(nextStep(HAND, json(201, won), FIRST),
    { step: OPEN_PAGE, number: 2, said: "Ana made 3. Ana wins!" });
});

test("a kept hand saved, or saved already by its key, is forgotten and the next one sent", () => {
  for (const status of ["saved", "already-saved"]) {
    assert.deepEqual(nextStep(HAND, json(200, { status, number: 2, said: "Ana made 3." }), QUEUED),
      { step: SEND_NEXT, number: 2, said: "Ana made 3.", finished: false });
  }
  const won = json(201, { status: "saved", number: 2, said: "Ana wins!", finished: true });
  assert.equal(nextStep(HAND, won, QUEUED).finished, true);
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

test("a first try not saved lets the form post itself, whatever the answer (the page asks)", () => {
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

const COMPARE = {
  number: 2,
  said: "Dana made 2.",
  here: false,
  correct: "/games/1/hands/2/edit",
  rows: [
    { label: "Who won the bid?", mine: "Bogdan", theirs: "Dana", differs: true },
    { label: "Bid", mine: "2", theirs: "2", differs: false },
  ],
};

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
    table: null,
    choices: [
      { words: "save_as", values: { number: 3 }, primary: true, change: { renumber: 3 } },
      { words: "drop_mine", primary: false, change: { forget: true } },
    ],
  });
});

test("a kept hand beside the recorded one shows every choice, the differences marked, and three choices", () => {
  const body = {
    status: "conflict", number: 2, next: 3, finished: false, message: "",
    recorded: [{ number: 2, said: "Dana made 2." }], compare: COMPARE,
  };
  const asked = nextStep(HAND, json(409, body), QUEUED).question;
  assert.deepEqual(asked.table, {
    heads: [{ words: "this_phone" }, { words: "as_recorded", values: { number: 2 } }],
    rows: COMPARE.rows,
  });
  assert.deepEqual(asked.lines.slice(-2), [{ words: "marked" }, { words: "which" }]);
  assert.deepEqual(asked.choices, [
    { words: "save_as", values: { number: 3 }, primary: true, change: { renumber: 3 } },
    { words: "correct", values: { number: 2 }, change: { correct: "/games/1/hands/2/edit", number: 2 } },
    { words: "drop_mine", primary: false, change: { forget: true } },
  ]);
});

test("a kept hand the same as the one recorded in its place is offered to be dropped first", () => {
  const same = { ...COMPARE, rows: COMPARE.rows.map((row) => ({ ...row, mine: row.theirs, differs: false })) };
  const body = { status: "conflict", number: 2, next: 3, recorded: [], compare: same };
  const asked = question(HAND, body);
  assert.ok(asked.lines.some((line) => line.words === "same_hands"));
  assert.deepEqual(asked.choices.filter((c) => c.primary).map((c) => c.words), ["drop_mine"]);
});

test("the server's rows are drawn as they are, a difference only where it says so", () => {
  const drawn = compared({ number: 5, rows: [{ label: "Jack", mine: "Ana", theirs: "Dana", differs: 1 }] });
  assert.deepEqual(drawn.rows, [{ label: "Jack", mine: "Ana", theirs: "Dana", differs: true }]);
  assert.deepEqual(drawn.heads[1], { words: "as_recorded", values: { number: 5 } });
});

test("a page brought back whose hand was saved meanwhile asks the three questions", () => {
  assert.equal(restored(11, 11), null);
  assert.equal(restored(11, 10), null);
  const asked = restored(11, 12);
  assert.equal(asked.kind, "restored");
  assert.deepEqual(asked.lines.map((line) => line.words), ["restored", "restored_which"]);
  assert.deepEqual(asked.choices.map((c) => c.change), [
    { asNumber: 12 }, { correctForm: 11 }, { reset: true },
  ]);
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
