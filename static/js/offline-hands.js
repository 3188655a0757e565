// The hands kept on a phone as values: their order and numbers, what they say, their
// one-time keys (static/js/offline.js keeps them in offline-store.js). No page here:
// tests/js/offline-hands.test.mjs.

// How many keys that saved a hand a phone remembers (a page opened again from its copy
// may carry one).
export const KEYS_REMEMBERED = 50;

// A game's kept hands, oldest first, from every game's.
export function inOrder(all, game) {
  return all.filter((hand) => hand.game === game).sort((a, b) => a.seq - b.seq);
}

// The number of the next hand tapped: after the server's last (`serverNext` is the one it
// expects) and after the hands kept.
export function nextNumber(serverNext, hands) {
  const afterKept = hands.length ? hands[hands.length - 1].number + 1 : 0;
  return Math.max(serverNext, afterKept);
}

// A hand as it is kept: what the form posts (`body`, URL-encoded), with its key and number,
// and in words for the page (`summary`). `seq` orders the hands kept.
export function keptHand({ key, game, number, seq, fields, summary }) {
  const body = new URLSearchParams(fields);
  body.set("number", String(number));
  body.set("token", key);
  return { key, game, number, seq, body: body.toString(), summary };
}

// The hand `hand` saved as hand `number`: it and the hands kept after it move with it, in
// their order. Returns the hands moved, as they are to be kept.
export function renumbered(hands, hand, number) {
  const shift = number - hand.number;
  return hands.filter((h) => h.seq >= hand.seq).map((h) => {
    const body = new URLSearchParams(h.body);
    body.set("number", String(h.number + shift));
    return { ...h, number: h.number + shift, body: body.toString() };
  });
}

// What the post of a kept hand carries besides its fields: the page's CSRF token, and the
// number of the hand the table said it is the same as (`again`).
export function postBody(hand, csrfToken) {
  const body = new URLSearchParams(hand.body);
  body.set("csrf_token", csrfToken);
  if (hand.again) { body.set("again", String(hand.again)); }
  return body;
}

// A kept hand in words: each tap as the server wrote it on its button ("Bid: 2"), in the
// form's order, then the note; a passed-out hand says only so.
export function summary({ passed, taps, note }, words) {
  if (passed) { return words.passed; }
  const said = taps.slice();
  if (note && note.trim()) { said.push(note.trim()); }
  return said.join(" · ");
}

// A one-time key from 16 random bytes: URL-safe base64, as the server's own keys are.
export function keyFromBytes(bytes) {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// The keys remembered once `key` saved a hand: it last, the oldest forgotten past the limit.
export function remembered(keys, key) {
  return [...keys.filter((k) => k !== key), key].slice(-KEYS_REMEMBERED);
}
