// The Game counter's sums (static/js/game-count.js) against tests/cases/game_count.json, the
// table the engine is tested against too (tests/rules/test_rules_case_tables.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { countGame } from "../../static/js/game-count.js";
import { cases } from "./cases.mjs";

const table = cases("game_count.json");

// The counter as the page lays it out: the sides in order, each with its players in seat
// order, each player's count box and a box per rank (null: left empty).
function laidOut(hand) {
  const sides = hand.teams ? Object.entries(hand.teams) : hand.players.map((name) => [name, [name]]);
  return sides.map(([side, members]) => ({
    side,
    members,
    players: members.map((name) => {
      const typed = hand.typed[name];
      const cards = typed.cards || {};
      return {
        count: "count" in typed ? typed.count : null,
        cards: Object.entries(table.worths).map(([rank, worth]) => [worth, rank in cards ? cards[rank] : null]),
      };
    }),
  }));
}

for (const hand of table.cases) {
  test(`the counter: ${hand.says}`, () => {
    const sides = laidOut(hand);
    const sums = countGame(sides, table.most);
    assert.deepEqual(Object.fromEntries(sides.map((s, i) => [s.side, sums.totals[i]])), hand.sides);
    // A player whose cards were typed has their count box filled in; the others' are left.
    sides.forEach((s, i) => s.members.forEach((name, p) => {
      assert.equal(sums.counts[i][p], hand.typed[name].cards ? hand.counted[name] : null, name);
    }));
    if (hand.refused) {
      assert.equal(sums.over, true);
      assert.equal(sums.game, null);
    } else if (hand.game === null) {
      assert.equal(sums.over, false);
      assert.deepEqual(sums.game, { nobody: true });
    } else {
      const side = sides.findIndex((s) => s.members.includes(hand.game));
      assert.deepEqual(sums.game, { side, player: sides[side].members.indexOf(hand.game) });
    }
  });
}

test("a counter with nothing typed shows no count and taps nothing", () => {
  const empty = { count: null, cards: [[10, null], [4, null]] };
  assert.deepEqual(countGame([{ players: [empty] }, { players: [empty] }], 80), {
    counts: [[null], [null]], totals: null, game: null, over: false,
  });
});

test("a card box typed 0 is typed: the player counts 0 and the side's count shows", () => {
  const zero = { count: null, cards: [[10, 0]] };
  const none = { count: null, cards: [[10, null]] };
  const sums = countGame([{ players: [zero] }, { players: [none] }], 80);
  assert.deepEqual(sums.counts, [[0], [null]]);
  assert.deepEqual(sums.totals, [0, 0]);
  assert.deepEqual(sums.game, { nobody: true });
});
