// The hand form's Game counter: add up each player's cards (a ten 10, an ace 4, a king 3,
// a queen 2, a jack 1) and each side's count as they are typed, and tap Game for the side
// that counted most (its best counter, or in partnership play its team's button; Nobody on
// a tie). Without this script the server does the same when the hand is saved (RULES.md
// section 10).
(function () {
  "use strict";
  var panel = document.getElementById("game-counter");
  if (!panel) return;
  var form = panel.closest("form");

  function number(input) {
    var n = parseInt(input.value, 10);
    return isNaN(n) ? null : n;
  }

  function update() {
    var sides = [];
    var any = false;
    panel.querySelectorAll(".counter-side").forEach(function (side) {
      var total = 0;
      var best = null;
      side.querySelectorAll(".counter-row").forEach(function (row) {
        var cards = row.querySelectorAll(".card-count input");
        var count = row.querySelector(".player-count input");
        var sum = 0;
        var typed = false;
        cards.forEach(function (input) {
          var n = number(input);
          if (n !== null) { typed = true; sum += n * parseInt(input.getAttribute("data-worth"), 10); }
        });
        if (typed) { count.value = sum; }
        var mine = number(count);
        if (mine !== null) { any = true; } else { mine = 0; }
        total += mine;
        if (best === null || mine > best.count) { best = { seat: row.getAttribute("data-seat"), count: mine }; }
      });
      // In partnership play Game's buttons are the teams': the side's own button.
      sides.push({ total: total, best: best, team: side.getAttribute("data-team"),
                   out: side.querySelector(".side-count") });
    });
    sides.forEach(function (s) { s.out.textContent = any ? String(s.total) : ""; });
    if (!any || !form) return;
    var high = Math.max.apply(null, sides.map(function (s) { return s.total; }));
    var top = sides.filter(function (s) { return s.total === high; });
    var value = top.length === 1 ? (top[0].team || top[0].best.seat) : "nobody";
    var radio = form.querySelector('input[name="point_game"][value="' + value + '"]');
    if (radio) { radio.checked = true; }
  }

  panel.addEventListener("input", update);
})();
