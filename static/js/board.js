// The scoreboard reloads itself when the game's version changes (a hand saved elsewhere).
// Each poll tells the connection indicator whether the server answered; after a drop, the
// first answer that reaches it brings the board up to date (static/js/connection.js).
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board || !window.fetch) { return; }
  var connection = window.ScorekeeperConnection;
  var url = board.dataset.pollUrl;
  var known = board.dataset.version;
  var every = Math.max(0.5, parseFloat(board.dataset.pollSeconds) || 1.5) * 1000;
  function poll() {
    fetch(url, { cache: "no-store", headers: { "Accept": "application/json" } })
      .then(function (r) {
        if (connection) { if (r.ok) { connection.ok(); } else { connection.failed(); } }
        return r.ok ? r.json() : null;
      })
      .then(function (data) {
        if (data && String(data.version) !== String(known)) {
          window.location.reload();
          return;
        }
        window.setTimeout(poll, every);
      })
      .catch(function () {
        if (connection) { connection.failed(); }
        window.setTimeout(poll, every * 2);
      });
  }
  window.setTimeout(poll, every);
})();
