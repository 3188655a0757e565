// A phone's label as kept (static/js/device-label.js): squeezed, cut, kept in a storage and
// read back; a storage that refuses (private mode) keeps nothing and breaks nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LABEL_MAX, cleanLabel, keepLabel, storedLabel } from "../../static/js/device-label.js";

function memory() {
  const kept = new Map();
  return {
    getItem: (key) => (kept.has(key) ? kept.get(key) : null),
    setItem: (key, value) => kept.set(key, String(value)),
    removeItem: (key) => kept.delete(key),
  };
}

test("white space is squeezed and the label is cut at the most it may hold", () => {
  assert.equal(cleanLabel("  Dana's \t  phone \n"), "Dana's phone");
  assert.equal(cleanLabel("x".repeat(LABEL_MAX + 9)).length, LABEL_MAX);
  assert.equal(cleanLabel(null), "");
});

test("a label is cut by letters, never inside a pair of code units", () => {
  const label = cleanLabel("😀".repeat(LABEL_MAX + 1));
  assert.equal(Array.from(label).length, LABEL_MAX);
  assert.equal(label, "😀".repeat(LABEL_MAX));
});

test("a label kept is read back, and a blank one forgets it", () => {
  const storage = memory();
  assert.equal(storedLabel(storage), "");
  assert.equal(keepLabel(storage, " Telefonul lui Ștefan "), "Telefonul lui Ștefan");
  assert.equal(storedLabel(storage), "Telefonul lui Ștefan");
  assert.equal(keepLabel(storage, "   "), "");
  assert.equal(storedLabel(storage), "");
});

test("a storage that throws keeps nothing and breaks nothing", () => {
  const refusing = {
    getItem: () => { throw new Error("private"); },
    setItem: () => { throw new Error("private"); },
    removeItem: () => { throw new Error("private"); },
  };
  assert.equal(storedLabel(refusing), "");
  assert.equal(keepLabel(refusing, "Dana's phone"), "Dana's phone");
});
