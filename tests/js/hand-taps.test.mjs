// "The rest to" on a hand form of two sides (static/js/hand-taps.js): one tap gives every
// point left untapped to one side; the exceptions are tapped after it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BY_PERSON, BY_REST, restTaps } from "../../static/js/hand-taps.js";

const untapped = (name) => ({ name, value: null, by: null });

test("the rest to a side taps it in every point row left untapped", () => {
  const rows = ["point_high", "point_low", "point_jack"].map(untapped);
  assert.deepEqual(restTaps(rows, "team-0"), [
    { name: "point_high", value: "team-0" },
    { name: "point_low", value: "team-0" },
    { name: "point_jack", value: "team-0" },
  ]);
});

test("a row the person tapped stays, and is the exception", () => {
  const rows = [untapped("point_high"), { name: "point_low", value: "team-1", by: BY_PERSON }];
  assert.deepEqual(restTaps(rows, "team-0"), [{ name: "point_high", value: "team-0" }]);
});

test("the rest tapped again for the other side moves the rows it filled, not the person's", () => {
  const rows = [
    { name: "point_high", value: "team-0", by: BY_REST },
    { name: "point_low", value: "team-0", by: BY_PERSON },
    { name: "point_jack", value: "team-1", by: BY_REST },
  ];
  assert.deepEqual(restTaps(rows, "team-1"), [{ name: "point_high", value: "team-1" }]);
});

test("a row left to the count is not filled, and no side taps nothing", () => {
  const rows = [untapped("point_high"), untapped("point_game")];
  assert.deepEqual(restTaps(rows, "1", ["point_game"]), [{ name: "point_high", value: "1" }]);
  assert.deepEqual(restTaps(rows, null), []);
  assert.deepEqual(restTaps(rows, ""), []);
});
