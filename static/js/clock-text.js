// The round clock's pure parts (tested in tests/js/clock-text.test.js).

// Seconds as the clock shows them: 65 -> "1:05", 3600 -> "60:00", never below "0:00".
export function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return minutes + ":" + (rest < 10 ? "0" : "") + rest;
}

// The clock one second later: down towards 0 (a timed round), or up (an untimed one).
export function tick(seconds, down) {
  return down ? Math.max(0, seconds - 1) : seconds + 1;
}
