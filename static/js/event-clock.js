// The round clock on an event's pages (templates/events/_clock.html): the server draws it
// at each update; between updates it counts here, once a second (down to 0:00 when the
// round is timed, up when it is not). The pure part is clock-text.js.
import { clockText, tick } from "./clock-text.js";

function start() {
  let shown = null;
  window.setInterval(() => {
    const clock = document.querySelector("[data-clock-seconds]");
    if (!clock) { return; }
    const time = clock.querySelector(".clock-time");
    const drawn = clock.dataset.clockSeconds;
    if (shown === null || shown.drawn !== drawn || shown.el !== clock) {
      shown = { drawn, el: clock, seconds: parseInt(drawn, 10) || 0 };
    }
    if (clock.dataset.clockRunning !== "1") { return; }
    shown.seconds = tick(shown.seconds, clock.dataset.clockDown === "1");
    if (time) { time.textContent = clockText(shown.seconds); }
  }, 1000);
}

start();
