// A phone names itself once ("Dana's phone"): the label is kept in the browser
// (static/js/device-label.js) and sent with every form the page posts, so the trail says
// which phone saved a hand, confirmed it or signed. No account: a label is all it is.
import { keepLabel, storedLabel } from "./device-label.js";

const FIELD = "device";

function stamp(label) {
  for (const form of document.querySelectorAll("form[method=post], form[method=POST]")) {
    let input = form.querySelector(`input[name=${FIELD}]`);
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = FIELD;
      form.appendChild(input);
    }
    input.value = label;
  }
}

function show(label) {
  const box = document.getElementById("device-label");
  if (!box) { return; }
  const ask = box.querySelector("[data-device-ask]");
  const named = box.querySelector("[data-device-named]");
  const shown = box.querySelector("[data-device-shown]");
  box.hidden = false;
  ask.hidden = Boolean(label);
  named.hidden = !label;
  if (shown) { shown.textContent = label; }
}

function start() {
  let label = storedLabel(window.localStorage);
  stamp(label);
  show(label);
  const box = document.getElementById("device-label");
  if (!box) { return; }
  box.querySelector("[data-device-ask]").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.querySelector("input[name=label]");
    label = keepLabel(window.localStorage, input.value);
    stamp(label);
    show(label);
  });
  const change = box.querySelector("[data-device-change]");
  if (change) {
    change.addEventListener("click", () => {
      const input = box.querySelector("input[name=label]");
      input.value = label;
      box.querySelector("[data-device-ask]").hidden = false;
      box.querySelector("[data-device-named]").hidden = true;
      input.focus();
    });
  }
  // A region swapped in by the live page (a new answer form) gets the label too.
  new MutationObserver(() => stamp(label)).observe(document.body, { childList: true, subtree: true });
}

start();
