"""Profile what a benchmark measures, with pyinstrument, to find the cause of a missed target.

Not a test. In process, with the Flask test client (CSRF off, so the profile shows
the app's own work, not the client's):

    .venv/bin/python bench/hotspots.py record               # record hands: POST + redirected GET
    .venv/bin/python bench/hotspots.py record --database-url postgresql://u:p@host/name
    .venv/bin/python bench/hotspots.py page /history       # a page on the scale database
    .venv/bin/python bench/hotspots.py page /players/7 --games 2000 --runs 50

``record`` plays Auction Pitch games to 21 on a fresh database, as the full-stack
benchmark does; ``page`` uses the database bench/scale_pages.py seeds and keeps.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def record_client(folder: str, database_url: str | None = None) -> Any:
    """A test client on a fresh database (SQLite in ``folder``, or the emptied PostgreSQL
    database ``database_url``), and a function that records one hand through it."""
    os.environ["SCOREKEEPER_INSTANCE"] = folder
    import fullstack_bench

    from scorekeeper import create_app, rules
    from scorekeeper.data.database import upgrade_database

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": database_url or f"sqlite:///{folder}/bench.sqlite3",
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "bench",
        }
    )
    with app.app_context():
        upgrade_database()
    client = app.test_client()
    rng = random.Random(1)
    state: dict[str, Any] = {"game_id": None}

    def one() -> None:
        if state["game_id"] is None:
            record = {
                "format": "pitch-scorekeeper/1",
                "variant": "auction-pitch",
                "players": fullstack_bench.PLAYERS,
                "house_rules": fullstack_bench.HOUSE_RULES,
                "hands": [],
            }
            answer = client.post("/games/import", json=record)
            if answer.status_code == 409:  # the same empty game kept already: asked again
                again = answer.get_json()["game"]
                answer = client.post(f"/games/import?again={again}", json=record)
            state["game_id"] = answer.get_json()["id"]
            state["game"] = rules.Game.create(
                "auction-pitch", fullstack_bench.PLAYERS, house_rules=fullstack_bench.HOUSE_RULES
            )
            state["hands"] = []
            state["page"] = client.get(f"/games/{state['game_id']}").data
        table = fullstack_bench.Table.__new__(fullstack_bench.Table)
        table.rules, table.rng, table.game, table.hands = rules, rng, state["game"], state["hands"]
        fields, finished = table.next_hand()
        hidden = fullstack_bench.hand_form_fields(state["page"])
        response = client.post(f"/games/{state['game_id']}", data={**hidden, **fields})
        if response.status_code != 302:
            raise SystemExit(f"recording answered {response.status_code}")
        state["page"] = client.get(f"/games/{state['game_id']}").data
        if finished:
            state["game_id"] = None

    return one


def page_client(url: str, games: int) -> Any:
    import pages_bench
    import scale_pages

    scale_pages.CACHE.mkdir(parents=True, exist_ok=True)
    client = pages_bench.prepare(scale_pages.database_for(games), games).test_client()

    def one() -> None:
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")

    return one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["record", "page"])
    parser.add_argument("url", nargs="?", default="/history")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--html", type=Path, help="also write the profile as HTML here")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL"),
        help="record on this PostgreSQL database (schema bench_hotspots, made afresh)",
    )
    args = parser.parse_args()
    from pyinstrument import Profiler

    with tempfile.TemporaryDirectory(prefix="profile-bench-") as folder:
        if args.what == "record":
            url = None
            if args.database_url:
                import databases

                databases.make_schema(args.database_url, "bench_hotspots", fresh=True)
                url = databases.in_schema(args.database_url, "bench_hotspots")
            one = record_client(folder, url)
        else:
            one = page_client(args.url, args.games)
        for _ in range(10):
            one()  # warm up
        profiler = Profiler(interval=0.0005)
        profiler.start()
        for _ in range(args.runs):
            one()
        profiler.stop()
    print(profiler.output_text(unicode=True, color=False))
    if args.html:
        args.html.write_text(profiler.output_html())


if __name__ == "__main__":
    main()
