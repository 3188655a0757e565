// The hand form's Game counter (templates/games/_game_counter.html): add up each player's
// cards and each side's count as they are typed, and tap Game for the side that counted
// most (its best counter, or in partnership play its team's button; Nobody on a tie) while
// Game is left untapped, or was tapped by a script. A Game the person tapped is never
// changed: counts that contradict it are said beside the counter, to be resolved by a tap
// or a corrected count (the server refuses that hand too). The sums are game-count.js's.
// Without this script the server does the same when the hand is saved (RULES.md section
// 10). Listened for on the document, so a form put in place afresh (offline.js) works too.
import { countGame, gameCall } from "./game-count.js";
import { fill } from "./words.js";

// Game's row, and who tapped it (rest.js marks its rows the same way).
const GAME_ROW = "point_game";
const BY_PERSON = "person";
const BY_COUNT = "count";

document.addEventListener("input", (event) => {
  const panel = event.target && event.target.closest && event.target.closest("#game-counter");
  if (panel) { update(panel); }
});
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!input || input.name !== GAME_ROW || !input.form) { return; }
  const panel = input.form.querySelector("#game-counter");
  if (!panel) { return; }
  // A real tap is the person's; a tap another script makes says so itself (data-by).
  if (event.isTrusted) { input.closest("fieldset").dataset.by = BY_PERSON; }
  update(panel);
});

function number(input) {
  const n = parseInt(input.value, 10);
  return Number.isNaN(n) ? null : n;
}

function update(panel) {
  const form = panel.closest("form");
  const sides = Array.from(panel.querySelectorAll(".counter-side"), (side) => ({
    element: side,
    name: side.getAttribute("data-name"),
    team: side.getAttribute("data-team"),
    rows: Array.from(side.querySelectorAll(".counter-row")),
  }));
  const countBox = (row) => row.querySelector(".player-count input");
  // The most the pack counts is the most a player's count box takes (the server writes both).
  const most = parseInt(countBox(sides[0].rows[0]).getAttribute("max"), 10);
  const sums = countGame(sides.map((side) => ({
    players: side.rows.map((row) => ({
      count: number(countBox(row)),
      cards: Array.from(row.querySelectorAll(".card-count input"),
        (input) => [parseInt(input.getAttribute("data-worth"), 10), number(input)]),
    })),
  })), most);
  sides.forEach((side, s) => {
    side.rows.forEach((row, p) => {
      if (sums.counts[s][p] !== null) { countBox(row).value = sums.counts[s][p]; }
    });
    side.element.querySelector(".side-count").textContent =
      sums.totals === null ? "" : String(sums.totals[s]);
  });
  // Game's buttons: a seat's, a team's in partnership play, and the form's "nobody".
  const gameRow = form.querySelector("#" + GAME_ROW);
  const radios = Array.from(form.querySelectorAll(`input[name="${GAME_ROW}"]`));
  const checked = radios.find((radio) => radio.checked) || null;
  const call = gameCall({
    tapped: checked ? sideOf(sides, checked.value) : null,
    byPerson: gameRow.dataset.by === BY_PERSON,
    game: sums.game,
  });
  if (call.tap) {
    let value = "nobody";
    if (!call.tap.nobody) {
      const side = sides[call.tap.side];
      value = side.team || side.rows[call.tap.player].getAttribute("data-seat");
    }
    const radio = radios.find((r) => r.value === value);
    if (radio && !radio.checked) {
      radio.checked = true;
      gameRow.dataset.by = BY_COUNT;
    }
  }
  say(panel, sides, call.contradiction);
}

// Game's tap as a side of the counter: the side of the seat or team tapped, or nobody.
function sideOf(sides, value) {
  const side = sides.findIndex((s) => s.team === value
    || s.rows.some((row) => row.getAttribute("data-seat") === value));
  return side === -1 ? { nobody: true } : { side };
}

function say(panel, sides, contradiction) {
  const out = panel.querySelector("#game-count-says");
  if (!out) { return; }
  if (!contradiction) {
    out.hidden = true;
    out.textContent = "";
    return;
  }
  const words = JSON.parse(panel.dataset.words);
  out.textContent = fill(words[contradiction.kind], {
    taker: contradiction.taker.nobody ? "" : sides[contradiction.taker.side].name,
    leader: contradiction.leader === null ? "" : sides[contradiction.leader].name,
  });
  out.hidden = false;
}
