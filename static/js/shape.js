// The new-game form's "Shape of the game" (templates/setup/new.html): keep the points' total
// up to date as boxes are ticked, and let a highest bid (and a smudge bid) that still
// follow the total follow it; the rule is shape-follow.js's. Without this script the
// server does the same when the form is sent (RULES.md section 10).
import { pointsTotal, afterPoints, afterHighest } from "./shape-follow.js";

const box = document.getElementById("points-in-play");
const total = document.getElementById("points-total");
if (box && total) { follow(); }

function follow() {
  const maxBid = document.getElementById("max_bid");
  const smudgeBid = document.getElementById("smudge_bid");
  const ticked = () => pointsTotal(Array.from(box.querySelectorAll("input[type=checkbox]:checked"),
    (input) => parseInt(input.getAttribute("data-value"), 10) || 0));
  // The form as the script last left it: the total shown, and the highest bid then.
  let shape = {
    total: ticked(),
    highest: maxBid ? maxBid.value : "",
    smudge: smudgeBid ? smudgeBid.value : null,
  };
  const set = (input, value) => {
    if (input && value !== null && input.value !== value) { input.value = value; }
  };
  const show = (next) => {
    set(maxBid, next.highest);
    set(smudgeBid, next.smudge);
    total.textContent = String(next.total);
    shape = next;
  };
  // What the person typed since counts as typed: only the highest bid's last value is the
  // script's to compare with (a smudge bid typed is read as it is now).
  const now = () => ({ ...shape, smudge: smudgeBid ? smudgeBid.value : null });
  box.addEventListener("change", () => {
    show(afterPoints({ ...now(), highest: maxBid ? maxBid.value : "" }, ticked()));
  });
  if (maxBid) {
    maxBid.addEventListener("input", () => show(afterHighest(now(), maxBid.value)));
  }
}
