"""Benchmark the history, player and night pages on a large database (10,000 games by default).

Not a test. The database is seeded once by ``scorekeeper.seed.generator`` (real games played
through the engine, in game nights) through ``bench/pages_bench.py``'s ``prepare``,
and kept in ``instance/bench/`` for the next run (or, with ``--database-url``, in the
schema ``bench_scale_<games>`` of that PostgreSQL database: see bench/databases.py).
Each page is asked for with the Flask test client (the whole app: routing, queries,
templates; no network), after a warm-up, cycling over different players, nights and
history pages; each page is sampled for a few seconds (at least 20 requests, at most
100), beside the floor of ``/healthz`` in the same app.

    .venv/bin/python bench/scale_pages.py [--games 10000] [--database-url postgresql://...]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import databases  # noqa: E402  (sibling scripts, not a package)
import pages_bench  # noqa: E402

CACHE = ROOT / "instance" / "bench"


def database_for(games: int) -> Path:
    """Where the seeded database of ``games`` games is kept between runs."""
    return CACHE / f"scale-{games}.sqlite3"


def schema_for(games: int) -> str:
    """The PostgreSQL schema the seeded database of ``games`` games is kept in."""
    return f"bench_scale_{games}"


def sample(
    client: Any,
    url_of: Callable[[int], str],
    *,
    most: int = 100,
    least: int = 20,
    budget: float = 5,
) -> list[float]:
    """Ask for a page repeatedly (after 3 warm-ups); return the timings in milliseconds."""
    for i in range(3):
        client.get(url_of(i))
    timings: list[float] = []
    deadline = time.perf_counter() + budget
    i = 0
    while len(timings) < least or (len(timings) < most and time.perf_counter() < deadline):
        url = url_of(i)
        started = time.perf_counter()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        i += 1
    return timings


def history_order(app: Any, player_id: int | None = None) -> Any:
    """The games' numbers as the history lists them, newest first (only ``player_id``'s, if given).

    With a player, return (their name, their games' numbers).
    """
    from sqlalchemy import select

    from scorekeeper.data import models
    from scorekeeper.data.extensions import db

    game = models.Game
    with app.app_context():
        query = select(game.id).order_by(game.created_at.desc(), game.id.desc())
        if player_id is None:
            found: Any = list(db.session.execute(query).scalars())
        else:
            seat = models.Seat
            query = query.join(seat, seat.game_id == game.id).where(seat.player_id == player_id)
            name = db.session.get(models.Player, player_id).name
            found = (name, list(db.session.execute(query).scalars()))
        db.session.remove()
    return found


def measure(
    games: int = 10_000, budget: float = 5, database_url: str | None = None
) -> dict[str, Any]:
    """Seed (or reuse) the database and time each page; return the samples per page.

    The database is a SQLite file in instance/bench/, or a schema of the PostgreSQL
    ``database_url`` when given."""
    CACHE.mkdir(parents=True, exist_ok=True)
    database = database_for(games)
    url = None
    if database_url is not None:
        databases.make_schema(database_url, schema_for(games), fresh=False)
        url = databases.in_schema(database_url, schema_for(games))
    started = time.perf_counter()
    app = pages_bench.prepare(database, games, url)
    prepared = time.perf_counter() - started
    found = pages_bench.sizes(app)
    rng = random.Random(1)
    players = [rng.choice(found["player_ids"]) for _ in range(100)]
    nights = [rng.choice(found["night_ids"]) for _ in range(100)]
    history_pages = max(1, -(-found["games"] // 25))
    busiest = found["busiest"]
    newest_first = history_order(app)
    busiest_name, busiest_games = history_order(app, busiest)

    def older_page(order: list[int], extra: str = "") -> str:
        """A random page as the pager's "Older" link asks for it: after the last game above."""
        page = 2 + rng.randrange(max(1, -(-len(order) // 25) - 1))
        return f"/history?page={page}&before={order[(page - 1) * 25 - 1]}{extra}"

    pages: dict[str, Callable[[int], str]] = {
        "/history (page 1)": lambda i: "/history",
        "/history?page=N&before=<id> (random page, the pager's link)": lambda i: older_page(
            newest_first
        ),
        "/history?page=N (random page, an old link by number)": lambda i: (
            f"/history?page={1 + rng.randrange(history_pages)}"
        ),
        "/history?player=<busiest>&page=N&before=<id> (random page, the pager's link)": (
            lambda i: older_page(busiest_games, f"&player={quote(busiest_name)}")
        ),
        "/players (roster)": lambda i: "/players",
        "/players/<id> (random player)": lambda i: f"/players/{players[i % 100]}",
        "/players/<id> (busiest player)": lambda i: f"/players/{busiest}",
        "/nights (list)": lambda i: "/nights",
        "/nights/<id> (random night)": lambda i: f"/nights/{nights[i % 100]}",
    }
    client = app.test_client()
    floor = sample(client, lambda i: "/healthz", most=200, budget=1)
    timings = {name: sample(client, url_of, budget=budget) for name, url_of in pages.items()}
    # A write at this size: correct a hand (written back unchanged), statistics cache included.
    _, edits, edit_median, edit_p99, _ = pages_bench.time_edit(app, found["game_ids"], runs=50)
    return {
        "database": str(database) if url is None else f"PostgreSQL schema {schema_for(games)}",
        "prepared_seconds": prepared,
        "games": found["games"],
        "hands": found["hands"],
        "players": found["players"],
        "nights": found["nights"],
        "floor": floor,
        "pages": timings,
        "edit": {"n": edits, "median_ms": edit_median, "p99_ms": edit_p99},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL") or None,
        help="a PostgreSQL database to seed and read instead of a SQLite file "
        "(default: $BENCH_DATABASE_URL; schema bench_scale_<games>, kept)",
    )
    args = parser.parse_args()
    found = measure(args.games, database_url=args.database_url)
    print(
        f"{found['games']} games, {found['hands']} hands, {found['players']} players, "
        f"{found['nights']} nights ({found['database']}; "
        f"ready in {found['prepared_seconds']:.0f} s)"
    )
    for name, timings in {"/healthz (floor)": found["floor"], **found["pages"]}.items():
        print(
            f"{name:<36} n={len(timings):3d}  median {statistics.median(timings):7.1f} ms"
            f"  max {max(timings):7.1f} ms"
        )


if __name__ == "__main__":
    main()
