// The connection indicator (templates/_connection.html): connected, reconnecting, or offline,
// with the hands waiting on this phone. One piece for every game page and board: a page's
// own script reports what its requests met (ok / failed), or this one asks ping_url itself.
// Its words come from the page, in the page's language. It also registers the service
// worker, where the browser allows one (https, localhost): static/js/sw.js.
(function () {
  "use strict";
  var box = document.getElementById("connection");
  if (!box || !window.fetch) { return; }
  var words = JSON.parse(box.dataset.words);
  var text = box.querySelector(".connection-text");
  var waitingText = box.querySelector(".connection-waiting");
  var pingUrl = box.dataset.pingUrl;
  var state = "connected";
  var waiting = 0;
  var failures = 0;
  var timer = null;
  var listeners = [];

  function show() {
    box.dataset.state = state;
    text.textContent = words[state];
    waitingText.hidden = waiting === 0;
    waitingText.textContent = waiting ? words.waiting.replace("{n}", String(waiting)) : "";
    box.hidden = false;
  }

  function set(next) {
    var was = state;
    state = next;
    show();
    if (was !== next) {
      listeners.forEach(function (listener) { listener(next, was); });
    }
  }

  // A request reached the server.
  function ok() {
    failures = 0;
    set("connected");
  }

  // A request did not reach it: the first miss is "reconnecting", a second (or a browser
  // that knows it has no network) is "offline".
  function failed() {
    failures += 1;
    set(failures > 1 || navigator.onLine === false ? "offline" : "reconnecting");
  }

  function ping() {
    window.clearTimeout(timer);
    if (!pingUrl) { return; }
    fetch(pingUrl, { cache: "no-store", headers: { "Accept": "application/json" } })
      .then(function (response) { if (response.ok) { ok(); } else { failed(); } })
      .catch(failed)
      .then(function () {
        timer = window.setTimeout(ping, state === "connected" ? 5000 : 2000);
      });
  }

  window.addEventListener("offline", function () { failures = 1; failed(); });
  window.addEventListener("online", function () {
    set("reconnecting");
    if (pingUrl) { ping(); }
  });

  window.ScorekeeperConnection = {
    ok: ok,
    failed: failed,
    ping: ping,
    state: function () { return state; },
    setWaiting: function (count) { waiting = count; show(); },
    // listener(state, previous) is called on every change of state.
    onChange: function (listener) { listeners.push(listener); }
  };

  if (navigator.onLine === false) { failures = 1; state = "offline"; }
  show();
  if (pingUrl) { ping(); }

  if ("serviceWorker" in navigator && window.isSecureContext && box.dataset.workerUrl) {
    navigator.serviceWorker.register(box.dataset.workerUrl, { scope: "/" }).catch(function () {
      // No worker (a private window, a browser that refuses): the page works without it.
    });
  }
})();
