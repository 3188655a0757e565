// The table's question about a kept hand, or about a page brought back whose hand was saved
// meanwhile, drawn from what offline-next.js asks (`asked`): its lines, a list, this hand
// beside the recorded one, and a button per choice. What a choice does is the page's part
// (offline.js): `chosen(choice)` is called with the choice tapped.
import { fill } from "./words.js";

function line(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) { p.className = className; }
  return p;
}

function wordsOf(said, words) {
  return said.words ? fill(words[said.words], said.values || {}) : "";
}

export function drawQuestion(question, asked, words, chosen) {
  question.textContent = "";
  question.dataset.kind = asked.kind;
  asked.lines.forEach((said) => {
    question.appendChild(line([wordsOf(said, words), said.text || ""].filter(Boolean).join(" "), said.className));
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
  if (asked.table) { question.appendChild(table(asked.table, words)); }
  const choices = document.createElement("p");
  choices.className = "choices";
  asked.choices.forEach((choice) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = choice.primary ? "button primary" : "button";
    b.textContent = fill(words[choice.words], choice.values || {});
    b.addEventListener("click", () => chosen(choice));
    choices.appendChild(b);
  });
  question.appendChild(choices);
}

// This hand beside the recorded one, every choice with its taker, the differences marked.
function table(drawn, words) {
  const t = document.createElement("table");
  t.className = "compare";
  const head = t.createTHead().insertRow();
  head.appendChild(document.createElement("th"));
  drawn.heads.forEach((said) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = wordsOf(said, words);
    head.appendChild(th);
  });
  const body = t.createTBody();
  drawn.rows.forEach((row) => {
    const tr = body.insertRow();
    if (row.differs) { tr.className = "differs"; }
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row.label;
    tr.appendChild(th);
    tr.insertCell().textContent = row.mine;
    const theirs = tr.insertCell();
    theirs.textContent = row.theirs;
    if (row.differs) {
      const mark = document.createElement("span");
      mark.className = "differs-mark";
      mark.textContent = " ≠ ";
      const sr = document.createElement("span");
      sr.className = "sr-only";
      sr.textContent = words.differs;
      mark.appendChild(sr);
      theirs.appendChild(mark);
    }
  });
  return t;
}
