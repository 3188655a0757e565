// The hand form's Game counter (templates/games/_game_counter.html): add up each player's
// cards and each side's count as they are typed, and tap Game for the side that counted
// most (its best counter, or in partnership play its team's button; Nobody on a tie). The
// sums are game-count.js's. Without this script the server does the same when the hand is
// saved (RULES.md section 10).
import { countGame } from "./game-count.js";

const panel = document.getElementById("game-counter");
const form = panel ? panel.closest("form") : null;
if (panel && form) { panel.addEventListener("input", update); }

function number(input) {
  const n = parseInt(input.value, 10);
  return Number.isNaN(n) ? null : n;
}

function update() {
  const sides = Array.from(panel.querySelectorAll(".counter-side"), (side) => ({
    element: side,
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
  if (sums.game === null) { return; }
  // Game's buttons: a seat's, a team's in partnership play, and the form's "nobody".
  let value = "nobody";
  if (!sums.game.nobody) {
    const side = sides[sums.game.side];
    value = side.team || side.rows[sums.game.player].getAttribute("data-seat");
  }
  const radio = form.querySelector('input[name="point_game"][value="' + value + '"]');
  if (radio) { radio.checked = true; }
}
