"""The seed command (realistic games through the engine) and the migration that fills the cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from builders import config_for
from sqlalchemy import func, select

from scorekeeper import operations, rules
from scorekeeper.cli.seed import seed_database
from scorekeeper.data import models
from scorekeeper.data.extensions import db
from scorekeeper.operations.seeded import SeededGame
from scorekeeper.seed.generator import generate

from .fixed_games import GAME_B, GAME_D
from .support import cache_and_replay, import_game

SCRIPT = Path(sys.executable).parent / "scorekeeper"


def _count(model: Any) -> int:
    return int(db.session.execute(select(func.count()).select_from(model)).scalar_one())


def test_the_seed_command_fills_a_database_with_games_the_engine_agrees_with(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    run = subprocess.run(
        [str(SCRIPT), "seed", "--games", "25", "--seed", "7"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "Seeded 25 games" in run.stdout
    from scorekeeper import create_app

    database = tmp_path / "instance" / "scorekeeper.sqlite3"
    app = create_app(config_for(f"sqlite:///{database}"))
    with app.app_context():
        assert _count(models.Game) == 25
        assert _count(models.Night) >= 25 // 8
        for game in db.session.execute(select(models.Game)).scalars():
            replayed = operations.loading.load(game.id).result
            assert (game.finished, game.winner) == (replayed.finished, replayed.winner)
            assert game.night_id is not None
        db.session.remove()
    cached, fresh = cache_and_replay(app)
    assert cached == fresh and len(cached) >= 25 * 3
    with app.app_context():
        db.engine.dispose()


def test_the_same_seed_makes_the_same_games() -> None:
    def records(seed: int) -> list[Any]:
        return [
            rules.record_to_json(g.game, g.hands)
            for g in generate(12, seed=seed)
            if isinstance(g, SeededGame)
        ]

    assert records(3) == records(3)
    assert records(3) != records(4)


def test_seeded_games_cover_every_variant_partnerships_and_stakes() -> None:
    games = [g for g in generate(150, seed=1) if isinstance(g, SeededGame)]
    assert {g.game.variant.key for g in games} == set(rules.VARIANTS)
    assert any(g.game.teams for g in games) and any(not g.game.teams for g in games)
    assert any(g.game.stake for g in games) and any(not g.game.stake for g in games)
    assert sum(len(g.hands) for g in games) / len(games) > 15


def test_after_seeding_new_games_and_nights_get_fresh_numbers(client: Any, app: Any) -> None:
    with app.app_context():
        counts = seed_database(15, seed=2)
        db.session.remove()
    assert counts["games"] == 15
    game = import_game(client, GAME_B)
    assert game == 16
    response = client.post("/nights", data={"name": "After the seed", "date": "2026-11-29"})
    assert response.status_code == 302
    assert client.get("/players").status_code == 200


def _insert_record(conn: Any, game: dict[str, Any], game_id: int) -> None:
    """Store a game as the first schema did, with plain SQL (the models have moved on)."""
    parsed = rules.loads_record(json.dumps(game))
    players = parsed.game.players
    for name in players:
        if (
            conn.execute(sa.text("SELECT id FROM player WHERE name = :n"), {"n": name}).first()
            is None
        ):
            conn.execute(
                sa.text("INSERT INTO player (name, created_at) VALUES (:n, '2026-01-01')"),
                {"n": name},
            )
    seat_of = {name: i for i, name in enumerate(players)}
    teams = (
        [[t, [seat_of[p] for p in m]] for t, m in parsed.game.teams] if parsed.game.teams else None
    )
    conn.execute(
        sa.text(
            "INSERT INTO game (id, variant, house_rules, teams, stake, version, finished, "
            "created_at, updated_at) "
            "VALUES (:id, :v, :h, :t, :s, 1, 0, '2026-01-02 20:00:00', '2026-01-02')"
        ),
        {
            "id": game_id,
            "v": parsed.game.variant.key,
            "h": json.dumps(dict(parsed.game.house_rules_given)),
            "t": json.dumps(teams) if teams else None,
            "s": parsed.game.stake,
        },
    )
    for i, name in enumerate(players):
        conn.execute(
            sa.text(
                "INSERT INTO seat (game_id, position, player_id) "
                "SELECT :g, :p, id FROM player WHERE name = :n"
            ),
            {"g": game_id, "p": i, "n": name},
        )
    for n, hand in enumerate(parsed.hands, start=1):
        columns = operations.rows.hand_columns(hand, seat_of)
        conn.execute(
            sa.text(
                "INSERT INTO hand (game_id, number, passed, pitcher_seat, bid, points, sale, "
                "high_bidder_seat, note, created_at) VALUES (:g, :n, :passed, :pitcher_seat, :bid, "
                ":points, :sale, :high_bidder_seat, :note, '2026-01-02')"
            ),
            {**columns, "g": game_id, "n": n, "points": json.dumps(columns["points"])},
        )


def test_the_migration_keeps_every_hand_and_fills_the_cache_from_a_replay(tmp_path: Path) -> None:
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.data.database import migrations_directory

    database = tmp_path / "old.sqlite3"
    app = create_app(config_for(f"sqlite:///{database}"))
    with app.app_context():
        upgrade(directory=migrations_directory(), revision="54226b96d397")
        with db.engine.begin() as conn:
            _insert_record(conn, GAME_B, 1)
            _insert_record(conn, GAME_D, 2)
        upgrade(directory=migrations_directory())
        assert _count(models.Hand) == 6
        assert _count(models.PlayerGame) == 7
        assert db.session.get(models.Game, 1).night_id is None
        db.session.remove()
    cached, fresh = cache_and_replay(app)
    assert cached == fresh
    assert cached[(2, "Dee")]["money"] == "-0.67" and cached[(1, "Bob")]["won"] is True
    with app.app_context():
        db.engine.dispose()
