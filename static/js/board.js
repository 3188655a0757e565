// Live boards and game pages (templates/games/_live.html): the server pushes each change to
// the game as a Server-Sent Event (scorekeeper/live/views.py); the page then fetches
// itself again and swaps, in place, each region marked data-live whose content changed
// (page-swap.js). A hand form being filled in is never touched: its one-time key and
// number already answer a hand saved meanwhile. A hand recorded on another phone is said
// where this page says what was just done (the "said" region above the scores), never over
// the form's Save.
// The stream says "alive" every few seconds: hearing nothing for twice that, the
// connection indicator (static/js/connection.js) says "connection lost — reconnecting" and
// the stream is opened again, asking for what changed since the version the page shows.
// Without EventSource (or where the server keeps no streams: a 503) the page polls.
// What to do with a fresh copy of the page is worked out in board-plan.js.
import { connection } from "./connection.js";
import {
  onFreshPage, recordedElsewhere, fetchAfter, isNewer, silenceAllowed, millis,
} from "./board-plan.js";
import { refresh, regionNames, say, shownVersion } from "./page-swap.js";
import { fill } from "./words.js";

const live = document.getElementById("live");
if (live && window.fetch && window.DOMParser) { follow(live); }

function follow(live) {
  const words = JSON.parse(live.dataset.words);
  const form = document.getElementById("hand-form");
  const heartbeat = millis(live.dataset.heartbeatSeconds, 2);
  const pollEvery = millis(live.dataset.pollSeconds, 1.5, 0.5);
  let source = null;
  let watchdog = null;
  let submitting = false;
  let touched = false;
  let down = false;

  if (form) {
    form.addEventListener("change", () => { touched = true; });
    // offline.js put the next hand's fresh form in place: nothing is tapped on it.
    form.addEventListener("scorekeeper:fresh-form", () => { touched = false; });
    form.addEventListener("submit", () => {
      // This phone is saving: the change it hears next is its own hand.
      submitting = true;
      window.setTimeout(() => { submitting = false; }, 5000);
    }, true);
  }

  function handNumber(doc) {
    const field = doc.querySelector("#hand-form #number");
    return field ? parseInt(field.value, 10) || 0 : 0;
  }

  // What to do with the page as the server now draws it (and say a hand another phone
  // recorded, where this page says what was just done).
  function decide(doc) {
    // Hands kept on this phone and not yet sent (static/js/offline.js) sit in the sheet.
    const kept = document.getElementById("unsaved-rows");
    const plan = onFreshPage({
      shown: regionNames(document),
      fresh: regionNames(doc),
      filling: Boolean(form) && (touched || submitting),
      handsKept: kept !== null && kept.children.length > 0,
      form: document.getElementById("hand-form") !== null,
      freshForm: doc.getElementById("hand-form") !== null,
    });
    const recorded = form
      ? recordedElsewhere({ before: handNumber(document), after: handNumber(doc), saving: submitting })
      : null;
    if (recorded !== null) {
      // Said once the regions are swapped (the swap empties what the page said before).
      window.setTimeout(() => say([fill(words.recorded, { n: recorded })], "flash flash-live"), 0);
    }
    return plan;
  }

  // Fetch the page as it now is and swap in what changed (page-swap.js: one fetch at a
  // time, and a version the page already shows is not fetched again).
  function changed(version) {
    // While this phone saves, what it says of its own hand stays (offline.js says it).
    refresh({ heard: version, decide, keep: submitting ? ["said"] : [] }).catch(() => failed());
  }

  // A change is fetched a moment after it is heard: the phone that saved it fetches its own
  // page first, and twenty boards do not ask all at once (bench/live.py measures both).
  function heard(version) {
    if (!isNewer(version, shownVersion())) { return; }
    window.setTimeout(() => changed(version), fetchAfter(Math.random()));
  }

  // --- The stream ---------------------------------------------------------------------------

  function alive() {
    down = false;
    connection.ok();
    window.clearTimeout(watchdog);
    watchdog = window.setTimeout(lost, silenceAllowed(heartbeat));
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
    source = new EventSource(live.dataset.eventsUrl + "?since=" + encodeURIComponent(shownVersion()));
    window.clearTimeout(watchdog);
    watchdog = window.setTimeout(lost, silenceAllowed(heartbeat));
    source.addEventListener("alive", (event) => { alive(); heard(versionOf(event)); });
    source.addEventListener("change", (event) => { alive(); heard(versionOf(event)); });
    source.addEventListener("deleted", () => {
      source.close();
      window.location.reload();  // the page now says the game is gone
    });
    source.onerror = () => {
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

  // --- Polling, where there is no stream ------------------------------------------------------

  function poll() {
    fetch(live.dataset.pollUrl, { cache: "no-store", headers: { "Accept": "application/json" } })
      .then((r) => {
        if (r.ok) { connection.ok(); } else { connection.failed(); }
        return r.ok ? r.json() : null;
      })
      .then((data) => {
        if (data) { heard(data.version); }
        window.setTimeout(poll, pollEvery);
      })
      .catch(() => {
        connection.failed();
        window.setTimeout(poll, pollEvery * 2);
      });
  }

  window.addEventListener("pagehide", () => {
    if (source) { source.close(); source = null; }
    window.clearTimeout(watchdog);
  });

  // A page with no stream (the director's screen, which follows the event slowly) polls.
  if (window.EventSource && live.dataset.eventsUrl) { open(); } else { window.setTimeout(poll, pollEvery); }
}
