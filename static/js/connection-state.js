// What the connection indicator says, worked out from what the page's requests met
// (static/js/connection.js draws it). No page here: tests/js/connection-state.test.mjs.
import { fill } from "./words.js";

export const CONNECTED = "connected";
export const RECONNECTING = "reconnecting";
export const OFFLINE = "offline";

// How the indicator starts: offline if the browser knows it has no network.
export function starting(onLine) {
  return onLine === false ? { state: OFFLINE, misses: 1 } : { state: CONNECTED, misses: 0 };
}

// A request reached the server. While the browser says it has no network, what arrived was
// already on its way (a beat of a stream opened before): the indicator stays offline until
// the browser says the network is back, rather than saying "connected" with no network.
export function reached(onLine) {
  return onLine === false ? { state: OFFLINE, misses: 1 } : { state: CONNECTED, misses: 0 };
}

// A request did not reach it: the first miss is "reconnecting", a second (or a browser
// that knows it has no network) is "offline".
export function missed(now, onLine) {
  const misses = now.misses + 1;
  return { state: misses > 1 || onLine === false ? OFFLINE : RECONNECTING, misses };
}

// The browser says the network is gone: offline at once.
export function networkLost(now) {
  return missed({ ...now, misses: 1 }, false);
}

// The browser says the network is back: reconnecting until a request reaches the server.
export function networkBack(now) {
  return { state: RECONNECTING, misses: now.misses };
}

// How long until the server is asked again (ms): seldom while it answers.
export function pingAfter(state) {
  return state === CONNECTED ? 5000 : 2000;
}

// The indicator's two lines: its state, and the hands waiting on the phone ("" for none).
export function says(state, waiting, words) {
  return {
    text: words[state],
    waiting: waiting ? fill(words.waiting, { n: waiting }) : "",
  };
}
