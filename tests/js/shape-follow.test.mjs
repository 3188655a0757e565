// The setup form's shape of the game (static/js/shape-follow.js) against
// tests/cases/highest_bid.json, the table the engine is tested against too
// (tests/rules/test_rules_case_tables.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { afterHighest, afterPoints, pointsTotal } from "../../static/js/shape-follow.js";
import { cases } from "./cases.mjs";

const table = cases("highest_bid.json");
// A bid as its box holds it: text, and an empty box for none.
const box = (bid) => (bid === null ? "" : String(bid));

// The form as the page draws it for a variant: its preset's total and bids.
function drawn(variant) {
  const preset = table.presets[variant];
  assert.equal(pointsTotal(Object.values(preset.points)), preset.total);
  return { total: preset.total, highest: box(preset.max_bid), smudge: box(preset.smudge_bid) };
}

for (const shape of table.cases) {
  test(`the shape: ${shape.says}`, () => {
    let form = drawn(shape.variant);
    for (const [name, bid] of Object.entries(shape.typed)) {
      form = name === "max_bid" ? afterHighest(form, String(bid)) : { ...form, smudge: String(bid) };
    }
    form = afterPoints(form, pointsTotal(Object.values(shape.points)));
    assert.deepEqual(form, {
      total: shape.total, highest: box(shape.max_bid), smudge: box(shape.smudge_bid),
    });
  });
}

test("a highest bid typed a key at a time takes the smudge bid along", () => {
  let form = { total: 10, highest: "10", smudge: "10" };
  form = afterHighest(form, "");
  form = afterHighest(form, "8");
  assert.deepEqual(form, { total: 10, highest: "8", smudge: "8" });
});

test("a game with no smudge box keeps none", () => {
  assert.deepEqual(afterPoints({ total: 4, highest: "4", smudge: null }, 5),
    { total: 5, highest: "5", smudge: null });
});

test("no point ticked is a total of 0", () => {
  assert.equal(pointsTotal([]), 0);
});
