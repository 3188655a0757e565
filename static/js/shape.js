// The new-game form's "Shape of the game": keep the points' total up to date as boxes are
// ticked, and let a highest bid (and a smudge bid) that still follow the total follow it.
// Without this script the server does the same when the form is sent (RULES.md section 10).
(function () {
  "use strict";
  var box = document.getElementById("points-in-play");
  var total = document.getElementById("points-total");
  if (!box || !total) return;
  var maxBid = document.getElementById("max_bid");
  var smudgeBid = document.getElementById("smudge_bid");

  function sum() {
    var n = 0;
    box.querySelectorAll("input[type=checkbox]").forEach(function (input) {
      if (input.checked) n += parseInt(input.getAttribute("data-value"), 10) || 0;
    });
    return n;
  }

  var shown = sum();
  box.addEventListener("change", function () {
    var now = sum();
    if (maxBid && String(maxBid.value) === String(shown)) maxBid.value = now;
    if (smudgeBid && String(smudgeBid.value) === String(shown)) smudgeBid.value = now;
    total.textContent = String(now);
    shown = now;
  });
})();
