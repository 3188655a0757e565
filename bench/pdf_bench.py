"""Benchmark the printed score sheets: time and peak memory of one sheet and of a long history.

Not a test. It builds a fresh SQLite database of realistic games (random but seeded,
played through the real engine), then measures, each in a fresh process so that its
peak memory is its own:

- the sheet of a typical game, and of a 60-hand game (GET /games/<id>/sheet.pdf);
- the history of 100 games (GET /history.pdf, then the background job to the end).

Memory is the peak resident set of the measuring process and all its children (the
layout workers) together, sampled every 100 ms, with their CPU time; the measuring
process's own ``ru_maxrss`` is printed as well. The machine is shared: the load average
before measuring is printed, and CPU seconds say more than wall time when it is high.

    .venv/bin/python bench/pdf_bench.py [--games 100] [--workers 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Zoë", "Seán O'Brien"]


# --- Making games ----------------------------------------------------------------------------


def random_hand(rng: random.Random, game: Any, result: Any) -> Any:
    """A plausible hand: some pitcher bids, and the points go mostly to the pitcher's side."""
    from scorekeeper import rules

    variant = game.variant
    dealer = result.next_dealer
    players = list(game.players)
    if variant.sales:
        seller = game.left_of(dealer)
        sale = rng.choice(["pitched", "sold", "sold", "kept"])
        others = [p for p in players if p != seller]
        if sale == "pitched":
            pitcher, bid, high_bidder = seller, 4, None
        elif sale == "sold":
            pitcher, bid, high_bidder = rng.choice(others), rng.randint(1, 4), None
        else:
            pitcher, bid, high_bidder = seller, rng.randint(1, 4), rng.choice(others)
    else:
        pitcher = rng.choice(players)
        low = max(variant.min_bid, 1)
        bid = rng.randint(low, min(variant.max_bid, low + 3))
        sale = high_bidder = None
    partners = [p for p in players if game.side_of(p) == game.side_of(pitcher)]
    points = {}
    for point in variant.points:
        if point.may_be_nobody and rng.random() < 0.1:
            points[point.key] = None
        elif rng.random() < 0.6:
            points[point.key] = rng.choice(partners)
        else:
            points[point.key] = rng.choice(players)
    return rules.Hand(
        pitcher=pitcher,
        bid=bid,
        points=points,
        sale=rules.Sale(sale) if sale else None,
        high_bidder=high_bidder,
        note="a misdeal, redealt" if rng.random() < 0.03 else None,
    )


def random_game(rng: random.Random, variant_key: str) -> tuple[Any, list[Any]]:
    """Play ``variant_key`` to its end with random legal hands; 1 in 5 is left unfinished."""
    from scorekeeper import rules

    variant = rules.VARIANTS[variant_key]
    teams = None
    if variant.teams_required or (variant.max_seats >= 4 and rng.random() < 0.25):
        players = rng.sample(NAMES, 4)
        teams = {"Us": [players[0], players[2]], "Them": [players[1], players[3]]}
    else:
        players = rng.sample(
            NAMES, rng.randint(max(3, variant.min_seats), min(4, variant.max_seats))
        )
    game = rules.Game.create(
        variant_key, players, teams=teams, stake=rng.choice([None, "0.25", "1"])
    )
    hands: list[Any] = []
    stop_early = rng.random() < 0.2
    while len(hands) < 150:
        result = rules.score_game(game, hands)
        if result.finished or (stop_early and len(hands) >= 5):
            break
        for _ in range(50):
            candidate = random_hand(rng, game, result)
            try:
                rules.score_game(game, [*hands, candidate])
            except rules.RuleError:
                continue
            hands.append(candidate)
            break
    return game, hands


def build_database(url: str, games: int, seed: int) -> dict[str, Any]:
    """Fill a fresh database with ``games`` random games and one 60-hand game."""
    from scorekeeper import create_app, operations, rules
    from scorekeeper.data.database import upgrade_database

    rng = random.Random(seed)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    keys = list(rules.VARIANTS)
    weights = [5 if k == "auction-pitch" else 1 for k in keys]
    hands_total = 0
    with app.app_context():
        upgrade_database()
        # Played to 200 with no smudge (a made bid of 4 would end it), so it runs 60 hands.
        long_game = rules.Game.create(
            "auction-pitch", NAMES[:4], house_rules={"target": 200, "smudge": "off"}
        )
        long_hands: list[Any] = []
        while len(long_hands) < 60:
            so_far = rules.score_game(long_game, long_hands)
            assert not so_far.finished, "the long game ended early"
            hand = random_hand(rng, long_game, so_far)
            try:
                rules.score_game(long_game, [*long_hands, hand])
            except rules.RuleError:
                continue
            long_hands.append(hand)
        long_id = operations.games.import_record(
            rules.parse_record(rules.record_to_json(long_game, long_hands))
        )
        typical_id = None
        for _ in range(games - 1):
            game, hands = random_game(rng, rng.choices(keys, weights)[0])
            hands_total += len(hands)
            game_id = operations.games.import_record(
                rules.parse_record(rules.record_to_json(game, hands))
            )
            if typical_id is None and game.variant.key == "auction-pitch" and len(hands) >= 8:
                typical_id = game_id
    return {
        "long_id": long_id,
        "typical_id": typical_id,
        "games": games,
        "hands": hands_total + 60,
    }


# --- Measuring -------------------------------------------------------------------------------


TICKS = os.sysconf("SC_CLK_TCK")


def sample_tree(root: int) -> tuple[int, dict[int, float]]:
    """Resident memory (KiB) of ``root`` and all its descendants, and each one's CPU seconds."""
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    stats[int(entry)] = handle.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
    family, grew = {root}, True
    while grew:
        more = {pid for pid, fields in stats.items() if int(fields[1]) in family} - family
        family |= more
        grew = bool(more)
    total = 0
    cpu: dict[int, float] = {}
    for pid in family:
        # Fields after the command name: state is [0]; utime and stime are [11] and [12].
        cpu[pid] = (int(stats[pid][11]) + int(stats[pid][12])) / TICKS if pid in stats else 0.0
        try:
            with open(f"/proc/{pid}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total, cpu


def tree_rss_kib(root: int) -> int:
    return sample_tree(root)[0]


class PeakMemory:
    """Sample the process tree's resident memory in the background; keep the peak."""

    def __init__(self) -> None:
        self.peak = 0
        self._cpu: dict[int, float] = {}
        self._start_cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def cpu_seconds(self) -> float:
        """CPU time the process tree spent while measured (workers that came and went too)."""
        return sum(t - self._start_cpu.get(pid, 0.0) for pid, t in self._cpu.items())

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            rss, cpu = sample_tree(os.getpid())
            if first:
                self._start_cpu, first = dict(cpu), False
            self.peak = max(self.peak, rss)
            for pid, seconds in cpu.items():
                self._cpu[pid] = max(self._cpu.get(pid, 0.0), seconds)
            self._stop.wait(0.1)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def measure(kind: str, url: str, instance: str, game_id: int, workers: int, out: str) -> None:
    """Run one measurement in this (fresh) process and print it as JSON."""
    os.environ["SCOREKEEPER_INSTANCE"] = instance
    from pypdf import PdfReader

    from scorekeeper import create_app

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "PDF_WORKERS": workers}
    )
    client = app.test_client()
    client.get("/history")  # load the app's code and templates before the clock starts
    before = tree_rss_kib(os.getpid())
    with PeakMemory() as memory:
        started = time.perf_counter()
        if kind == "history":
            location = client.get("/history.pdf").headers["Location"].split("?")[0]
            while (status := client.get(location + ".json").get_json())["state"] not in (
                "done",
                "failed",
            ):
                time.sleep(0.1)
            assert status["state"] == "done", status
            data = client.get(status["download"]).data
        else:
            response = client.get(f"/games/{game_id}/sheet.pdf")
            assert response.status_code == 200
            data = response.data
        seconds = time.perf_counter() - started
    warm = None
    if kind == "sheet":  # again, now that WeasyPrint is loaded and its fonts are found
        again = time.perf_counter()
        assert client.get(f"/games/{game_id}/sheet.pdf").status_code == 200
        warm = round(time.perf_counter() - again, 2)
    Path(out).write_bytes(data)
    print(
        json.dumps(
            {
                "kind": kind,
                "seconds": round(seconds, 2),
                "warm_seconds": warm,
                "cpu_seconds": round(memory.cpu_seconds, 1),
                "pages": len(PdfReader(out).pages),
                "bytes": len(data),
                "rss_before_mib": round(before / 1024),
                "peak_tree_rss_mib": round(memory.peak / 1024),
                "maxrss_self_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="layout processes for the history (0: in the job's own thread)",
    )
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--keep", help="keep the database and the PDFs in this folder")
    parser.add_argument("--measure", choices=["sheet", "history"], help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--instance", help=argparse.SUPPRESS)
    parser.add_argument("--game-id", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.url, args.instance, args.game_id, args.workers, args.out)
        return

    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="pdf-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["SCOREKEEPER_INSTANCE"] = str(folder / "instance")
    database = folder / "bench.sqlite3"
    database.unlink(missing_ok=True)
    url = f"sqlite:///{database}"
    started = time.perf_counter()
    made = build_database(url, args.games, args.seed)
    print(
        f"{made['games']} games, {made['hands']} hands, "
        f"built in {time.perf_counter() - started:.1f} s"
    )
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before measuring"
    )

    cases = [
        ("sheet", made["typical_id"], "typical game sheet"),
        ("sheet", made["long_id"], "60-hand game sheet"),
        ("history", 0, f"{args.games}-game history"),
    ]
    for kind, game_id, label in cases:
        out = folder / f"{label.replace(' ', '-')}.pdf"
        line = (
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--measure",
                    kind,
                    "--url",
                    url,
                    "--instance",
                    str(folder / "instance"),
                    "--game-id",
                    str(game_id),
                    "--workers",
                    str(args.workers),
                    "--out",
                    str(out),
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            .stdout.strip()
            .splitlines()[-1]
        )
        found = json.loads(line)
        warm = f", {found['warm_seconds']:.2f} s the second time" if found["warm_seconds"] else ""
        print(
            f"{label:>22}: {found['seconds']:6.2f} s ({found['cpu_seconds']:.1f} s of CPU{warm}), "
            f"{found['pages']:3d} pages, "
            f"{found['bytes'] / 1024:7.0f} KiB; peak RSS {found['peak_tree_rss_mib']} MiB "
            f"(process and workers; {found['rss_before_mib']} MiB before), "
            f"ru_maxrss {found['maxrss_self_mib']} MiB"
        )
    print(f"PDFs in {folder}")


if __name__ == "__main__":
    main()
