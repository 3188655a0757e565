// The scoreboard reloads itself when the game's version changes (a hand saved elsewhere).
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board || !window.fetch) { return; }
  var url = board.dataset.pollUrl;
  var known = board.dataset.version;
  var every = Math.max(0.5, parseFloat(board.dataset.pollSeconds) || 1.5) * 1000;
  function poll() {
    fetch(url, { cache: "no-store", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && String(data.version) !== String(known)) {
          window.location.reload();
          return;
        }
        window.setTimeout(poll, every);
      })
      .catch(function () { window.setTimeout(poll, every * 2); });
  }
  window.setTimeout(poll, every);
})();
