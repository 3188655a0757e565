// Live boards and game pages (templates/games/_live.html): the server pushes each change to
// the game as a Server-Sent Event (scorekeeper/live/views.py); the page then fetches
// itself again and swaps, in place, each region marked data-live whose content changed
// (no reload: nothing else on the page moves). A hand form being filled in is never
// touched: its one-time key and version already answer a hand saved meanwhile.
// The stream says "alive" every few seconds: hearing nothing for twice that, the
// connection indicator (static/js/connection.js) says "connection lost — reconnecting" and
// the stream is opened again, asking for what changed since the version the page shows.
// Without EventSource (or where the server keeps no streams: a 503) the page polls.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.fetch || !window.DOMParser) { return; }
  var connection = window.ScorekeeperConnection || { ok: function () {}, failed: function () {} };
  var words = JSON.parse(live.dataset.words);
  var notice = document.getElementById("live-notice");
  var form = document.getElementById("hand-form");
  var known = live.dataset.version;
  var pageUrl = live.dataset.pageUrl;
  var heartbeat = (parseFloat(live.dataset.heartbeatSeconds) || 2) * 1000;
  var pollEvery = Math.max(0.5, parseFloat(live.dataset.pollSeconds) || 1.5) * 1000;
  var source = null;
  var watchdog = null;
  var fetching = false;
  var again = false;
  var submitting = false;
  var down = false;
  var noticeTimer = null;
  if (notice) { notice.addEventListener("click", function () { notice.hidden = true; }); }

  var touched = false;
  if (form) {
    form.addEventListener("change", function () { touched = true; });
    form.addEventListener("submit", function () {
      // This phone is saving: the change it hears next is its own hand.
      submitting = true;
      window.setTimeout(function () { submitting = false; }, 5000);
    }, true);
  }

  // Hands kept on this phone and not yet sent (static/js/offline.js) sit in the sheet and
  // mark the standings provisional: leave those regions as they are until they are sent.
  function keptHands() {
    var rows = document.getElementById("unsaved-rows");
    return rows !== null && rows.children.length > 0;
  }

  function handNumber(doc) {
    var field = doc.querySelector("#hand-form #number");
    return field ? parseInt(field.value, 10) || 0 : 0;
  }

  // Swap in the regions of ``doc`` (the page as the server now draws it) that changed.
  function swap(doc) {
    var regions = document.querySelectorAll("[data-live]");
    var fresh = doc.querySelectorAll("[data-live]");
    var names = function (list) {
      return Array.prototype.map.call(list, function (el) { return el.dataset.live; }).join(" ");
    };
    if (names(regions) !== names(fresh)) {
      // The page is drawn otherwise now (the game ended): reload, unless a hand is being
      // filled in, which the form's own answer then deals with.
      if (!form || (!touched && !submitting)) { window.location.reload(); }
      return;
    }
    if (keptHands()) { return; }
    var before = form ? handNumber(document) : 0;
    Array.prototype.forEach.call(regions, function (region, i) {
      var next = fresh[i];
      if (region.innerHTML === next.innerHTML) { return; }
      // offline.js holds the unsaved-rows element: keep that one.
      var keep = region.querySelector("#unsaved-rows");
      var slot = next.querySelector("#unsaved-rows");
      if (keep && slot) { slot.parentNode.replaceChild(keep, slot); }
      region.replaceChildren.apply(region, Array.prototype.slice.call(next.childNodes));
      // For a script that set up the old content (row taps, say) to set up the new.
      region.dispatchEvent(new CustomEvent("scorekeeper:live", { bubbles: true }));
    });
    var after = handNumber(doc);
    if (form && notice && !submitting && after > before) {
      notice.textContent = words.recorded.replace("{n}", String(after - 1));
      notice.hidden = false;
      // It sits over the foot of the screen (Save may be under it): a tap or 8 s clears it.
      window.clearTimeout(noticeTimer);
      noticeTimer = window.setTimeout(function () { notice.hidden = true; }, 8000);
    }
  }

  // Fetch the page as it now is and swap in what changed (one fetch at a time; a change
  // heard meanwhile fetches once more after it).
  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    again = false;
    // The header keeps the page's messages (a save's "Ana made 3.") for the page they are for.
    fetch(pageUrl, { cache: "no-store", credentials: "same-origin", headers: { "X-Scorekeeper-Live": "1" } })
      .then(function (response) {
        if (response.status === 404) { window.location.reload(); return null; }
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html === null) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live");
        if (!fresh) { return; }
        swap(doc);
        known = fresh.dataset.version;
        live.dataset.version = known;
      })
      .catch(function () { failed(); })
      .then(function () {
        fetching = false;
        if (again) { refresh(); }
      });
  }

  // A change is fetched 30-150 ms after it is heard, each page at its own moment: the phone
  // that saved it fetches its own page first, and twenty boards do not ask all at once
  // (bench/live.py measures both).
  function heard(version) {
    if (String(version) !== String(known)) {
      window.setTimeout(refresh, 30 + Math.random() * 120);
    }
  }

  // --- The stream -----------------------------------------------------------------------------

  function alive() {
    down = false;
    connection.ok();
    window.clearTimeout(watchdog);
    watchdog = window.setTimeout(lost, heartbeat * 2 + 500);
  }

  // Say the connection is lost once per outage ("connection lost — reconnecting"), however
  // often the stream is tried again meanwhile.
  function failed() {
    if (!down) { connection.failed(); }
    down = true;
  }

  function lost() {
    failed();
    if (source) { source.close(); source = null; }
    window.setTimeout(open, 1000);
  }

  function versionOf(event) {
    try { return JSON.parse(event.data).version; } catch (e) { return null; }
  }

  function open() {
    if (source) { return; }
    var url = live.dataset.eventsUrl + "?since=" + encodeURIComponent(known);
    source = new EventSource(url);
    window.clearTimeout(watchdog);
    watchdog = window.setTimeout(lost, heartbeat * 2 + 500);
    source.addEventListener("alive", function (event) { alive(); heard(versionOf(event)); });
    source.addEventListener("change", function (event) { alive(); heard(versionOf(event)); });
    source.addEventListener("deleted", function () {
      source.close();
      window.location.reload();  // the page now says the game is gone
    });
    source.onerror = function () {
      if (!source) { return; }
      if (source.readyState === EventSource.CLOSED) {
        // Refused (the server keeps no more streams, or cannot): poll instead.
        source = null;
        window.clearTimeout(watchdog);
        poll();
        return;
      }
      failed();  // the browser connects again by itself (the stream's retry)
    };
  }

  // --- Polling, where there is no stream --------------------------------------------------------

  function poll() {
    fetch(live.dataset.pollUrl, { cache: "no-store", headers: { "Accept": "application/json" } })
      .then(function (r) {
        if (r.ok) { connection.ok(); } else { connection.failed(); }
        return r.ok ? r.json() : null;
      })
      .then(function (data) {
        if (data) { heard(data.version); }
        window.setTimeout(poll, pollEvery);
      })
      .catch(function () {
        connection.failed();
        window.setTimeout(poll, pollEvery * 2);
      });
  }

  window.addEventListener("pagehide", function () {
    if (source) { source.close(); source = null; }
    window.clearTimeout(watchdog);
  });

  if (window.EventSource) { open(); } else { window.setTimeout(poll, pollEvery); }
})();
