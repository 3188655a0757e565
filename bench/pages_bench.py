"""Time the listing pages on a database of 10,000 games: median and 99th percentile per page.

A benchmark, not a test: run it by hand::

    .venv/bin/python bench/pages_bench.py [--games 10000] [--db /tmp/scorekeeper-bench.sqlite3]

The first run seeds the database through ``scorekeeper.seed.generator`` (real games played
through the engine, about two minutes); later runs reuse it. Each page is
requested with the Flask test client (the whole app: routing, queries,
templates, no network), after a warm-up, cycling over different players, nights
and games. The table is printed (and written to ``--out`` when given): bench/results.md
is bench/run.py's alone.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the timings fall (nearest rank)."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def prepare(database: Path, games: int, url: str | None = None) -> Any:
    """Open the app on the benchmark database, seeding it first if it has too few games.

    The database is the SQLite file ``database``, or the SQLAlchemy ``url`` when given
    (then ``database`` only places the instance folder beside it)."""
    os.environ.setdefault("SCOREKEEPER_INSTANCE", str(database.parent / "bench-instance"))
    from sqlalchemy import func, select

    from scorekeeper import create_app
    from scorekeeper.cli.seed import seed_database
    from scorekeeper.data import models
    from scorekeeper.data.database import upgrade_database
    from scorekeeper.data.extensions import db

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url or f"sqlite:///{database}",
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        upgrade_database()
        have = db.session.execute(select(func.count()).select_from(models.Game)).scalar_one()
        if have < games:
            started = time.perf_counter()
            counts = seed_database(games - have, seed=have + 1)
            print(
                f"seeded {counts['games']} games ({counts['hands']} hands, "
                f"{counts['nights']} nights) in {time.perf_counter() - started:.0f} s"
            )
        db.session.remove()
    # As `scorekeeper serve` does before it answers (the pages here are asked in process).
    from scorekeeper.cli.commands import ready_to_serve

    ready_to_serve()
    return app


def sizes(app: Any) -> dict[str, Any]:
    from sqlalchemy import func, select

    from scorekeeper.data import models
    from scorekeeper.data.extensions import db

    with app.app_context():

        def count(model: Any) -> int:
            return int(db.session.execute(select(func.count()).select_from(model)).scalar_one())

        found = {
            "games": count(models.Game),
            "hands": count(models.Hand),
            "players": count(models.Player),
            "nights": count(models.Night),
            "player_ids": db.session.execute(select(models.Player.id)).scalars().all(),
            "night_ids": db.session.execute(select(models.Night.id)).scalars().all(),
            "game_ids": db.session.execute(select(models.Game.id)).scalars().all(),
            "busiest": db.session.execute(
                select(models.PlayerGame.player_id)
                .group_by(models.PlayerGame.player_id)
                .order_by(func.count().desc())
                .limit(1)
            ).scalar_one(),
        }
        db.session.remove()
    return found


def time_pages(app: Any, pages: dict[str, Callable[[int], str]], runs: dict[str, int]) -> list[Any]:
    client = app.test_client()
    rows = []
    for name, url_of in pages.items():
        for i in range(3):  # warm up: templates compiled, caches primed
            client.get(url_of(i))
        timings = []
        for i in range(runs.get(name, 200)):
            url = url_of(i)
            started = time.perf_counter()
            response = client.get(url)
            timings.append((time.perf_counter() - started) * 1000)
            if response.status_code != 200:
                raise SystemExit(f"{url} answered {response.status_code}")
        rows.append(
            (
                name,
                len(timings),
                statistics.median(timings),
                percentile(timings, 0.99),
                max(timings),
            )
        )
        print(f"{name:<44} median {rows[-1][2]:7.1f} ms   p99 {rows[-1][3]:7.1f} ms", flush=True)
    return rows


def time_edit(app: Any, game_ids: list[int], runs: int = 100) -> tuple[Any, ...]:
    """Time correcting hand 1 of a game (written back unchanged): replay, write, cache refresh."""
    from scorekeeper import operations
    from scorekeeper.data.extensions import db

    rng = random.Random(5)
    timings = []
    with app.app_context():
        for _ in range(runs):
            game_id = rng.choice(game_ids)
            loaded = operations.loading.load(game_id)
            started = time.perf_counter()
            operations.hands.replace_hand(game_id, 1, loaded.hands[0], version=loaded.row.version)
            timings.append((time.perf_counter() - started) * 1000)
            db.session.remove()
    return (
        "correct a hand (write + cache refresh)",
        runs,
        statistics.median(timings),
        percentile(timings, 0.99),
        max(timings),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--db", type=Path, default=Path("/tmp/scorekeeper-bench.sqlite3"))
    parser.add_argument("--runs", type=int, default=200, help="requests per HTML page")
    parser.add_argument("--out", type=Path, help="also write the table here (Markdown)")
    args = parser.parse_args()
    app = prepare(args.db, args.games)
    found = sizes(app)
    rng = random.Random(1)
    players, nights, games = found["player_ids"], found["night_ids"], found["game_ids"]
    pick_players = [rng.choice(players) for _ in range(1000)]
    pick_nights = [rng.choice(nights) for _ in range(1000)]
    pick_games = [rng.choice(games) for _ in range(1000)]
    roster_pages = max(1, -(-found["players"] // 50))
    night_pages = max(1, -(-found["nights"] // 25))
    busiest = found["busiest"]
    pages: dict[str, Callable[[int], str]] = {
        "/ (games in progress, latest finished)": lambda i: "/",
        "/players (roster, by name)": lambda i: f"/players?page={1 + i % roster_pages}",
        "/players?sort=rate (roster, by win rate)": lambda i: "/players?sort=rate",
        "/players?sort=money": lambda i: "/players?sort=money",
        "/players/<id> (random player)": lambda i: f"/players/{pick_players[i % 1000]}",
        "/players/<id> (busiest player)": lambda i: f"/players/{busiest}",
        "/players/<id>?page=20 (busiest, older games)": lambda i: f"/players/{busiest}?page=20",
        "/history (page 1)": lambda i: "/history",
        "/history?page=N (random page)": lambda i: f"/history?page={1 + rng.randrange(400)}",
        "/nights (list)": lambda i: f"/nights?page={1 + i % night_pages}",
        "/nights/<id> (random night)": lambda i: f"/nights/{pick_nights[i % 1000]}",
        "/nights/<id>.pdf (settlement PDF)": lambda i: f"/nights/{pick_nights[i % 1000]}.pdf",
        "/games/<id> (game page with chart)": lambda i: f"/games/{pick_games[i % 1000]}",
        "/games/<id>/sheet.pdf (score sheet PDF)": lambda i: (
            f"/games/{pick_games[i % 1000]}/sheet.pdf"
        ),
    }
    with app.test_request_context():
        rules = {rule.rule for rule in app.url_map.iter_rules()}
    if "/history" not in rules:
        pages = {k: v for k, v in pages.items() if not k.startswith("/history")}
    if "/games/<int:game_id>/sheet.pdf" not in rules:
        pages = {k: v for k, v in pages.items() if "sheet.pdf" not in k}
    runs = {name: (30 if ".pdf" in name else args.runs) for name in pages}
    print(
        f"database: {found['games']} games, {found['hands']} hands, {found['players']} players, "
        f"{found['nights']} nights ({args.db})"
    )
    rows = time_pages(app, pages, runs)
    rows.append(time_edit(app, games))
    print(f"{rows[-1][0]:<44} median {rows[-1][2]:7.1f} ms   p99 {rows[-1][3]:7.1f} ms")
    lines = [
        f"# Page timings ({datetime.now():%Y-%m-%d %H:%M})",
        "",
        f"{found['games']} games, {found['hands']} hands, {found['players']} players, "
        f"{found['nights']} nights; SQLite; Flask test client, in process; "
        f"Python {sys.version.split()[0]}.",
        "",
        "| page | requests | median ms | p99 ms | max ms |",
        "|---|---:|---:|---:|---:|",
        *(f"| {n} | {c} | {m:.1f} | {p:.1f} | {x:.1f} |" for n, c, m, p, x in rows),
    ]
    print("\n".join(lines))
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
