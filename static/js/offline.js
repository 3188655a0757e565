// Save posts the hand form with fetch to /games/<id>/hands.json (templates/games/_offline.html,
// scorekeeper/games/offline.py: the same door as the form's own post, answered in JSON).
//
// Saved, the page follows the server in place (page-swap.js): the scores, the sheet, who
// deals, and the next hand's form, with the sentence of the hand just saved above them; a
// hand that ends the game opens the game page afresh. If the post does not reach the server
// (or the server is in trouble), the hand is kept on the phone (offline-store.js), shown on
// the sheet as "not saved yet", and the form is cleared for the next hand. Each hand carries
// a one-time key: sent twice, it is stored once. When the server answers again, the kept
// hands are sent oldest first, and as each is answered the page follows the server again,
// even while the table is asked about a later one. A kept hand the game has moved past
// (another phone recorded that hand) is not sent on: the phone shows it beside the recorded
// one, every choice with its taker and the differences marked, and the table says whether it
// is the next hand, a correction of the recorded one, or to be dropped. Any other answer than
// "saved" on a first try lets the form post itself as it does without a script, so the page
// says the rest (the same question, drawn by the server). A page brought back by Back whose
// hand was saved meanwhile asks the same three questions before anything is saved.
//
// This module is the page's part: what each answer leads to is offline-next.js's, the hands
// as values offline-hands.js's, the hands kept drawn offline-kept.js's, the table's question
// drawn offline-question.js's, and a hand's words are the server's, on its tap buttons.
import { connection } from "./connection.js";
import { CONNECTED, OFFLINE } from "./connection-state.js";
import { canKeep, handsKept, rememberSent, sentKeys } from "./offline-store.js";
import { keptHand, keyFromBytes, nextNumber, postBody, renumbered, summary } from "./offline-hands.js";
import {
  OPEN_PAGE, RETRY, SEND_NEXT, SHOW_NEXT, nextStep, restored, sendsAtOnce,
} from "./offline-next.js";
import { SWAP, onFreshPage } from "./board-plan.js";
import { drawKept, markProvisional } from "./offline-kept.js";
import { drawQuestion } from "./offline-question.js";
import { refresh, regionNames, say } from "./page-swap.js";
import { fill } from "./words.js";

const section = document.getElementById("offline");
if (section && window.fetch && window.URLSearchParams && window.DOMParser && canKeep()) {
  keepHands();
}

function keepHands() {
  const words = JSON.parse(document.getElementById("offline-words").textContent);
  const game = section.dataset.game;
  const store = handsKept(game);
  const postUrl = section.dataset.postUrl;
  const pageUrl = section.dataset.pageUrl;
  const question = document.getElementById("offline-question");
  // The hand form (none once the game is over: the queue still asks about its hands).
  const form = document.getElementById("hand-form");
  const field = (id) => (form ? form.querySelector("#" + id) : null);
  const queue = {
    // The number of the next hand the server expects.
    serverNext: field("number") ? parseInt(field("number").value, 10) || 1 : 1,
    // A kept hand is on its way; the table is being asked about one (nothing is sent then).
    sending: false,
    asking: false,
    // The first hand's tries in a row that met no answer or a server error.
    tries: 0,
    // The server said it is busy: the section says so.
    busy: false,
    // The game ended while hands were kept: the page opens afresh once they are dealt with.
    ended: false,
    // A page brought back whose hand was saved meanwhile: the hand its form is for (its
    // number stays until the table chooses).
    restored: null,
    // What the hands sent since the last Save said ("Ana made 3."), said above the scores.
    said: [],
    timer: null,
  };

  function newKey() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);  // works without https, unlike crypto.randomUUID
    return keyFromBytes(bytes);
  }

  // A page opened again from the phone's copy carries the key it had then, which may have
  // saved a hand since: the next hand gets a fresh one.
  if (field("token") && sentKeys().indexOf(field("token").value) !== -1) {
    field("token").value = newKey();
  }

  // --- What the page shows ------------------------------------------------------------------

  // The hand on the form in words: the words the server put on each tap's button (and on
  // the dealer's choice).
  function tapped(passed) {
    const taps = Array.from(form.querySelectorAll("input[type=radio][data-said]:checked, option[data-said]:checked"),
      (input) => input.dataset.said);
    const note = form.querySelector("[name=note]");
    return summary({ passed, taps, note: note ? note.value : "" }, words);
  }

  function render(hands) {
    connection.setWaiting(hands.length);
    section.hidden = hands.length === 0 && question.hidden;
    document.getElementById("offline-kept").textContent = queue.busy ? words.busy : words.kept;
    drawKept(hands, words);
    const next = nextNumber(queue.serverNext, hands);
    markProvisional(hands.length > 0, next, words, Boolean(form && !form.hidden));
    if (form && queue.restored === null) {
      field("number").value = String(next);
      form.querySelector("h2").textContent = fill(words.hand, { number: next });
    }
  }

  function refreshList() { return store.waiting().then(render); }

  // --- Following the server ------------------------------------------------------------------

  // The page as the server now draws it, swapped in (page-swap.js): the scores, the sheet,
  // who deals; the form's next hand number follows it. With `freshForm` (after this phone's
  // own save, the form already cleared for the next hand), the form's parts that follow the
  // game are brought up to date too: its version, who is due to deal, who sells.
  function follow({ freshForm = false } = {}) {
    return store.waiting().then((hands) => refresh({
      // What this page says is its own (queue.said, said below): left as it is meanwhile.
      keep: ["said"],
      decide: (doc) => onFreshPage({
        shown: regionNames(document),
        fresh: regionNames(doc),
        filling: false,
        handsKept: hands.length > 0 || !question.hidden,
        form: form !== null && !form.hidden,
        freshForm: doc.getElementById("hand-form") !== null,
      }),
    }).then((doc) => {
      if (!doc) { return hands; }
      const fresh = doc.getElementById("hand-form");
      if (fresh && form) {
        queue.serverNext = parseInt(fresh.querySelector("#number").value, 10) || queue.serverNext;
        if (freshForm) { patchForm(fresh); }
      } else if (!fresh && form) {
        // The game is over: no hand can be tapped in; the queue still asks about its hands.
        form.hidden = true;
        queue.ended = true;
      }
      say(queue.said);
      return hands;
    })).then(render);
  }

  // Bring the parts of the form that follow the game up to date from the server's `fresh`
  // form, leaving what the person may have tapped since: the version, who is due to deal
  // (unless another dealer was chosen), who sells.
  function patchForm(fresh) {
    field("version").value = fresh.querySelector("#version").value;
    const dealer = field("dealer");
    const freshDealer = fresh.querySelector("#dealer");
    if (dealer && freshDealer && dealer.value === "") { dealer.replaceWith(freshDealer); }
    const seller = field("seller-hint");
    const freshSeller = fresh.querySelector("#seller-hint");
    if (seller && freshSeller) { seller.replaceWith(freshSeller); }
  }

  // --- Sending ------------------------------------------------------------------------------

  function csrfToken() {
    return section.dataset.csrf || "";
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

  // Send the kept hands, oldest first, until one is not saved; the page follows the server
  // after each one answered.
  function flush() {
    if (queue.sending || queue.asking) { return; }
    queue.sending = true;
    window.clearTimeout(queue.timer);
    let first = true;
    const next = () => store.waiting().then((hands) => {
      render(hands);
      if (!hands.length) {
        queue.sending = false;
        if (queue.ended) { openPage(queue.serverNext - 1); }
        return null;
      }
      const hand = hands[0];
      return post(hand).then((answer) => {
        const step = nextStep(hand, answer, state(false));
        if (step.step === SEND_NEXT) {
          rememberSent(hand.key);
          if (first) { queue.said = []; first = false; }
          queue.said.push(step.said);
          Object.assign(queue, { serverNext: step.number + 1, tries: 0, busy: false });
          return store.forget(hand.key).then(() => follow()).then(next);
        }
        queue.sending = false;
        if (step.step === RETRY) {
          Object.assign(queue, { tries: queue.tries + 1, busy: Boolean(step.busy) });
          later(step.after);
          return refreshList();
        }
        Object.assign(queue, { tries: 0, busy: false });
        if (step.serverNext) { queue.serverNext = step.serverNext; }
        ask(hand, step.question);
        // The game moved on: the page shows where it is now, while the table is asked.
        return follow();
      });
    });
    next().catch(() => {
      queue.sending = false;
      later(state(false).offline ? 3000 : 1500);
    });
  }

  // --- Asking the table -----------------------------------------------------------------------

  // Post the fields `body` (a kept hand's, or the form's) to the correction of hand
  // `number`, to check it there and save it (nothing is saved until then). A kept hand stays
  // on the phone meanwhile; once the correction is saved its key answers for it.
  function openCorrection(url, number, body) {
    const out = document.createElement("form");
    out.method = "post";
    out.action = url + "#hand-form";
    out.hidden = true;
    const fields = new URLSearchParams(body);
    fields.set("csrf_token", csrfToken());
    fields.set("correct", String(number));
    fields.forEach((value, name) => {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      out.appendChild(input);
    });
    document.body.appendChild(out);
    out.submit();
  }

  // What the table's choice does to the hands kept (or to the page's own form).
  function change(hand, what) {
    if (what.forget) { return store.forget(hand.key); }
    if (what.renumber) {
      return store.waiting().then((hands) => store.keep(renumbered(hands, hand, what.renumber)));
    }
    if (what.again) { return store.keep([{ ...hand, again: what.again }]); }
    if (what.correct) {
      openCorrection(what.correct, what.number, hand.body);
      return "away";
    }
    if (what.correctForm) {
      const url = section.dataset.editUrl.replace("{number}", String(what.correctForm));
      openCorrection(url, what.correctForm, new URLSearchParams(new FormData(form)).toString());
      return "away";
    }
    if (what.asNumber) {
      queue.restored = null;
      field("token").value = newKey();
      const as = document.createElement("input");
      as.type = "hidden";
      as.name = "as_number";
      as.value = String(what.asNumber);
      form.appendChild(as);
      form.requestSubmit(form.querySelector("#save"));
      as.remove();
      return "away";
    }
    if (what.reset) {
      window.location.reload();
      return "away";
    }
    return null;
  }

  // Ask the table about a kept hand (`hand`: nothing is sent meanwhile), or about the page's
  // own form (`hand` null: a page brought back whose hand was saved meanwhile).
  function ask(hand, asked) {
    queue.asking = hand !== null;
    drawQuestion(question, asked, words, (choice) => {
      question.hidden = true;
      question.textContent = "";
      queue.asking = false;
      Promise.resolve(change(hand, choice.change)).then((done) => {
        if (done !== "away") { flush(); }
      }, flush);
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
    field("token").value = newKey();
    form.querySelectorAll("fieldset[data-by]").forEach((row) => { delete row.dataset.by; });
    form.querySelectorAll(".form-errors, .attention, .same-as, .disagreement, .errors").forEach((element) => {
      element.remove();
    });
    form.dispatchEvent(new CustomEvent("scorekeeper:fresh-form"));
  }

  function submitAsWithoutScript(submitter) {
    form.dataset.native = "1";
    setBusy(false);
    if (submitter && form.requestSubmit) { form.requestSubmit(submitter); } else { form.submit(); }
  }

  // Saved on its first try: the next hand's form is ready at once (cleared, its number the
  // next), in view with the sentence of the hand just saved above the scores; the page then
  // follows the server in place (the scores, the sheet, who deals).
  function showNext(said, number) {
    clearForm();
    queue.serverNext = number + 1;
    queue.said = [said];
    return store.waiting().then((hands) => {
      render(hands);
      say(queue.said);
      setBusy(false);
      document.getElementById("play").scrollIntoView({ block: "start" });
      form.dataset.ready = field("number").value;
      // The form is ready to tap; the scores, the sheet and who deals follow (`followed`).
      return follow({ freshForm: true }).then(() => { form.dataset.followed = form.dataset.ready; });
    }).catch((error) => {
      // Not followed in place (the server out of reach a moment, a script's fault): the
      // page opens itself afresh, saying the hand saved.
      if (window.console) { window.console.error(error); }
      openPage(number);
    });
  }

  if (form) {
    form.addEventListener("submit", (event) => {
      if (form.dataset.native === "1") { return; }
      const submitter = event.submitter || null;
      // A correction the table chose opens the correction's own page (formaction).
      if (submitter && submitter.hasAttribute("formaction")) { return; }
      event.preventDefault();
      if (queue.restored !== null && question.dataset.kind === "restored") {
        // Saved as it is: the server answers with both hands and the same three choices.
        question.hidden = true;
        question.textContent = "";
        delete question.dataset.kind;
      }
      const fields = new FormData(form);
      if (submitter && submitter.name) { fields.append(submitter.name, submitter.value); }
      const said = tapped(Boolean(submitter && submitter.name === "passed_out"));
      setBusy(true);
      delete form.dataset.ready;
      delete form.dataset.followed;
      store.waiting().then((hands) => {
        if (hands.some((h) => h.key === field("token").value)) {
          field("token").value = newKey();  // a page opened again from the phone's copy
        }
        // A page brought back keeps the hand its form is for, until the table chooses.
        const number = queue.restored !== null && !fields.get("as_number")
          ? queue.restored : nextNumber(queue.serverNext, hands);
        field("number").value = String(number);
        fields.set("number", String(number));
        fields.set("token", field("token").value);
        const hand = keptHand({
          key: field("token").value, game, number, seq: Date.now(), fields, summary: said,
        });
        const kept = () => store.keep([hand]).then(() => {
          clearForm();
          setBusy(false);
          // Back to the hand: the standings, what waits, then the next hand.
          return refreshList().then(() => document.getElementById("play").scrollIntoView({ block: "start" }));
        });
        if (!sendsAtOnce({ waiting: hands.length, sending: queue.sending, asking: queue.asking })) {
          return kept().then(flush);  // behind the hands already waiting: they go first
        }
        return post(hand).then((answer) => {
          const step = nextStep(hand, answer, state(true));
          if (step.step === SHOW_NEXT) {
            rememberSent(hand.key);
            queue.restored = null;
            return showNext(step.said, step.number);
          }
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
  }

  // Back to this page from the browser's back-forward cache: Save works again (its key is the
  // one it had; a key that saved a hand answers with that hand), and the page follows the
  // server. If the hand its form is for was saved meanwhile, the table is asked at once
  // whether this page's hand is the next one, a correction of that hand, or to be dropped.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) { return; }
    if (form) {
      delete form.dataset.native;
      setBusy(false);
    }
    const mine = field("number") ? parseInt(field("number").value, 10) : null;
    follow().then(() => {
      const asked = mine === null ? null : restored(mine, queue.serverNext);
      if (!asked || queue.asking) { return; }
      queue.restored = mine;
      field("number").value = String(mine);
      form.querySelector("h2").textContent = fill(words.hand, { number: mine });
      ask(null, asked);
    }).catch(() => {});
  });

  connection.onChange((now) => { if (now === CONNECTED) { flush(); } });
  // The page's own swaps (a change heard: board.js) replace the standings: mark them again.
  document.addEventListener("scorekeeper:live", () => { refreshList(); });
  refreshList().then(() => store.waiting()).then((hands) => { if (hands.length) { flush(); } });
}
