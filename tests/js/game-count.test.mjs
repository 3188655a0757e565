// The Game counter's sums (static/js/game-count.js) against tests/cases/game_count.json, the
// table the engine is tested against too (tests/rules/test_rules_case_tables.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { countGame, gameCall } from "../../static/js/game-count.js";
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

// What the counter does with Game: it taps Game only where the person left it untapped (or a
// script tapped it); a person's tap the counts contradict is said, never changed.
const ANA = { side: 0, player: 0 };
const TIE = { nobody: true };

test("with Game untapped, the counter taps it for the side that counted most", () => {
  assert.deepEqual(gameCall({ tapped: null, byPerson: false, game: ANA }), { tap: ANA, contradiction: null });
  assert.deepEqual(gameCall({ tapped: null, byPerson: false, game: TIE }), { tap: TIE, contradiction: null });
});

test("a Game a script tapped (the count, the rest) follows the count", () => {
  assert.deepEqual(gameCall({ tapped: { side: 1 }, byPerson: false, game: ANA }), { tap: ANA, contradiction: null });
});

test("nothing counted, or counted past the pack, says nothing and taps nothing", () => {
  assert.deepEqual(gameCall({ tapped: { side: 1 }, byPerson: true, game: null }), { tap: null, contradiction: null });
  assert.deepEqual(gameCall({ tapped: null, byPerson: false, game: null }), { tap: null, contradiction: null });
});

test("a person's tap the count agrees with stays, with nothing said", () => {
  assert.deepEqual(gameCall({ tapped: { side: 0 }, byPerson: true, game: ANA }), { tap: null, contradiction: null });
  assert.deepEqual(gameCall({ tapped: TIE, byPerson: true, game: TIE }), { tap: null, contradiction: null });
});

test("a person's tap the count contradicts is said as such, and never moved", () => {
  assert.deepEqual(gameCall({ tapped: { side: 1 }, byPerson: true, game: ANA }), {
    tap: null, contradiction: { kind: "leader", taker: { side: 1 }, leader: 0 },
  });
  assert.deepEqual(gameCall({ tapped: { side: 1 }, byPerson: true, game: TIE }), {
    tap: null, contradiction: { kind: "tie", taker: { side: 1 }, leader: null },
  });
  assert.deepEqual(gameCall({ tapped: TIE, byPerson: true, game: ANA }), {
    tap: null, contradiction: { kind: "nobody", taker: TIE, leader: 0 },
  });
});
