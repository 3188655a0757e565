// What a live board or game page does with the page as the server now draws it, and when
// it asks (static/js/board.js does it). No page here: tests/js/board-plan.test.mjs.

export const RELOAD = "reload";
export const LEAVE = "leave";
export const SWAP = "swap";

// What to do with a fresh copy of the page. `shown` and `fresh` name the live regions of
// the page shown and of the copy, in order; `filling` is whether a hand is being filled in
// on this page (tapped, or being saved); `form` and `freshForm` whether the page shown and
// the copy have a hand form; `handsKept` whether hands kept on this phone wait in its queue
// (static/js/offline.js), which follows the server as each of them is answered.
// - The page is drawn otherwise now: reload, unless a hand is being filled in, which the
//   form's own answer then deals with.
// - The game ended or was reopened (the form came or went): reload, unless a hand is being
//   filled in; with hands kept, swap (the queue still asks about them, the form put away).
// - Otherwise swap in the regions that changed: the page tells the server's truth at once,
//   hands kept or not (the queue marks what is provisional again).
export function onFreshPage({ shown, fresh, filling, handsKept, form = false, freshForm = false }) {
  if (shown.join(" ") !== fresh.join(" ")) { return filling ? LEAVE : RELOAD; }
  if (form !== freshForm) {
    if (handsKept) { return SWAP; }
    return filling ? LEAVE : RELOAD;
  }
  return SWAP;
}

// The hand another phone recorded, to say so on a page with a hand form (its hand number
// went from `before` to `after`), or null: nothing new, or it was this phone saving.
export function recordedElsewhere({ before, after, saving }) {
  return !saving && after > before ? after - 1 : null;
}

// Whether a version heard on the stream (or polled) is news to a page that shows `known`:
// anything else than it, even what could not be read, is worth fetching the page for.
export function isNews(version, known) {
  return String(version) !== String(known);
}

// Whether a version heard of is still to be fetched when its turn comes, on a page that now
// shows `shown`: a version the page shows, or one older than it (heard before the page
// caught up), is not; anything else, even what could not be read, is.
export function isNewer(version, shown) {
  const heard = Number(version);
  const known = Number(shown);
  if (version === null || version === undefined || shown === "" || Number.isNaN(heard) || Number.isNaN(known)) {
    return isNews(version, shown);
  }
  return heard > known;
}

// How long after a change is heard the page asks for itself (ms): 30-150 ms, each page at
// its own moment (`random` in [0, 1)), so twenty boards do not ask all at once.
export function fetchAfter(random) {
  return 30 + random * 120;
}

// How long the stream may stay silent before the connection counts as lost (ms): it says
// "alive" every heartbeat.
export function silenceAllowed(heartbeatMs) {
  return heartbeatMs * 2 + 500;
}

// A page's setting in seconds (its data attribute's text), in ms: `fallback` when it is not
// a number, never less than `least`.
export function millis(text, fallback, least = 0) {
  const seconds = parseFloat(text);
  return Math.max(least, Number.isNaN(seconds) || seconds <= 0 ? fallback : seconds) * 1000;
}
