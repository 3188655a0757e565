"""Benchmark Save -> the next hand's form ready, on the saving phone, in a real browser.

Not a test. The app is served by ``scorekeeper serve`` (waitress) on a fresh SQLite file, as
bench/fullstack_bench.py serves it; Debian's Chromium, driven by Playwright, is a 390x844
phone on the game page with its scripts (the path a phone at a table takes: the script posts
the hand to /games/<id>/hands.json and puts the next hand's form in place). Each round taps a
four-player Auction Pitch hand and presses Save; the time is measured in the page itself,
from the form's submit event to the next hand's form being ready to tap: the form put in
place by the script (``data-ready``), or, where the page opens itself afresh instead (the
scorekeeper before it followed the server in place), the next page's ``load`` with its form.
So the browser's own work counts (parsing, layout, the scripts), Playwright's does not.

    .venv/bin/python bench/save_bench.py [--hands 60]
    .venv/bin/python bench/save_bench.py --source /path/to/another/checkout   # compare
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fullstack_bench  # noqa: E402  (a sibling script, not a package)

CHROMIUM = Path("/usr/bin/chromium")
PLAYERS = ["Ana", "Bogdan", "Cristi", "Dana"]
#: Rotating hands that never end the game (a game to 200).
HANDS = [
    ("Ana", "3", "Ana", "Ana", "Nobody", "Ana"),
    ("Bogdan", "2", "Bogdan", "Bogdan", "Nobody", "Cristi"),
    ("Cristi", "2", "Cristi", "Dana", "Nobody", "Cristi"),
    ("Dana", "3", "Dana", "Dana", "Ana", "Dana"),
]
#: Times each Save, in the page: from the form's submit to the next hand's form ready. Kept in
#: sessionStorage, so a Save that opens the page afresh is timed on the page it opens.
TIMER = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const done = () => {
    const started = Number(sessionStorage.getItem("bench-start") || 0);
    if (!started) { return; }
    sessionStorage.removeItem("bench-start");
    const times = JSON.parse(sessionStorage.getItem("bench-times") || "[]");
    times.push(now() - started);
    sessionStorage.setItem("bench-times", JSON.stringify(times));
  };
  document.addEventListener("submit", (event) => {
    if (event.target.id === "hand-form") { sessionStorage.setItem("bench-start", String(now())); }
  }, true);
  // Opened afresh: ready once loaded (its module scripts have run by then).
  window.addEventListener("load", () => { if (document.getElementById("hand-form")) { done(); } });
  // Put in place: ready when the script says so.
  new MutationObserver(() => {
    const form = document.getElementById("hand-form");
    if (form && form.dataset.ready) { done(); }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
})();
"""


def serve_source(source: Path | None) -> dict[str, str]:
    """The environment that serves ``source`` (another checkout's package) instead of this one."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def measure(hands: int = 60, source: Path | None = None) -> dict[str, Any]:
    """Serve the app and time ``hands`` Saves in Chromium; returns the times (ms) and the load."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        raise SystemExit("Chromium is not installed (/usr/bin/chromium): apt-get install chromium")
    with tempfile.TemporaryDirectory(prefix="save-bench-") as folder:
        instance = Path(folder) / "instance"
        instance.mkdir()
        port = fullstack_bench.free_port()
        command = [
            sys.executable,
            "-c",
            "from scorekeeper.cli import main; main()",
            "serve",
            "--port",
            str(port),
        ]
        env = fullstack_bench.server_env(instance)
        env.update({k: v for k, v in serve_source(source).items() if k == "PYTHONPATH"})
        with fullstack_bench.running("scorekeeper serve", command, port, env, instance / "log"):
            base = f"http://127.0.0.1:{port}"
            record = {
                "format": "pitch-scorekeeper/1",
                "variant": "auction-pitch",
                "players": PLAYERS,
                "house_rules": {"target": 200},
                "hands": [],
            }
            request = urllib.request.Request(
                base + "/games/import",
                data=json.dumps(record).encode(),
                headers={"Content-Type": "application/json"},
            )
            game_id = json.load(urllib.request.urlopen(request))["id"]
            load = os.getloadavg()[0]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
                )
                context = browser.new_context(
                    viewport={"width": 390, "height": 844}, service_workers="block"
                )
                context.add_init_script(TIMER)
                page = context.new_page()
                page.goto(f"{base}/games/{game_id}")
                times = _rounds(page, hands + 5)[5:]  # the first five warm the caches
                browser.close()
    return {"times": times, "load_before": load, "load_after": os.getloadavg()[0]}


def _rounds(page: Any, count: int) -> list[float]:
    for i in range(count):
        pitcher, bid, high, low, jack, game = HANDS[i % len(HANDS)]
        for row, choice in (
            ("pitcher", pitcher),
            ("bid", bid),
            ("point_high", high),
            ("point_low", low),
            ("point_jack", jack),
            ("point_game", game),
        ):
            page.locator(f"fieldset#{row}").get_by_text(choice, exact=True).click()
        page.locator("#save").click()
        deadline = time.monotonic() + 20
        while True:
            try:
                found = page.evaluate(
                    "() => JSON.parse(sessionStorage.getItem('bench-times') || '[]').length"
                )
            except Exception:  # a page opening afresh: ask it once it is there
                found = 0
            if found > i:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"Save {i + 1} was not answered within 20 s")
            page.wait_for_timeout(5)
    times: list[float] = page.evaluate("() => JSON.parse(sessionStorage.getItem('bench-times'))")
    return times


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20, method="inclusive")[18]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--source", type=Path, help="serve this checkout's package instead")
    args = parser.parse_args()
    found = measure(args.hands, args.source)
    times = found["times"]
    print(
        f"Save -> next hand's form ready, {len(times)} hands: median "
        f"{statistics.median(times):.0f} ms, p95 {p95(times):.0f} ms, max {max(times):.0f} ms "
        f"(load average {found['load_before']:.2f} before, {found['load_after']:.2f} after)"
    )


if __name__ == "__main__":
    main()
