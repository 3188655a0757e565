// The hand form's "the rest to" row, on a game of two sides: tapping a side taps it in every
// point row left untapped (and in the rows it filled before), and a row tapped after that
// is the person's own. The taps are hand-taps.js's; without this script the server fills
// the untapped rows the same way when the hand is saved. Listened for on the document, so a
// form put in place afresh (offline.js, after a save) works the same.
import { BY_PERSON, BY_REST, restTaps } from "./hand-taps.js";

// Game's row (the Game counter's too: counter.js).
const GAME_ROW = "point_game";

document.addEventListener("change", (event) => {
  const input = event.target;
  const form = input && input.form;
  if (!form || form.id !== "hand-form" || input.type !== "radio") { return; }
  if (input.name === "rest") {
    fillTheRest(form, input.value);
  } else if (pointRows(form).indexOf(input.name) !== -1) {
    input.closest("fieldset").dataset.by = BY_PERSON;
  }
});

function pointRows(form) {
  return Array.from(form.querySelectorAll("fieldset.taps.row"), (row) => row.id)
    .filter((name) => /^point_/.test(name));
}

function fillTheRest(form, side) {
  // Game is left to the count when one is typed (the Game counter taps it).
  const counted = Array.from(form.querySelectorAll("#game-counter input"))
    .some((input) => input.value !== "");
  const rows = pointRows(form).map((name) => {
    const checked = form.querySelector(`input[name="${name}"]:checked`);
    return { name, value: checked ? checked.value : null, by: form.querySelector("#" + name).dataset.by || null };
  });
  restTaps(rows, side, counted ? [GAME_ROW] : []).forEach(({ name, value }) => {
    const radio = Array.from(form.querySelectorAll(`input[name="${name}"]`)).find((r) => r.value === value);
    if (!radio) { return; }
    radio.checked = true;
    form.querySelector("#" + name).dataset.by = BY_REST;
    // Tell the other scripts (the Game counter, the live page) a tap changed.
    radio.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
