"""The app's database: real migrations, WAL and foreign keys on SQLite, and PostgreSQL when given."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, text

from scorekeeper import models, operations, rules
from scorekeeper.extensions import db


def _new_game(names: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> int:
    return operations.create_game(rules.Game.create("auction-pitch", names))


def test_migrations_create_every_table_the_models_declare(app: Any) -> None:
    with app.app_context():
        inspector = db.inspect(db.engine)
        tables = set(inspector.get_table_names())
    assert {t.name for t in db.metadata.sorted_tables} <= tables
    assert "alembic_version" in tables


def test_sqlite_runs_in_wal_mode_with_foreign_keys_on(app: Any) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            return
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_a_hand_that_breaks_a_rule_writes_nothing(app: Any) -> None:
    with app.app_context():
        game_id = _new_game()
        bad = rules.Hand(pitcher="Bob", bid=9, points={"high": "Bob", "low": "Bob",
                                                        "jack": None, "game": "Bob"})
        before = db.session.execute(select(models.Game.version)).scalar_one()
        try:
            operations.record_hand(game_id, bad, version=before)
        except rules.RuleError as error:
            assert error.code == "bid-above-max"
        else:
            raise AssertionError("a bid of 9 was accepted")
        assert db.session.execute(select(func.count()).select_from(models.Hand)).scalar_one() == 0
        assert db.session.execute(select(models.Game.version)).scalar_one() == before


def test_deleting_a_game_deletes_its_seats_and_hands_but_keeps_the_players(app: Any) -> None:
    with app.app_context():
        game_id = _new_game()
        hand = rules.Hand(pitcher="Bob", bid=2, points={"high": "Bob", "low": "Ann",
                                                         "jack": None, "game": "Bob"})
        operations.record_hand(game_id, hand, version=None)
        operations.delete_game(game_id)
        counts = {
            table: db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in ("game", "seat", "hand", "player")
        }
    assert counts == {"game": 0, "seat": 0, "hand": 0, "player": 3}
