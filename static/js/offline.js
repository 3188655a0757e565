// Hands recorded while the server cannot be reached are kept on the phone and sent, in order,
// once each, when it can (templates/games/_offline.html, scorekeeper/games/offline.py).
//
// Save posts the hand form with fetch to /games/<id>/hands.json. If the post does not reach
// the server (or the server is in trouble), the hand is kept on the phone
// (offline-store.js), shown on the sheet as "not saved yet", and the form is cleared for
// the next hand. Each hand carries a one-time key: sent twice, it is stored once. When the
// server answers again, the kept hands are sent oldest first; a hand the game has moved past
// (another phone recorded that hand meanwhile) is not sent on: the phone shows both in words
// and asks which hand it is, or to drop it. Any other answer than "saved" on a first try
// lets the form post itself as it does without a script, so the page says the rest.
//
// This module is the page's part: what each answer leads to is offline-next.js's, the hands
// as values offline-hands.js's, and a hand's words are the server's, on its tap buttons.
import { connection } from "./connection.js";
import { CONNECTED, OFFLINE } from "./connection-state.js";
import { canKeep, handsKept, rememberSent, sentKeys } from "./offline-store.js";
import { keptHand, keyFromBytes, nextNumber, postBody, renumbered, summary } from "./offline-hands.js";
import { OPEN_PAGE, RETRY, SEND_NEXT, nextStep, sendsAtOnce } from "./offline-next.js";
import { fill } from "./words.js";

const section = document.getElementById("offline");
const form = document.getElementById("hand-form");
if (section && form && window.fetch && window.URLSearchParams && canKeep()) { keepHands(); }

function keepHands() {
  const words = JSON.parse(document.getElementById("offline-words").textContent);
  const game = section.dataset.game;
  const store = handsKept(game);
  const postUrl = section.dataset.postUrl;
  const pageUrl = section.dataset.pageUrl;
  const rows = document.getElementById("unsaved-rows");
  const question = document.getElementById("offline-question");
  const tokenInput = form.querySelector("#token");
  const numberInput = form.querySelector("#number");
  const heading = form.querySelector("h2");
  if (!tokenInput || !numberInput || !rows) { return; }
  const queue = {
    // The number of the next hand the server expects.
    serverNext: parseInt(numberInput.value, 10) || 1,
    // A kept hand is on its way; the table is being asked about one (nothing is sent then).
    sending: false,
    asking: false,
    // A hand was saved (or the table chose) since the page was drawn: open it afresh when
    // the hands kept are all sent.
    openWhenDone: false,
    // The first hand's tries in a row that met no answer or a server error.
    tries: 0,
    // The server said it is busy: the section says so.
    busy: false,
    timer: null,
  };

  function newKey() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);  // works without https, unlike crypto.randomUUID
    return keyFromBytes(bytes);
  }

  // A page opened again from the phone's copy carries the key it had then, which may have
  // saved a hand since: the next hand gets a fresh one.
  if (sentKeys().indexOf(tokenInput.value) !== -1) { tokenInput.value = newKey(); }

  // --- What the page shows ------------------------------------------------------------------

  // The hand on the form in words: the words the server put on each tap's button.
  function tapped(passed) {
    const taps = Array.from(form.querySelectorAll("input[type=radio][data-said]:checked"),
      (input) => input.dataset.said);
    const note = form.querySelector("[name=note]");
    return summary({ passed, taps, note: note ? note.value : "" }, words);
  }

  function render(hands) {
    connection.setWaiting(hands.length);
    section.hidden = hands.length === 0 && question.hidden;
    document.getElementById("offline-kept").textContent = queue.busy ? words.busy : words.kept;
    const columns = rows.closest("table").querySelectorAll("thead th").length;
    rows.textContent = "";
    const list = document.getElementById("offline-list");
    list.textContent = "";
    hands.forEach((hand) => {
      const tr = document.createElement("tr");
      tr.className = "unsaved";
      tr.dataset.key = hand.key;
      const number = document.createElement("td");
      number.textContent = hand.number;
      const what = document.createElement("td");
      what.colSpan = Math.max(1, columns - 1);
      const tag = document.createElement("strong");
      tag.className = "unsaved-tag";
      tag.textContent = words.not_saved;
      what.appendChild(tag);
      what.appendChild(document.createTextNode(" " + hand.summary));
      tr.appendChild(number);
      tr.appendChild(what);
      rows.appendChild(tr);
      const item = document.createElement("li");
      item.textContent = fill(words.hand, { number: hand.number }) + ": " + hand.summary;
      list.appendChild(item);
    });
    const wrap = rows.closest(".table-wrap");
    const noHand = document.getElementById("no-hand");
    if (noHand) {
      noHand.hidden = hands.length > 0;
      wrap.hidden = hands.length === 0;
    }
    const standings = document.getElementById("standings");
    let note = document.getElementById("provisional-note");
    if (standings) {
      standings.classList.toggle("provisional", hands.length > 0);
      if (hands.length && !note) {
        note = document.createElement("p");
        note.id = "provisional-note";
        note.className = "provisional-note";
        note.textContent = words.provisional;
        standings.parentNode.insertBefore(note, standings.nextSibling);
      } else if (!hands.length && note) {
        note.remove();
      }
    }
    const next = nextNumber(queue.serverNext, hands);
    numberInput.value = String(next);
    heading.textContent = fill(words.hand, { number: next });
  }

  function refresh() { return store.waiting().then(render); }

  // --- Sending ------------------------------------------------------------------------------

  function csrfToken() {
    const input = form.querySelector("[name=csrf_token]");
    return input ? input.value : "";
  }

  // Post one hand; the answer is { http, retryAfter, body }, or { network: true } if none
  // came back.
  function post(hand) {
    const token = csrfToken();
    return fetch(postUrl, {
      method: "POST",
      body: postBody(hand, token),
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Accept": "application/json", "X-CSRFToken": token },
    }).then((response) => {
      connection.ok();
      const answer = { http: response.status, retryAfter: response.headers.get("Retry-After"), body: null };
      const type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === -1) { return answer; }
      return response.json().then((body) => ({ ...answer, body }), () => answer);
    }, () => {
      connection.failed();
      return { network: true };
    });
  }

  function state(first) {
    return { first, tries: queue.tries, offline: connection.state() === OFFLINE };
  }

  // Open the game page afresh, showing what was saved. The query makes it a new entry in the
  // history, as the form's own post-and-redirect is (the same address would replace this
  // one, and Back would skip the game page); the page ignores it.
  function openPage(number) {
    const target = pageUrl + "?saved=" + encodeURIComponent(String(number || 0)) + "#flashes";
    const here = window.location.pathname + window.location.search;
    if (here + "#flashes" === target) {
      window.location.reload();  // a page got by GET (it has the query): reloading is safe
    } else {
      window.location.assign(target);
    }
  }

  function later(after) {
    window.clearTimeout(queue.timer);
    queue.timer = window.setTimeout(flush, after);
  }

  // Send the kept hands, oldest first, until one is not saved.
  function flush() {
    if (queue.sending || queue.asking) { return; }
    queue.sending = true;
    window.clearTimeout(queue.timer);
    const next = () => store.waiting().then((hands) => {
      render(hands);
      if (!hands.length) {
        queue.sending = false;
        if (queue.openWhenDone) { openPage(queue.serverNext - 1); }
        return null;
      }
      const hand = hands[0];
      return post(hand).then((answer) => {
        const step = nextStep(hand, answer, state(false));
        if (step.step === SEND_NEXT) {
          rememberSent(hand.key);
          Object.assign(queue, { serverNext: step.number + 1, openWhenDone: true, tries: 0, busy: false });
          return store.forget(hand.key).then(next);
        }
        queue.sending = false;
        if (step.step === RETRY) {
          Object.assign(queue, { tries: queue.tries + 1, busy: Boolean(step.busy) });
          later(step.after);
          return refresh();
        }
        Object.assign(queue, { tries: 0, busy: false });
        if (step.serverNext) { queue.serverNext = step.serverNext; }
        ask(hand, step.question);
        return null;
      });
    });
    next().catch(() => {
      queue.sending = false;
      later(state(false).offline ? 3000 : 1500);
    });
  }

  // --- Asking the table -----------------------------------------------------------------------

  // What the table's choice does to the hands kept.
  function change(hand, what) {
    if (what.forget) { return store.forget(hand.key); }
    if (what.renumber) {
      return store.waiting().then((hands) => store.keep(renumbered(hands, hand, what.renumber)));
    }
    if (what.again) { return store.keep([{ ...hand, again: what.again }]); }
    return null;
  }

  function ask(hand, asked) {
    queue.asking = true;
    question.textContent = "";
    question.dataset.kind = asked.kind;
    asked.lines.forEach((line) => {
      const p = document.createElement("p");
      const said = line.words ? fill(words[line.words], line.values || {}) : "";
      p.textContent = [said, line.text || ""].filter(Boolean).join(" ");
      if (line.className) { p.className = line.className; }
      question.appendChild(p);
    });
    if (asked.list) {
      const list = document.createElement("ul");
      asked.list.forEach((message) => {
        const li = document.createElement("li");
        li.textContent = message;
        list.appendChild(li);
      });
      question.appendChild(list);
    }
    asked.choices.forEach((choice) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = choice.primary ? "button primary" : "button";
      b.textContent = fill(words[choice.words], choice.values || {});
      b.addEventListener("click", () => {
        question.hidden = true;
        question.textContent = "";
        queue.asking = false;
        queue.openWhenDone = true;
        Promise.resolve(change(hand, choice.change)).then(flush, flush);
      });
      question.appendChild(b);
    });
    question.hidden = false;
    section.hidden = false;
    question.scrollIntoView({ block: "start" });
  }

  // --- Save -----------------------------------------------------------------------------------

  function setBusy(busy) {
    form.querySelectorAll("input[type=submit], button[type=submit]").forEach((b) => {
      b.disabled = busy;
    });
  }

  function clearForm() {
    form.reset();
    tokenInput.value = newKey();
    form.querySelectorAll(".form-errors, .attention, .same-as, .errors").forEach((element) => {
      element.remove();
    });
  }

  function submitAsWithoutScript(submitter) {
    form.dataset.native = "1";
    setBusy(false);
    if (submitter && form.requestSubmit) { form.requestSubmit(submitter); } else { form.submit(); }
  }

  form.addEventListener("submit", (event) => {
    if (form.dataset.native === "1") { return; }
    event.preventDefault();
    const submitter = event.submitter || null;
    const fields = new FormData(form);
    if (submitter && submitter.name) { fields.append(submitter.name, submitter.value); }
    const said = tapped(Boolean(submitter && submitter.name === "passed_out"));
    setBusy(true);
    store.waiting().then((hands) => {
      if (hands.some((h) => h.key === tokenInput.value)) {
        tokenInput.value = newKey();  // a page opened again from the phone's copy
      }
      const number = nextNumber(queue.serverNext, hands);
      numberInput.value = String(number);
      const hand = keptHand({
        key: tokenInput.value, game, number, seq: Date.now(), fields, summary: said,
      });
      const kept = () => store.keep([hand]).then(() => {
        clearForm();
        setBusy(false);
        // Back to the top: the indicator, the standings, what waits, then the next hand.
        return refresh().then(() => window.scrollTo(0, 0));
      });
      if (!sendsAtOnce({ waiting: hands.length, sending: queue.sending, asking: queue.asking })) {
        return kept().then(flush);  // behind the hands already waiting: they go first
      }
      return post(hand).then((answer) => {
        const step = nextStep(hand, answer, state(true));
        if (step.step === OPEN_PAGE) {
          rememberSent(hand.key);
          openPage(step.number);
        } else if (step.step === RETRY) {
          Object.assign(queue, { tries: 1, busy: Boolean(step.busy) });
          return kept().then(() => later(step.after));
        } else {
          submitAsWithoutScript(submitter);
        }
        return null;
      });
    }).catch(() => submitAsWithoutScript(submitter));
  });

  // Back to this page from the browser's back-forward cache: Save works again (its key is
  // the one it had; a key that saved a hand answers with that hand).
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      delete form.dataset.native;
      setBusy(false);
      refresh();
    }
  });

  connection.onChange((now) => { if (now === CONNECTED) { flush(); } });
  refresh().then(() => store.waiting()).then((hands) => { if (hands.length) { flush(); } });
}
