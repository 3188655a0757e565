// Where a phone keeps what it could not send: the hands, in IndexedDB (which works on a
// plain-http LAN address, where a service worker may not), and the one-time keys that
// saved a hand, in localStorage. Only storage here; what is kept is offline-hands.js's.
import { inOrder, remembered } from "./offline-hands.js";

const DATABASE = "scorekeeper-offline";
const HANDS = "hands";
const SENT = "scorekeeper-sent-keys";

// Whether this browser can keep hands at all.
export function canKeep() {
  return Boolean(window.indexedDB);
}

function withStore(mode, work) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => {
      opening.result.createObjectStore(HANDS, { keyPath: "key" });
    };
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const tx = db.transaction(HANDS, mode);
      const request = work(tx.objectStore(HANDS));
      tx.oncomplete = () => { db.close(); resolve(request ? request.result : undefined); };
      tx.onerror = tx.onabort = () => { db.close(); reject(tx.error); };
    };
  });
}

// The hands kept for one game (one store, by key, holds every game's).
export function handsKept(game) {
  return {
    // The game's kept hands, oldest first.
    waiting() {
      return withStore("readonly", (store) => store.getAll()).then((all) => inOrder(all, game));
    },
    // Keep these hands (a hand kept again replaces itself, by its key).
    keep(hands) {
      return withStore("readwrite", (store) => {
        hands.forEach((hand) => store.put(hand));
        return null;
      });
    },
    // Forget the hand of this key: saved, or dropped by the table.
    forget(key) {
      return withStore("readwrite", (store) => store.delete(key));
    },
  };
}

// The keys that saved a hand from this phone, newest last.
export function sentKeys() {
  try { return JSON.parse(window.localStorage.getItem(SENT) || "[]"); } catch (e) { return []; }
}

// Remember that `key` saved a hand.
export function rememberSent(key) {
  try {
    window.localStorage.setItem(SENT, JSON.stringify(remembered(sentKeys(), key)));
  } catch (e) { /* no storage: the server still answers a used key with its hand */ }
}
