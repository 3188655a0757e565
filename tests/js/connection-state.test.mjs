// What the connection indicator says (static/js/connection-state.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CONNECTED, OFFLINE, RECONNECTING, missed, networkBack, networkLost, pingAfter, reached, says, starting,
} from "../../static/js/connection-state.js";

test("the indicator starts connected, or offline where the browser knows it has no network", () => {
  assert.deepEqual(starting(true), { state: CONNECTED, misses: 0 });
  assert.deepEqual(starting(undefined), { state: CONNECTED, misses: 0 });
  assert.deepEqual(starting(false), { state: OFFLINE, misses: 1 });
});

test("one miss is reconnecting, a second is offline, and a request that gets through connects", () => {
  const once = missed(starting(true), true);
  assert.deepEqual(once, { state: RECONNECTING, misses: 1 });
  assert.deepEqual(missed(once, true), { state: OFFLINE, misses: 2 });
  assert.deepEqual(missed(starting(true), false), { state: OFFLINE, misses: 1 });
  assert.deepEqual(reached(true), { state: CONNECTED, misses: 0 });
  assert.deepEqual(reached(undefined), { state: CONNECTED, misses: 0 });
});

test("what arrives while the browser says it has no network leaves the indicator offline", () => {
  // An open stream's beat, sent before the network went: not a sign the server is there.
  assert.deepEqual(reached(false), { state: OFFLINE, misses: 1 });
  const lost = networkLost(reached(true));
  assert.equal(reached(false).state, lost.state);
  assert.equal(networkBack(reached(false)).state, RECONNECTING);
});

test("the network lost is offline at once; back, it is reconnecting until the server answers", () => {
  const lost = networkLost(starting(true));
  assert.equal(lost.state, OFFLINE);
  assert.equal(networkBack(lost).state, RECONNECTING);
  assert.equal(missed(networkBack(lost), true).state, OFFLINE);
});

test("the server is asked seldom while it answers, and often while it does not", () => {
  assert.deepEqual([CONNECTED, RECONNECTING, OFFLINE].map(pingAfter), [5000, 2000, 2000]);
});

test("the indicator says its state and the hands waiting, in the page's words", () => {
  const words = { connected: "Connected", offline: "Offline", waiting: "Hands waiting: {n}" };
  assert.deepEqual(says(OFFLINE, 3, words), { text: "Offline", waiting: "Hands waiting: 3" });
  assert.deepEqual(says(CONNECTED, 0, words), { text: "Connected", waiting: "" });
});
