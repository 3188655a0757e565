// Hands recorded while the server cannot be reached are kept on the phone and sent, in order,
// once each, when it can (templates/games/_offline.html, scorekeeper/games/offline.py).
//
// Save posts the hand form with fetch to /games/<id>/hands.json. If the post does not reach
// the server, the hand is kept in IndexedDB (which works on a plain-http LAN address, where a
// service worker may not), shown on the sheet as "not saved yet", and the form is cleared for
// the next hand. Each hand carries a one-time key: sent twice, it is stored once. When the
// server answers again, the kept hands are sent oldest first; a hand the game has moved past
// (another phone recorded that hand meanwhile) is not sent on: the phone shows both in words
// and asks which hand it is, or to drop it. Any other answer than "saved" on a first try
// lets the form post itself as it does without a script, so the page says the rest.
(function () {
  "use strict";
  var section = document.getElementById("offline");
  var form = document.getElementById("hand-form");
  if (!section || !form || !window.fetch || !window.indexedDB || !window.URLSearchParams) { return; }
  var words = JSON.parse(document.getElementById("offline-words").textContent);
  var connection = window.ScorekeeperConnection || {
    ok: function () {}, failed: function () {}, setWaiting: function () {},
    onChange: function () {}, state: function () { return "connected"; }
  };
  var game = section.dataset.game;
  var postUrl = section.dataset.postUrl;
  var pageUrl = section.dataset.pageUrl;
  var rows = document.getElementById("unsaved-rows");
  var question = document.getElementById("offline-question");
  var tokenInput = form.querySelector("#token");
  var numberInput = form.querySelector("#number");
  var heading = form.querySelector("h2");
  if (!tokenInput || !numberInput || !rows) { return; }
  var serverNext = parseInt(numberInput.value, 10) || 1;
  var sending = false;
  var asking = false;
  var reloadWhenDone = false;
  var retryTimer = null;
  var SENT = "scorekeeper-sent-keys";

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  // --- The hands kept on this phone (IndexedDB: one store, by key, for every game) ---------

  function withStore(mode, work) {
    return new Promise(function (resolve, reject) {
      var opening = indexedDB.open("scorekeeper-offline", 1);
      opening.onupgradeneeded = function () {
        opening.result.createObjectStore("hands", { keyPath: "key" });
      };
      opening.onerror = function () { reject(opening.error); };
      opening.onsuccess = function () {
        var db = opening.result;
        var tx = db.transaction("hands", mode);
        var request = work(tx.objectStore("hands"));
        tx.oncomplete = function () { db.close(); resolve(request ? request.result : undefined); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      };
    });
  }

  function waiting() {
    return withStore("readonly", function (store) { return store.getAll(); }).then(function (all) {
      return all.filter(function (hand) { return hand.game === game; })
        .sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  function keep(hands) {
    return withStore("readwrite", function (store) {
      hands.forEach(function (hand) { store.put(hand); });
      return null;
    });
  }

  function forget(key) {
    return withStore("readwrite", function (store) { return store.delete(key); });
  }

  // --- One-time keys, made on the phone -----------------------------------------------------

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);  // works without https, unlike crypto.randomUUID
    return window.btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function sentKeys() {
    try { return JSON.parse(window.localStorage.getItem(SENT) || "[]"); } catch (e) { return []; }
  }

  function remember(key) {
    try {
      var keys = sentKeys().filter(function (k) { return k !== key; });
      keys.push(key);
      window.localStorage.setItem(SENT, JSON.stringify(keys.slice(-50)));
    } catch (e) { /* no storage: the server still answers a used key with its hand */ }
  }

  // A page opened again from the phone's copy carries the key it had then, which may have
  // saved a hand since: the next hand gets a fresh one.
  if (sentKeys().indexOf(tokenInput.value) !== -1) { tokenInput.value = newKey(); }

  // --- What the page shows --------------------------------------------------------------------

  function describeTaps(passed) {
    if (passed) { return words.passed; }
    var parts = [];
    form.querySelectorAll("fieldset.taps").forEach(function (fieldset) {
      var checked = fieldset.querySelector("input[type=radio]:checked");
      if (!checked) { return; }
      var legend = fieldset.querySelector("legend");
      var label = form.querySelector("label[for='" + checked.id + "']");
      // The pitcher by name alone ("Bogdan · Bid: 2 · High: Ana ..."), the rest by their row.
      var name = legend && fieldset.id !== "pitcher" ? legend.firstChild.textContent.trim() : "";
      parts.push((name ? name + ": " : "") + (label ? label.textContent.trim() : checked.value));
    });
    var note = form.querySelector("[name=note]");
    if (note && note.value.trim()) { parts.push(note.value.trim()); }
    return parts.join(" · ");
  }

  function nextNumber(hands) {
    var last = hands.length ? hands[hands.length - 1].number + 1 : 0;
    return Math.max(serverNext, last);
  }

  function render(hands) {
    connection.setWaiting(hands.length);
    section.hidden = hands.length === 0 && question.hidden;
    document.getElementById("offline-kept").textContent = words.kept;
    var columns = rows.closest("table").querySelectorAll("thead th").length;
    rows.textContent = "";
    var list = document.getElementById("offline-list");
    list.textContent = "";
    hands.forEach(function (hand) {
      var tr = document.createElement("tr");
      tr.className = "unsaved";
      tr.dataset.key = hand.key;
      var number = document.createElement("td");
      number.textContent = hand.number;
      var what = document.createElement("td");
      what.colSpan = Math.max(1, columns - 1);
      var tag = document.createElement("strong");
      tag.className = "unsaved-tag";
      tag.textContent = words.not_saved;
      what.appendChild(tag);
      what.appendChild(document.createTextNode(" " + hand.summary));
      tr.appendChild(number);
      tr.appendChild(what);
      rows.appendChild(tr);
      var item = document.createElement("li");
      item.textContent = fill(words.hand, { number: hand.number }) + ": " + hand.summary;
      list.appendChild(item);
    });
    var wrap = rows.closest(".table-wrap");
    var noHand = document.getElementById("no-hand");
    if (noHand) {
      noHand.hidden = hands.length > 0;
      wrap.hidden = hands.length === 0;
    }
    var standings = document.getElementById("standings");
    var note = document.getElementById("provisional-note");
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
    var next = nextNumber(hands);
    numberInput.value = String(next);
    heading.textContent = fill(words.hand, { number: next });
  }

  function refresh() { return waiting().then(render); }

  // --- Sending --------------------------------------------------------------------------------

  function token() {
    var input = form.querySelector("[name=csrf_token]");
    return input ? input.value : "";
  }

  // Post one hand; the answer is the server's JSON, or {network: true} if none came back.
  function post(hand) {
    var body = new URLSearchParams(hand.body);
    body.set("csrf_token", token());
    if (hand.again) { body.set("again", String(hand.again)); }
    return fetch(postUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Accept": "application/json", "X-CSRFToken": token() }
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === -1) {
        connection.ok();
        return { status: "unknown" };
      }
      return response.json().then(function (answer) {
        connection.ok();
        return answer;
      });
    }).catch(function () {
      connection.failed();
      return { network: true };
    });
  }

  function isSaved(answer) {
    return answer.status === "saved" || answer.status === "already-saved";
  }

  // Open the game page afresh, showing what was saved. The query makes it a new entry in the
  // history, as the form's own post-and-redirect is (the same address would replace this
  // one, and Back would skip the game page); the page ignores it.
  function openPage(number) {
    var target = pageUrl + "?saved=" + encodeURIComponent(String(number || 0)) + "#flashes";
    var here = window.location.pathname + window.location.search;
    if (here + "#flashes" === target) {
      window.location.reload();  // a page got by GET (it has the query): reloading is safe
    } else {
      window.location.assign(target);
    }
  }

  function retryLater() {
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(flush, connection.state() === "offline" ? 3000 : 1500);
  }

  // Send the kept hands, oldest first, until one is not saved.
  function flush() {
    if (sending || asking) { return; }
    sending = true;
    window.clearTimeout(retryTimer);
    function next() {
      return waiting().then(function (hands) {
        render(hands);
        if (!hands.length) {
          sending = false;
          if (reloadWhenDone) { openPage(serverNext - 1); }
          return null;
        }
        var hand = hands[0];
        return post(hand).then(function (answer) {
          if (answer.network) {
            sending = false;
            retryLater();
            return null;
          }
          if (isSaved(answer)) {
            remember(hand.key);
            serverNext = answer.number + 1;
            reloadWhenDone = true;
            return forget(hand.key).then(next);
          }
          sending = false;
          ask(hand, answer);
          return null;
        });
      });
    }
    next().catch(function () { sending = false; retryLater(); });
  }

  // --- Asking the table -----------------------------------------------------------------------

  function line(text, className) {
    var p = document.createElement("p");
    p.textContent = text;
    if (className) { p.className = className; }
    question.appendChild(p);
    return p;
  }

  function button(text, primary, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = primary ? "button primary" : "button";
    b.textContent = text;
    b.addEventListener("click", function () {
      question.hidden = true;
      question.textContent = "";
      asking = false;
      reloadWhenDone = true;
      Promise.resolve(action()).then(flush, flush);
    });
    question.appendChild(b);
  }

  function renumber(hand, number) {
    // The hands tapped after it on this phone follow it: they keep their order.
    var shift = number - hand.number;
    return waiting().then(function (hands) {
      var moved = hands.filter(function (h) { return h.seq >= hand.seq; }).map(function (h) {
        var body = new URLSearchParams(h.body);
        h.number += shift;
        body.set("number", String(h.number));
        h.body = body.toString();
        return h;
      });
      return keep(moved);
    });
  }

  function ask(hand, answer) {
    asking = true;
    question.textContent = "";
    question.dataset.kind = answer.status;
    line(fill(words.waiting_hand, { number: hand.number, hand: hand.summary }), "waiting-hand");
    if (answer.status === "conflict") {
      serverNext = answer.next;
      (answer.recorded || []).forEach(function (recorded) {
        line(fill(words.recorded, { number: recorded.number, hand: recorded.said }), "recorded");
      });
      if (answer.message) { line(answer.message); }
      line(words.which);
      if (!answer.finished) {
        button(fill(words.save_as, { number: answer.next }), true, function () {
          return renumber(hand, answer.next);
        });
      }
      button(words.drop, false, function () { return forget(hand.key); });
    } else if (answer.status === "same") {
      line(fill(words.same, { number: answer.number }) + " " + answer.said);
      button(words.again, true, function () {
        hand.again = answer.number;
        return keep([hand]);
      });
      button(words.drop_refused, false, function () { return forget(hand.key); });
    } else if (answer.status === "refused" || answer.status === "undone") {
      line(fill(words.refused, { number: hand.number }));
      var list = document.createElement("ul");
      (answer.messages || [answer.said]).forEach(function (message) {
        var li = document.createElement("li");
        li.textContent = message;
        list.appendChild(li);
      });
      question.appendChild(list);
      button(words.retry, false, function () {});
      button(words.drop_refused, false, function () { return forget(hand.key); });
    } else {
      line(words.server_said);
      button(words.retry, true, function () {});
    }
    question.hidden = false;
    section.hidden = false;
    question.scrollIntoView({ block: "start" });
  }

  // --- Save -----------------------------------------------------------------------------------

  function setBusy(busy) {
    form.querySelectorAll("input[type=submit], button[type=submit]").forEach(function (b) {
      b.disabled = busy;
    });
  }

  function clearForm() {
    form.reset();
    tokenInput.value = newKey();
    var errors = form.querySelectorAll(".form-errors, .attention, .same-as, .errors");
    errors.forEach(function (element) { element.remove(); });
  }

  function submitAsWithoutScript(submitter) {
    form.dataset.native = "1";
    setBusy(false);
    if (submitter && form.requestSubmit) { form.requestSubmit(submitter); } else { form.submit(); }
  }

  form.addEventListener("submit", function (event) {
    if (form.dataset.native === "1") { return; }
    event.preventDefault();
    var submitter = event.submitter || null;
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    var passed = Boolean(submitter && submitter.name === "passed_out");
    var summary = describeTaps(passed);
    setBusy(true);
    waiting().then(function (hands) {
      if (hands.some(function (h) { return h.key === tokenInput.value; })) {
        tokenInput.value = newKey();  // a page opened again from the phone's copy
      }
      var number = nextNumber(hands);
      numberInput.value = String(number);
      data.set("number", String(number));
      data.set("token", tokenInput.value);
      var hand = {
        key: tokenInput.value,
        game: game,
        number: number,
        seq: Date.now(),
        body: new URLSearchParams(data).toString(),
        summary: summary
      };
      var queued = function () {
        return keep([hand]).then(function () {
          clearForm();
          setBusy(false);
          return refresh().then(function () {
            // Back to the top: the indicator, the standings, what waits, then the next hand.
            window.scrollTo(0, 0);
          });
        });
      };
      if (hands.length || sending || asking) {
        // Behind the hands already waiting: they go first.
        return queued().then(flush);
      }
      return post(hand).then(function (answer) {
        if (answer.network) { return queued().then(retryLater); }
        if (isSaved(answer)) {
          remember(hand.key);
          openPage(answer.number);
          return null;
        }
        submitAsWithoutScript(submitter);
        return null;
      });
    }).catch(function () {
      submitAsWithoutScript(submitter);
    });
  });

  // Back to this page from the browser's back-forward cache: Save works again (its key is
  // the one it had; a key that saved a hand answers with that hand).
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      delete form.dataset.native;
      setBusy(false);
      refresh();
    }
  });

  connection.onChange(function (state) {
    if (state === "connected") { flush(); }
  });
  refresh().then(function () {
    waiting().then(function (hands) { if (hands.length) { flush(); } });
  });
})();
