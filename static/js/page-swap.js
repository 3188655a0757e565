// A live page follows the game in place: it fetches itself as the server now draws it and
// swaps, in place, each region marked data-live whose content changed (no reload: nothing
// else on the page moves). static/js/board.js does so when it hears of a change, and
// static/js/offline.js when the server answered a hand it sent. One refresh at a time, in
// the order asked, so two never cross; what to do with a fresh copy is the caller's
// (board-plan.js's onFreshPage, pure).
//
// The page is fetched with the header that keeps the page's messages for the page they are
// for (scorekeeper/live/views.py): the fresh "said" region is empty, so swapping it clears
// an old result, and the caller writes what this page has to say there.
import { SWAP, RELOAD, isNewer } from "./board-plan.js";

const live = document.getElementById("live");
let chain = Promise.resolve(null);

// The version of the game the page shows.
export function shownVersion() {
  return live ? live.dataset.version : "";
}

// The names of the live regions of a document, in order.
export function regionNames(doc) {
  return Array.prototype.map.call(doc.querySelectorAll("[data-live]"), (el) => el.dataset.live);
}

// Fetch the page and give the copy to `decide(doc)`, which says RELOAD, LEAVE or SWAP; on
// SWAP the changed regions are swapped in. With `heard` (a version heard of), the page is
// fetched only if the page does not show it, or a later one, when its turn comes. `keep`
// names regions left as they are (the "said" region while this phone says its own save).
// Resolves to the copy (null when none was fetched); rejects when the server could not be
// reached.
export function refresh({ heard = null, decide, keep = [] }) {
  const run = () => {
    if (!live || (heard !== null && !isNewer(heard, shownVersion()))) { return null; }
    return fetch(live.dataset.pageUrl, {
      cache: "no-store", credentials: "same-origin", headers: { "X-Scorekeeper-Live": "1" },
    }).then((response) => {
      if (response.status === 404) { window.location.reload(); return null; }
      return response.ok ? response.text() : null;
    }).then((html) => {
      if (html === null) { return null; }
      const doc = new DOMParser().parseFromString(html, "text/html");
      const fresh = doc.getElementById("live");
      if (!fresh) { return null; }
      const plan = decide(doc);
      if (plan === RELOAD) { window.location.reload(); return null; }
      if (plan === SWAP) { swapRegions(doc, keep); }
      live.dataset.version = fresh.dataset.version;
      return doc;
    });
  };
  chain = chain.then(run, run);
  return chain;
}

// Swap in the regions of `doc` (the page as the server now draws it) that changed, but for
// those `keep` names.
export function swapRegions(doc, keep = []) {
  const regions = document.querySelectorAll("[data-live]");
  const fresh = doc.querySelectorAll("[data-live]");
  Array.prototype.forEach.call(regions, (region, i) => {
    if (keep.indexOf(region.dataset.live) !== -1) { return; }
    const next = fresh[i];
    if (!next || region.innerHTML === next.innerHTML) { return; }
    // offline.js holds the unsaved-rows element (the hands kept on the phone): keep that one.
    const rows = region.querySelector("#unsaved-rows");
    const slot = next.querySelector("#unsaved-rows");
    if (rows && slot) { slot.parentNode.replaceChild(rows, slot); }
    region.replaceChildren(...Array.prototype.slice.call(next.childNodes));
    // For a script that set up the old content (row taps, say) to set up the new.
    region.dispatchEvent(new CustomEvent("scorekeeper:live", { bubbles: true }));
  });
}

// Say `lines` in the page's "said" region (what was just done), replacing what it said.
export function say(lines, className = "flash flash-hand") {
  const region = document.getElementById("flashes");
  if (!region) { return; }
  // Said already, as it is: left in place (a screen reader does not hear it twice).
  const shown = Array.prototype.slice.call(region.children);
  if (shown.length === lines.length
      && shown.every((p, i) => p.className === className && p.textContent === lines[i])) {
    return;
  }
  region.replaceChildren(...lines.map((line) => {
    const p = document.createElement("p");
    p.className = className;
    p.textContent = line;
    return p;
  }));
}
