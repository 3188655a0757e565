"""Backups while the app writes, and moving every game between databases."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from builders import config_for
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from scorekeeper import create_app, operations, rules
from scorekeeper.cli.backup import backup_sqlite, export_collection, import_collection
from scorekeeper.data.extensions import db

HAND = rules.Hand(
    pitcher="Bob", bid=2, points={"high": "Bob", "low": "Ann", "jack": None, "game": "Cy"}
)


def _play(app: Any, games: int, hands: int, night: int | None = None) -> list[int]:
    ids = []
    with app.app_context():
        for _ in range(games):
            game_id = operations.games.create_game(
                rules.Game.create(
                    "auction-pitch",
                    ["Ann", "Bob", "Cy"],
                    house_rules={"target": 1000},
                    stake="0.25",
                ),
                night_id=night,
            )
            for n in range(hands):
                operations.hands.record_hand(game_id, HAND, version=n)
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
            game_id = operations.games.create_game(
                rules.Game.create(
                    "auction-pitch", ["Ann", "Bob", "Cy"], house_rules={"target": 1000}
                )
            )
            version = 0
            while not stop.is_set() and version < 400:
                operations.hands.record_hand(game_id, HAND, version=version)
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
        restored = create_app(config_for(f"sqlite:///{target}"))
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
    final_app = create_app(config_for(f"sqlite:///{final}"))
    assert _records(final_app) == _records(app)


def test_export_all_then_import_all_moves_every_game_losing_nothing(
    app: Any, tmp_path: Path, migrated_sqlite: Path
) -> None:
    """From the test's database (SQLite or PostgreSQL) into a fresh SQLite file, and back."""
    _play(app, games=4, hands=3)
    with app.app_context():
        game_id = operations.games.create_game(
            rules.Game.create(
                "cinch",
                ["Ann", "Bob", "Cy", "Dee"],
                teams={"N": ["Ann", "Cy"], "E": ["Bob", "Dee"]},
                stake="1.50",
            )
        )
        operations.hands.record_hand(
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
    other = create_app(config_for(f"sqlite:///{target}"))
    with other.app_context():
        assert import_collection(json.dumps(exported)).games == 5
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


def test_import_all_refuses_a_key_written_twice_in_any_game_and_adds_nothing(app: Any) -> None:
    good = (
        '{"format": "pitch-scorekeeper/1", "variant": "auction-pitch", "players": ["Ann", "Bob"], '
        '"hands": []}'
    )
    twice = good.replace(
        '"hands": []',
        '"hands": [{"pitcher": "Ann", "bid": 2, "note": "a", "note": "b", "points": '
        '{"high": "Ann", "low": "Bob", "jack": null, "game": "Ann"}}]',
    )
    document = (
        '{"format": "pitch-scorekeeper/collection-1", "games": '
        f'[{{"record": {good}}}, {{"record": {twice}}}]}}'
    )
    with app.app_context():
        with pytest.raises(rules.RuleError) as error:
            import_collection(document)
        assert str(error.value) == 'game 2: hand 1: duplicate key "note"'
        entry_twice = document.replace(
            '{"record": ', '{"created_at": null, "created_at": null, "record": ', 1
        )
        with pytest.raises(rules.RuleError) as error:
            import_collection(entry_twice)
        assert str(error.value) == 'game 1: duplicate key "created_at"'
        assert export_collection()["games"] == []


def _fresh_sqlite(migrated_sqlite: Path, path: Path) -> Any:
    path.write_bytes(migrated_sqlite.read_bytes())
    return create_app(config_for(f"sqlite:///{path}"))


def _nights_and_games(app: Any) -> list[tuple[Any, ...]]:
    """Every night as its table holds it, with the start times of the games played at it."""
    from scorekeeper.data import models

    with app.app_context():
        nights = db.session.execute(select(models.Night).order_by(models.Night.id)).scalars()
        out = [
            (
                n.name,
                n.place,
                n.date,
                n.created_at,
                n.ended_at,
                db.session.execute(
                    select(models.Game.created_at)
                    .where(models.Game.night_id == n.id)
                    .order_by(models.Game.created_at)
                )
                .scalars()
                .all(),
            )
            for n in nights
        ]
        loose = db.session.execute(
            select(func.count()).select_from(models.Game).where(models.Game.night_id.is_(None))
        ).scalar_one()
        return [*out, ("no night", loose)]


def test_export_all_and_import_all_carry_every_game_night_sqlite_to_the_other_and_back(
    app: Any, tmp_path: Path, migrated_sqlite: Path
) -> None:
    """From a SQLite file into the test's database (PostgreSQL too, when there is one), then
    into a fresh SQLite file: the nights, their games and every date come through."""
    from scorekeeper.operations import nights

    first = _fresh_sqlite(migrated_sqlite, tmp_path / "first.sqlite3")
    with first.app_context():
        _play(first, games=1, hands=2)  # before any night: in no night
        friday = nights.start_night("Friday at Zoë's", "Zoë's kitchen", date(2026, 11, 27))
        _play(first, games=2, hands=3, night=friday)
        nights.end_night(friday)
        saturday = nights.start_night("Saturday", None, date(2026, 11, 28))  # left open
        _play(first, games=1, hands=1, night=saturday)
        nights.start_night("An empty night", None, date(2026, 11, 29))
        exported = export_collection()
        db.engine.dispose()
    assert len(exported["nights"]) == 3
    assert [n["games"] for n in exported["nights"]] == [[2, 3], [4], []]
    with app.app_context():
        assert import_collection(json.dumps(exported)).games == 4
        middle = export_collection()
    last = _fresh_sqlite(migrated_sqlite, tmp_path / "last.sqlite3")
    with last.app_context():
        assert import_collection(json.dumps(middle)).games == 4
        again = export_collection()
        db.engine.dispose()
    assert middle == exported
    assert again == exported
    assert _nights_and_games(app) == _nights_and_games(first) == _nights_and_games(last)
    assert _nights_and_games(last)[0][:5] == (
        "Friday at Zoë's",
        "Zoë's kitchen",
        date(2026, 11, 27),
        _nights_and_games(first)[0][3],
        _nights_and_games(first)[0][4],
    )
    assert _nights_and_games(last)[0][4] is not None  # ended stays ended
    assert _nights_and_games(last)[2][4] is None  # open stays open


def test_an_export_from_before_nights_were_carried_still_imports(app: Any) -> None:
    old = {
        "format": "pitch-scorekeeper/collection-1",
        "games": [
            {
                "record": {
                    "format": "pitch-scorekeeper/1",
                    "variant": "auction-pitch",
                    "players": ["Ann", "Bob"],
                    "hands": [],
                },
                "created_at": "2026-11-27T20:00:00",
                "updated_at": "2026-11-27T20:00:00",
                "finished_at": None,
            }
        ],
    }
    with app.app_context():
        assert import_collection(json.dumps(old)).games == 1
        exported = export_collection()
    assert exported["format"] == "pitch-scorekeeper/collection-3"
    assert exported["games"] == old["games"]
    assert exported["nights"] == exported["rule_sets"] == []


@pytest.mark.parametrize(
    ("night", "message"),
    [
        ({"date": "2026-11-27"}, 'night 1: required key "name" is missing'),
        ({"name": "Fri", "date": "27/11/2026"}, "night 1.date: must be a date (ISO 8601)"),
        ({"name": "Fri", "date": "2026-11-27", "games": [3]}, "night 1.games: must be a list"),
        ({"name": "Fri", "date": "2026-11-27", "who": 1}, 'night 1: unknown key "who"'),
        ({"name": " Fri", "date": "2026-11-27"}, "night 1.name: must be a name of 1 to 80"),
    ],
)
def test_import_all_refuses_a_bad_night_with_one_line_and_adds_nothing(
    app: Any, night: dict[str, Any], message: str
) -> None:
    good = {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "players": ["Ann", "Bob"],
        "hands": [],
    }
    document = {
        "format": "pitch-scorekeeper/collection-2",
        "games": [{"record": good}, {"record": good}],
        "nights": [night],
    }
    with app.app_context():
        with pytest.raises(rules.RuleError) as error:
            import_collection(json.dumps(document))
        assert str(error.value).startswith(message)
        assert "\n" not in str(error.value)
        assert export_collection()["games"] == []


def test_import_all_refuses_a_game_put_in_two_nights(app: Any) -> None:
    good = {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "players": ["Ann", "Bob"],
        "hands": [],
    }
    document = {
        "format": "pitch-scorekeeper/collection-2",
        "games": [{"record": good}],
        "nights": [
            {"name": "Fri", "date": "2026-11-27", "games": [1]},
            {"name": "Sat", "date": "2026-11-28", "games": [1]},
        ],
    }
    with app.app_context():
        with pytest.raises(rules.RuleError) as error:
            import_collection(json.dumps(document))
        assert str(error.value).startswith("night 2.games: must be a list of games")
        assert export_collection() == {
            "format": "pitch-scorekeeper/collection-3",
            "games": [],
            "nights": [],
            "rule_sets": [],
        }


def test_an_import_that_fails_halfway_takes_back_what_it_had_written(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses the third game (a real SQLite trigger, as a full disk would):
    the two games written before it, the night and the players the import made are taken
    back, and a player who was there before stays."""
    from scorekeeper.data import models

    monkeypatch.setattr(
        operations.collection, "IMPORT_BATCH_SECONDS", 0.0
    )  # one game a transaction
    app = _fresh_sqlite(migrated_sqlite, tmp_path / "refusing.sqlite3")
    with app.app_context():
        operations.games.create_game(rules.Game.create("auction-pitch", ["Ann", "Bob"]))
        db.session.execute(
            text(
                "CREATE TRIGGER no_sixth_seat BEFORE INSERT ON seat WHEN NEW.position = 5 "
                "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
            )
        )
        db.session.commit()
        before = export_collection()

        def game(players: list[str]) -> dict[str, Any]:
            return {
                "record": {
                    "format": "pitch-scorekeeper/1",
                    "variant": "auction-pitch",
                    "players": players,
                    "hands": [],
                }
            }

        document = {
            "format": "pitch-scorekeeper/collection-2",
            "games": [
                game(["Ann", "Zoë"]),
                game(["Yuri", "Xena"]),
                game(["P1", "P2", "P3", "P4", "P5", "P6"]),
            ],
            "nights": [{"name": "Friday", "date": "2026-11-27", "games": [1, 3]}],
        }
        with pytest.raises(IntegrityError):
            import_collection(json.dumps(document))
        assert export_collection() == before
        names = db.session.execute(select(models.Player.name).order_by(models.Player.name))
        assert names.scalars().all() == ["Ann", "Bob"]
        db.engine.dispose()
