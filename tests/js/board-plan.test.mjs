// What a live page does with a fresh copy of itself (static/js/board-plan.js), and the words
// a page's script fills in (static/js/words.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  LEAVE, RELOAD, SWAP, fetchAfter, isNewer, isNews, millis, onFreshPage, recordedElsewhere,
  silenceAllowed,
} from "../../static/js/board-plan.js";
import { fill } from "../../static/js/words.js";

const SAME = { shown: ["standings", "sheet"], fresh: ["standings", "sheet"] };

test("a fresh page drawn as the one shown has its changed regions swapped in", () => {
  assert.equal(onFreshPage({ ...SAME, filling: false, handsKept: false }), SWAP);
  assert.equal(onFreshPage({ ...SAME, filling: true, handsKept: false }), SWAP);
});

test("hands kept on the phone do not stop the page following the server", () => {
  assert.equal(onFreshPage({ ...SAME, filling: false, handsKept: true }), SWAP);
});

test("a game that ended elsewhere reloads, unless a hand is tapped or kept hands wait", () => {
  const ended = { ...SAME, form: true, freshForm: false };
  assert.equal(onFreshPage({ ...ended, filling: false, handsKept: false }), RELOAD);
  assert.equal(onFreshPage({ ...ended, filling: true, handsKept: false }), LEAVE);
  // The queue still asks about its hands: the regions follow the server, the form put away.
  assert.equal(onFreshPage({ ...ended, filling: false, handsKept: true }), SWAP);
  assert.equal(onFreshPage({ ...SAME, form: true, freshForm: true, filling: true, handsKept: false }), SWAP);
});

test("a page drawn otherwise now reloads, unless a hand is being filled in", () => {
  const ended = { shown: ["standings", "sheet"], fresh: ["settlement", "standings", "sheet"] };
  assert.equal(onFreshPage({ ...ended, filling: false, handsKept: false }), RELOAD);
  assert.equal(onFreshPage({ ...ended, filling: true, handsKept: false }), LEAVE);
});

test("a hand number that moved on says which hand another phone recorded", () => {
  assert.equal(recordedElsewhere({ before: 3, after: 4, saving: false }), 3);
  assert.equal(recordedElsewhere({ before: 3, after: 4, saving: true }), null);
  assert.equal(recordedElsewhere({ before: 3, after: 3, saving: false }), null);
});

test("any version other than the one shown is news", () => {
  assert.equal(isNews(7, "7"), false);
  assert.equal(isNews(8, "7"), true);
  assert.equal(isNews(null, "7"), true);
});

test("a version heard is fetched only if the page does not show it or a later one yet", () => {
  assert.equal(isNewer(8, "7"), true);
  assert.equal(isNewer(7, "7"), false);
  // Heard before the page caught up with a later one (its own save, say): not fetched again.
  assert.equal(isNewer(6, "7"), false);
  assert.equal(isNewer("8", "7"), true);
  // What cannot be read is fetched, to be sure.
  assert.equal(isNewer(null, "7"), true);
  assert.equal(isNewer("x", "7"), true);
});

test("a change is fetched 30 to 150 ms after it is heard", () => {
  assert.deepEqual([0, 0.5, 1].map(fetchAfter), [30, 90, 150]);
});

test("the stream may be silent for two heartbeats and a half second", () => {
  assert.equal(silenceAllowed(2000), 4500);
});

test("a page's settings in seconds are read as ms, with a fallback and a floor", () => {
  assert.equal(millis("2", 1), 2000);
  assert.equal(millis("", 2), 2000);
  assert.equal(millis("x", 1.5, 0.5), 1500);
  assert.equal(millis("0.1", 1.5, 0.5), 500);
});

test("the page's words are filled in by name, an unknown name left as written", () => {
  assert.equal(fill("Hand {number}: {hand}", { number: 3, hand: "Ana made 3." }), "Hand 3: Ana made 3.");
  assert.equal(fill("Hands waiting: {n} {m}", { n: 0 }), "Hands waiting: 0 {m}");
});
