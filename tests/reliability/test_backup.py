"""Backups while the app writes, and moving every game between databases."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app, operations, rules
from scorekeeper.backup import backup_sqlite, export_collection, import_collection
from scorekeeper.extensions import db

HAND = rules.Hand(
    pitcher="Bob", bid=2, points={"high": "Bob", "low": "Ann", "jack": None, "game": "Cy"}
)


def _play(app: Any, games: int, hands: int) -> list[int]:
    ids = []
    with app.app_context():
        for _ in range(games):
            game_id = operations.create_game(
                rules.Game.create(
                    "auction-pitch",
                    ["Ann", "Bob", "Cy"],
                    house_rules={"target": 1000},
                    stake="0.25",
                )
            )
            for n in range(hands):
                operations.record_hand(game_id, HAND, version=n)
            ids.append(game_id)
    return ids


def _records(app: Any) -> list[dict[str, Any]]:
    with app.app_context():
        return [entry["record"] for entry in export_collection()["games"]]


def test_a_backup_taken_while_hands_are_written_is_consistent_and_restores(
    app: Any, tmp_path: Path
) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("backup copies SQLite files; PostgreSQL has pg_dump")
    _play(app, games=3, hands=5)
    stop = threading.Event()
    started = threading.Event()
    written = {"hands": 0}

    def writer() -> None:
        with app.app_context():
            game_id = operations.create_game(
                rules.Game.create(
                    "auction-pitch", ["Ann", "Bob", "Cy"], house_rules={"target": 1000}
                )
            )
            version = 0
            while not stop.is_set() and version < 400:
                operations.record_hand(game_id, HAND, version=version)
                version += 1
                written["hands"] += 1
                started.set()

    thread = threading.Thread(target=writer)
    thread.start()
    assert started.wait(timeout=60), "the writer never wrote a hand"
    backups = []
    with app.app_context():
        for i in range(5):
            target = tmp_path / f"backup-{i}.sqlite3"
            backup_sqlite(target)
            backups.append(target)
    stop.set()
    thread.join(timeout=60)
    assert written["hands"] > 0
    for target in backups:
        with sqlite3.connect(target) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        restored = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{target}", "SECRET_KEY": "t", "TESTING": True}
        )
        records = _records(restored)
        # Every game in the copy replays cleanly: no hand was half-written.
        assert len(records) == 4
        for record in records:
            rules.parse_record(record)
        with restored.app_context():
            db.engine.dispose()
    # The final backup equals the live database, game for game.
    with app.app_context():
        final = tmp_path / "final.sqlite3"
        backup_sqlite(final)
    final_app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{final}", "SECRET_KEY": "t", "TESTING": True}
    )
    assert _records(final_app) == _records(app)


def test_export_all_then_import_all_moves_every_game_losing_nothing(
    app: Any, tmp_path: Path, migrated_sqlite: Path
) -> None:
    """From the test's database (SQLite or PostgreSQL) into a fresh SQLite file, and back."""
    _play(app, games=4, hands=3)
    with app.app_context():
        game_id = operations.create_game(
            rules.Game.create(
                "cinch",
                ["Ann", "Bob", "Cy", "Dee"],
                teams={"N": ["Ann", "Cy"], "E": ["Bob", "Dee"]},
                stake="1.50",
            )
        )
        operations.record_hand(
            game_id,
            rules.Hand(
                pitcher="Bob",
                bid=6,
                points={
                    "high": "Bob",
                    "low": "Ann",
                    "jack": "Cy",
                    "game": "Ann",
                    "right_pedro": "Dee",
                    "left_pedro": "Cy",
                },
                note="Zoë's ♠",
            ),
            version=0,
        )
        exported = export_collection()
    target = tmp_path / "other.sqlite3"
    target.write_bytes(migrated_sqlite.read_bytes())
    other = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{target}", "SECRET_KEY": "t", "TESTING": True}
    )
    with other.app_context():
        assert import_collection(json.dumps(exported)) == 5
        again = export_collection()
        db.engine.dispose()
    assert again == exported


def test_import_all_of_a_file_with_one_bad_game_adds_nothing(app: Any) -> None:
    good = {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "players": ["Ann", "Bob"],
        "hands": [],
    }
    bad = dict(good, players=["Ann"])
    document = {
        "format": "pitch-scorekeeper/collection-1",
        "games": [{"record": good}, {"record": bad}],
    }
    with app.app_context():
        with pytest.raises(rules.RuleError) as error:
            import_collection(json.dumps(document))
        assert str(error.value).startswith("game 2: players: ")
        assert export_collection()["games"] == []
