// The round clock's text and its tick (static/js/clock-text.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText, tick } from "../../static/js/clock-text.js";

test("seconds read as minutes and two-digit seconds", () => {
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(65), "1:05");
  assert.equal(clockText(3600), "60:00");
  assert.equal(clockText(-4), "0:00");
});

test("a timed round counts down and stops at zero; an untimed one counts up", () => {
  assert.equal(tick(10, true), 9);
  assert.equal(tick(0, true), 0);
  assert.equal(tick(10, false), 11);
});
