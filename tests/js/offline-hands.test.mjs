// The hands kept on a phone as values (static/js/offline-hands.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  KEYS_REMEMBERED, inOrder, keptHand, keyFromBytes, nextNumber, postBody, remembered, renumbered, summary,
} from "../../static/js/offline-hands.js";

const kept = (key, number, seq, game = "5") => ({
  key, game, number, seq, body: `pitcher=1&number=${number}&token=${key}`, summary: key,
});

test("a game's kept hands come oldest first, without the other games'", () => {
  const all = [kept("c", 3, 30), kept("x", 1, 5, "6"), kept("a", 1, 10), kept("b", 2, 20)];
  assert.deepEqual(inOrder(all, "5").map((h) => h.key), ["a", "b", "c"]);
});

test("the next hand's number comes after the server's and after the hands kept", () => {
  assert.equal(nextNumber(4, []), 4);
  assert.equal(nextNumber(2, [kept("a", 2, 1), kept("b", 3, 2)]), 4);
  assert.equal(nextNumber(7, [kept("a", 2, 1)]), 7);
});

test("a hand is kept with the form's fields, its number and its key", () => {
  const hand = keptHand({
    key: "k9", game: "5", number: 3, seq: 99,
    fields: [["pitcher", "1"], ["bid", "2"], ["number", "1"], ["token", "old"], ["note", "a & b"]],
    summary: "Bogdan · Bid: 2",
  });
  assert.deepEqual(hand, {
    key: "k9", game: "5", number: 3, seq: 99,
    body: "pitcher=1&bid=2&number=3&token=k9&note=a+%26+b", summary: "Bogdan · Bid: 2",
  });
});

test("a hand saved as another number takes the hands kept after it along, in order", () => {
  const hands = [kept("a", 2, 10), kept("b", 3, 20), kept("c", 4, 30)];
  const moved = renumbered(hands, hands[1], 5);
  assert.deepEqual(moved.map((h) => [h.key, h.number]), [["b", 5], ["c", 6]]);
  assert.equal(new URLSearchParams(moved[1].body).get("number"), "6");
  assert.equal(hands[1].number, 3);  // the hands given are left as they were
});

test("a kept hand is posted with the page's CSRF token, and its again when the table said so", () => {
  assert.equal(postBody(kept("a", 2, 1), "t0k").toString(), "pitcher=1&number=2&token=a&csrf_token=t0k");
  assert.equal(postBody({ ...kept("a", 2, 1), again: 1 }, "t").get("again"), "1");
});

test("a kept hand in words is its taps, as the server wrote them, and its note", () => {
  const words = { passed: "Everyone passed" };
  const taps = ["Bogdan", "Bid: 2", "High: Ana", "Low (holder): Ana"];
  assert.equal(summary({ passed: false, taps, note: "  misdeal first " }, words),
    "Bogdan · Bid: 2 · High: Ana · Low (holder): Ana · misdeal first");
  assert.equal(summary({ passed: false, taps, note: "   " }, words),
    "Bogdan · Bid: 2 · High: Ana · Low (holder): Ana");
  assert.equal(summary({ passed: true, taps, note: "dealt again" }, words), "Everyone passed");
});

test("a one-time key is its bytes in URL-safe base64, unpadded", () => {
  assert.equal(keyFromBytes(new Uint8Array(16)), "AAAAAAAAAAAAAAAAAAAAAA");
  // 0xfb 0xff 0xbf: six-bit groups 62 63 62 63, "+/+/" in base64.
  assert.equal(keyFromBytes(new Uint8Array([0xfb, 0xff, 0xbf])), "-_-_");
});

test("a key that saved a hand is remembered last, and the oldest are let go", () => {
  assert.deepEqual(remembered(["a", "b", "c"], "b"), ["a", "c", "b"]);
  const many = Array.from({ length: KEYS_REMEMBERED }, (_, i) => `k${i}`);
  const after = remembered(many, "new");
  assert.equal(after.length, KEYS_REMEMBERED);
  assert.deepEqual([after[0], after[after.length - 1]], ["k1", "new"]);
});
