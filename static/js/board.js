// Live boards and game pages (templates/games/_live.html): the server pushes each change to
// the game as a Server-Sent Event (scorekeeper/live/views.py); the page then fetches
// itself again and swaps, in place, each region marked data-live whose content changed
// (no reload: nothing else on the page moves). A hand form being filled in is never
// touched: its one-time key and version already answer a hand saved meanwhile.
// The stream says "alive" every few seconds: hearing nothing for twice that, the
// connection indicator (static/js/connection.js) says "connection lost — reconnecting" and
// the stream is opened again, asking for what changed since the version the page shows.
// Without EventSource (or where the server keeps no streams: a 503) the page polls.
// What to do with a fresh copy of the page is worked out in board-plan.js.
import { connection } from "./connection.js";
import {
  RELOAD, SWAP, onFreshPage, recordedElsewhere, isNews, fetchAfter, silenceAllowed, millis,
} from "./board-plan.js";
import { fill } from "./words.js";

const live = document.getElementById("live");
if (live && window.fetch && window.DOMParser) { follow(live); }

function follow(live) {
  const words = JSON.parse(live.dataset.words);
  const notice = document.getElementById("live-notice");
  const form = document.getElementById("hand-form");
  const pageUrl = live.dataset.pageUrl;
  const heartbeat = millis(live.dataset.heartbeatSeconds, 2);
  const pollEvery = millis(live.dataset.pollSeconds, 1.5, 0.5);
  let known = live.dataset.version;
  let source = null;
  let watchdog = null;
  let fetching = false;
  let again = false;
  let submitting = false;
  let touched = false;
  let down = false;
  let noticeTimer = null;
  if (notice) { notice.addEventListener("click", () => { notice.hidden = true; }); }

  if (form) {
    form.addEventListener("change", () => { touched = true; });
    form.addEventListener("submit", () => {
      // This phone is saving: the change it hears next is its own hand.
      submitting = true;
      window.setTimeout(() => { submitting = false; }, 5000);
    }, true);
  }

  const names = (list) => Array.prototype.map.call(list, (el) => el.dataset.live);

  function handNumber(doc) {
    const field = doc.querySelector("#hand-form #number");
    return field ? parseInt(field.value, 10) || 0 : 0;
  }

  // Swap in the regions of `doc` (the page as the server now draws it) that changed.
  function swap(doc) {
    const regions = document.querySelectorAll("[data-live]");
    const fresh = doc.querySelectorAll("[data-live]");
    // Hands kept on this phone and not yet sent (static/js/offline.js) sit in the sheet.
    const kept = document.getElementById("unsaved-rows");
    const plan = onFreshPage({
      shown: names(regions),
      fresh: names(fresh),
      filling: Boolean(form) && (touched || submitting),
      handsKept: kept !== null && kept.children.length > 0,
    });
    if (plan === RELOAD) { window.location.reload(); }
    if (plan !== SWAP) { return; }
    const before = form ? handNumber(document) : 0;
    Array.prototype.forEach.call(regions, (region, i) => {
      const next = fresh[i];
      if (region.innerHTML === next.innerHTML) { return; }
      // offline.js holds the unsaved-rows element: keep that one.
      const keep = region.querySelector("#unsaved-rows");
      const slot = next.querySelector("#unsaved-rows");
      if (keep && slot) { slot.parentNode.replaceChild(keep, slot); }
      region.replaceChildren(...Array.prototype.slice.call(next.childNodes));
      // For a script that set up the old content (row taps, say) to set up the new.
      region.dispatchEvent(new CustomEvent("scorekeeper:live", { bubbles: true }));
    });
    const recorded = form && notice
      ? recordedElsewhere({ before, after: handNumber(doc), saving: submitting })
      : null;
    if (recorded !== null) {
      notice.textContent = fill(words.recorded, { n: recorded });
      notice.hidden = false;
      // It sits over the foot of the screen (Save may be under it): a tap or 8 s clears it.
      window.clearTimeout(noticeTimer);
      noticeTimer = window.setTimeout(() => { notice.hidden = true; }, 8000);
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
      .then((response) => {
        if (response.status === 404) { window.location.reload(); return null; }
        return response.ok ? response.text() : null;
      })
      .then((html) => {
        if (html === null) { return; }
        const doc = new DOMParser().parseFromString(html, "text/html");
        const fresh = doc.getElementById("live");
        if (!fresh) { return; }
        swap(doc);
        known = fresh.dataset.version;
        live.dataset.version = known;
      })
      .catch(() => failed())
      .then(() => {
        fetching = false;
        if (again) { refresh(); }
      });
  }

  // A change is fetched a moment after it is heard: the phone that saved it fetches its own
  // page first, and twenty boards do not ask all at once (bench/live.py measures both).
  function heard(version) {
    if (isNews(version, known)) { window.setTimeout(refresh, fetchAfter(Math.random())); }
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
    source = new EventSource(live.dataset.eventsUrl + "?since=" + encodeURIComponent(known));
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

  // A page with no stream of its own (an event's, which follows many games) polls.
  if (window.EventSource && live.dataset.eventsUrl) { open(); } else { window.setTimeout(poll, pollEvery); }
}
