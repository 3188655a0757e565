// What the phone does next with a hand it sent: a function from the server's answer (and
// the queue's state) to the next step, as Workbox's background sync splits it. The answers
// are scorekeeper/games/offline.py's (saved, already-saved, undone, conflict, same,
// refused), a server error (5xx, perhaps with Retry-After), or no answer at all. The page
// (static/js/offline.js) takes the step; the person's choice, when asked, is a change to the
// hands kept (or to the page's own form), also said here. No page here:
// tests/js/offline-next.test.mjs.

// The steps.
export const SHOW_NEXT = "show-next";  // saved on its first try: the page follows the server
                                       // in place, with the next hand's form
export const OPEN_PAGE = "open-page";  // saved on its first try, and the game is over: show
                                       // the game page afresh (the winner, the settlement)
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
    const said = body.said || "";
    if (!queue.first) {
      return { step: SEND_NEXT, number: body.number, said, finished: Boolean(body.finished) };
    }
    return { step: body.finished ? OPEN_PAGE : SHOW_NEXT, number: body.number, said };
  }
  if (queue.first) { return { step: POST_FORM }; }
  const step = { step: ASK, question: question(hand, body) };
  // The game moved on: the next hand the server expects is the one it names.
  if (body.status === "conflict" && body.next) { step.serverNext = body.next; }
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

// What is asked about `hand` after the server's answer `body`:
// { kind, lines, list, table, choices }. A line is { words, values, text, className }: the
// page's words `words` filled with `values`, then `text` (the server's own words); `list` is
// the server's messages, one an item; `table` sets this hand beside the recorded one in its
// place (`compare`): { heads: [line, line], rows: [{ label, mine, theirs, differs }] }, the
// server's words for every choice and its taker. Each choice is
// { words, values, primary, change }, `change` what becomes of the hand: { forget: true }
// (drop it), { renumber: n } (save it as hand n, and the hands after it follow),
// { again: n } (record it though it is the same as hand n), { correct: url, number } (open
// the correction of hand `number` filled in with it: the phone keeps it until the
// correction is saved), or {} (try again).
export function question(hand, body) {
  const kind = body.status || "unknown";
  const lines = [
    { words: "waiting_hand", values: { number: hand.number, hand: hand.summary }, className: "waiting-hand" },
  ];
  const choices = [];
  let list = null;
  let table = null;
  if (kind === "conflict") {
    (body.recorded || []).forEach((recorded) => {
      lines.push({
        words: "recorded", values: { number: recorded.number, hand: recorded.said }, className: "recorded",
      });
    });
    if (body.message) { lines.push({ text: body.message }); }
    const compare = body.compare || null;
    const same = compare !== null && !compare.rows.some((row) => row.differs);
    if (compare) {
      table = compared(compare);
      lines.push({ words: same ? "same_hands" : "marked" });
    }
    lines.push({ words: "which" });
    if (body.next && !body.finished) {
      choices.push({
        words: "save_as", values: { number: body.next }, primary: !same, change: { renumber: body.next },
      });
    }
    if (compare) {
      choices.push({
        words: "correct", values: { number: compare.number },
        change: { correct: compare.correct, number: compare.number },
      });
    }
    choices.push({ words: "drop_mine", primary: same, change: { forget: true } });
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
  return { kind, lines, list, table, choices };
}

// The table of a hand beside the recorded one (`compare`, the server's): its two heads and its
// rows, each a choice with its taker on this phone and in the record, the differences marked.
export function compared(compare) {
  return {
    heads: [{ words: "this_phone" }, { words: "as_recorded", values: { number: compare.number } }],
    rows: compare.rows.map((row) => ({
      label: row.label, mine: row.mine, theirs: row.theirs, differs: Boolean(row.differs),
    })),
  };
}

// A page brought back (Back, or the back-forward cache) whose form is for hand `number` when
// the server's next hand is `serverNext`: null if that hand is still to be recorded; else
// what the table is asked, with the three choices, before a change to it can be saved as
// something it is not. A choice's `change` is to the page's own form: { asNumber: n } (save
// it as hand n), { correctForm: n } (open the correction of hand n filled in with it), or
// { reset: true } (drop it: the page as the server now draws it).
export function restored(number, serverNext) {
  if (!(serverNext > number)) { return null; }
  return {
    kind: "restored",
    lines: [
      { words: "restored", values: { number }, className: "recorded" },
      { words: "restored_which", values: { number } },
    ],
    list: null,
    table: null,
    choices: [
      { words: "save_as", values: { number: serverNext }, change: { asNumber: serverNext } },
      { words: "correct", values: { number }, change: { correctForm: number } },
      { words: "drop_mine", primary: true, change: { reset: true } },
    ],
  };
}

// Whether a hand just tapped is sent at once, or kept behind the hands already waiting
// (they go first), or while the phone is sending or asking about one.
export function sendsAtOnce({ waiting, sending, asking }) {
  return waiting === 0 && !sending && !asking;
}
