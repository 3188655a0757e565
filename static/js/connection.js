// The connection indicator (templates/_connection.html): connected, reconnecting, or offline,
// with the hands waiting on this phone. One module for every game page and board: a page's
// other scripts import `connection` and report what their requests met (ok / failed), or
// this one asks ping_url itself. Its words come from the page, in the page's language. It
// also registers the service worker, where the browser allows one (https, localhost):
// static/js/sw.js. What it says is worked out in connection-state.js.
import {
  starting, reached, missed, networkLost, networkBack, pingAfter, says,
} from "./connection-state.js";

const box = document.getElementById("connection");
const drawn = Boolean(box && window.fetch);
const words = drawn ? JSON.parse(box.dataset.words) : {};
const pingUrl = drawn ? box.dataset.pingUrl : "";
const listeners = [];
let now = starting(navigator.onLine);
let waiting = 0;
let timer = null;

function show() {
  if (!drawn) { return; }
  const said = says(now.state, waiting, words);
  box.dataset.state = now.state;
  box.querySelector(".connection-text").textContent = said.text;
  const waitingText = box.querySelector(".connection-waiting");
  waitingText.hidden = !said.waiting;
  waitingText.textContent = said.waiting;
  box.hidden = false;
}

function become(next) {
  const was = now.state;
  now = next;
  show();
  if (was !== next.state) {
    listeners.forEach((listener) => listener(next.state, was));
  }
}

function ping() {
  window.clearTimeout(timer);
  if (!pingUrl) { return; }
  fetch(pingUrl, { cache: "no-store", headers: { "Accept": "application/json" } })
    .then((response) => { if (response.ok) { connection.ok(); } else { connection.failed(); } })
    .catch(() => connection.failed())
    .then(() => { timer = window.setTimeout(ping, pingAfter(now.state)); });
}

// What the page's other scripts use (static/js/offline.js, board.js).
export const connection = {
  // A request reached the server.
  ok() { become(reached(navigator.onLine)); },
  // A request did not reach it.
  failed() { become(missed(now, navigator.onLine)); },
  state() { return now.state; },
  // How many hands wait on this phone, for the indicator to say.
  setWaiting(count) { waiting = count; show(); },
  // listener(state, previous) is called on every change of state.
  onChange(listener) { listeners.push(listener); },
};

if (drawn) {
  window.addEventListener("offline", () => become(networkLost(now)));
  window.addEventListener("online", () => {
    become(networkBack(now));
    ping();
  });
  show();
  ping();
  if ("serviceWorker" in navigator && window.isSecureContext && box.dataset.workerUrl) {
    navigator.serviceWorker.register(box.dataset.workerUrl, { scope: "/" }).catch(() => {
      // No worker (a private window, a browser that refuses): the page works without it.
    });
  }
}
