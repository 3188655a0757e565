// The hands kept on the phone, drawn on the game page: a row each under the sheet, marked
// "not saved yet", a line each in the offline section's list; and the standings and who
// deals marked as not counting them. The page's part (offline.js) says when.
import { fill } from "./words.js";

export function drawKept(hands, words) {
  const rows = document.getElementById("unsaved-rows");
  const list = document.getElementById("offline-list");
  list.textContent = "";
  if (rows) {
    const columns = rows.closest("table").querySelectorAll("thead th").length;
    rows.textContent = "";
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
    });
    const wrap = rows.closest(".table-wrap");
    const noHand = document.getElementById("no-hand");
    if (noHand) {
      noHand.hidden = hands.length > 0;
      wrap.hidden = hands.length === 0;
    }
  }
  hands.forEach((hand) => {
    const item = document.createElement("li");
    item.textContent = fill(words.hand, { number: hand.number }) + ": " + hand.summary;
    list.appendChild(item);
  });
}

// The standings and who deals are the server's; with hands kept they are marked as not
// counting those, and the dealer line (while the hand form shows) says the hand the phone
// is at.
export function markProvisional(kept, next, words, formShown) {
  const standings = document.getElementById("standings");
  let note = document.getElementById("provisional-note");
  if (standings) {
    standings.classList.toggle("provisional", kept);
    if (kept && !note) {
      note = document.createElement("p");
      note.id = "provisional-note";
      note.className = "provisional-note";
      note.textContent = words.provisional;
      standings.parentNode.insertBefore(note, standings.nextSibling);
    } else if (!kept && note) {
      note.remove();
    }
  }
  const dealer = document.querySelector(".dealer-line");
  if (dealer && kept && formShown) {
    dealer.textContent = fill(words.dealer_kept, { number: next });
    dealer.classList.add("provisional");
  }
}
