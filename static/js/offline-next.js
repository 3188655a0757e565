// What the phone does next with a hand it sent: a function from the server's answer (and
// the queue's state) to the next step, as Workbox's background sync splits it. The answers
// are scorekeeper/games/offline.py's (saved, already-saved, undone, conflict, same,
// refused), a server error (5xx, perhaps with Retry-After), or no answer at all. The page
// (static/js/offline.js) takes the step; the person's choice, when asked, is a change to the
// hands kept, also said here. No page here: tests/js/offline-next.test.mjs.

// The steps.
export const OPEN_PAGE = "open-page";  // saved on its first try: show the game page afresh
export const SEND_NEXT = "send-next";  // saved: forget it and send the next hand kept
export const RETRY = "retry";          // keep it and send it again `after` ms from now
export const ASK = "ask";              // keep it and ask the table (`question`)
export const POST_FORM = "post-form";  // a first try not saved: the form posts itself, and
                                       // the page says what is wrong as without a script

// A server error is tried again this many times in all (without Retry-After) before the
// table is asked; it waits at most this long between tries.
export const SERVER_TRIES = 3;
export const LONGEST_WAIT = 30000;
const SOONEST = 500;

// The step after sending `hand` (kept: { key, number, summary, ... }). `answer` is
// { network: true } when nothing came back, else { http, retryAfter, body }: the status,
// the Retry-After header's text (or null), and the JSON the server said (or null).
// `queue` is { first, tries, offline }: whether this is the hand's first try, just tapped
// with nothing kept before it; how many tries of it met no answer or a server error in a
// row; whether the connection indicator says offline.
export function nextStep(hand, answer, queue) {
  if (answer.network) {
    return { step: RETRY, after: backoff(queue.tries, queue.offline) };
  }
  const body = answer.body || {};
  if (answer.http >= 500) {
    // Nothing was saved ("try again in a moment"): the hand stays on the phone.
    const asked = retryAfter(answer.retryAfter);
    if (asked !== null) { return { step: RETRY, after: asked, busy: true }; }
    if (queue.first || queue.tries + 1 < SERVER_TRIES) {
      return { step: RETRY, after: backoff(queue.tries, false), busy: true };
    }
    return { step: ASK, question: question(hand, {}) };
  }
  if (body.status === "saved" || body.status === "already-saved") {
    return { step: queue.first ? OPEN_PAGE : SEND_NEXT, number: body.number };
  }
  if (queue.first) { return { step: POST_FORM }; }
  const step = { step: ASK, question: question(hand, body) };
  // The game moved on: the next hand the server expects is the one it names.
  if (body.status === "conflict") { step.serverNext = body.next; }
  return step;
}

// How long to wait before trying again after `tries` misses in a row (ms): 1.5 s (3 s while
// offline), doubled at each miss, never more than LONGEST_WAIT.
export function backoff(tries, offline) {
  return Math.min((offline ? 3000 : 1500) * 2 ** tries, LONGEST_WAIT);
}

// The wait a Retry-After header asks for, in ms (its seconds; an HTTP date is not read), or
// null when there is none: at least SOONEST, at most LONGEST_WAIT.
export function retryAfter(header) {
  if (header === null || header === undefined || !/^\s*\d+\s*$/.test(header)) { return null; }
  return Math.min(Math.max(parseInt(header, 10) * 1000, SOONEST), LONGEST_WAIT);
}

// What is asked about `hand` after the server's answer `body`: { kind, lines, list, choices }.
// A line is { words, values, text, className }: the page's words `words` filled with
// `values`, then `text` (the server's own words); `list` is the server's messages, one an
// item. Each choice is { words, values, primary, change }, `change` what becomes of the
// hand: { forget: true } (drop it), { renumber: n } (save it as hand n, and the hands after
// it follow), { again: n } (record it though it is the same as hand n), or {} (try again).
export function question(hand, body) {
  const kind = body.status || "unknown";
  const lines = [
    { words: "waiting_hand", values: { number: hand.number, hand: hand.summary }, className: "waiting-hand" },
  ];
  const choices = [];
  let list = null;
  if (kind === "conflict") {
    (body.recorded || []).forEach((recorded) => {
      lines.push({
        words: "recorded", values: { number: recorded.number, hand: recorded.said }, className: "recorded",
      });
    });
    if (body.message) { lines.push({ text: body.message }); }
    lines.push({ words: "which" });
    if (!body.finished) {
      choices.push({
        words: "save_as", values: { number: body.next }, primary: true, change: { renumber: body.next },
      });
    }
    choices.push({ words: "drop", change: { forget: true } });
  } else if (kind === "same") {
    lines.push({ words: "same", values: { number: body.number }, text: body.said });
    choices.push({ words: "again", primary: true, change: { again: body.number } });
    choices.push({ words: "drop_refused", change: { forget: true } });
  } else if (kind === "refused" || kind === "undone") {
    lines.push({ words: "refused", values: { number: hand.number } });
    list = body.messages || [body.said];
    choices.push({ words: "retry", change: {} });
    choices.push({ words: "drop_refused", change: { forget: true } });
  } else {
    lines.push({ words: "server_said" });
    choices.push({ words: "retry", primary: true, change: {} });
  }
  return { kind, lines, list, choices };
}

// Whether a hand just tapped is sent at once, or kept behind the hands already waiting
// (they go first), or while the phone is sending or asking about one.
export function sendsAtOnce({ waiting, sending, asking }) {
  return waiting === 0 && !sending && !asking;
}
