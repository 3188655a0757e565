"""On PostgreSQL the database announces every change to a game (the live boards' channel).

A trigger on ``game`` (migration d5e9f3a7b2c8) sends ``live.Change``'s payload on
``live.CHANNEL`` whenever a game's version changes or the game is deleted, in the
writer's transaction: on commit only, and whoever the writer was. Read here by a plain
psycopg connection that LISTENs, as ``live.Listener`` does. PostgreSQL only.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from sqlalchemy import text

from scorekeeper import operations, rules
from scorekeeper.data.database import write_transaction
from scorekeeper.data.extensions import db
from scorekeeper.live import broker as live

pytestmark = pytest.mark.postgres

HAND = rules.Hand(
    pitcher="Ana", bid=2, points={"high": "Ana", "low": "Ana", "jack": None, "game": "Ana"}
)


class Undone(Exception):
    """Raised to roll a write back."""


@pytest.fixture
def listening(app: Any, database_url: str) -> Iterator[psycopg.Connection[Any]]:
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite has no notifications: one process delivers its changes itself")
    with app.app_context():
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"LISTEN {live.CHANNEL}")
        yield connection


def heard(connection: psycopg.Connection[Any]) -> list[live.Change | None]:
    """The changes announced since the last call (waiting a moment for the first)."""
    return [
        live.Change.from_payload(notice.payload)
        for notice in connection.notifies(timeout=0.5)
        if notice.channel == live.CHANNEL
    ]


def _new_game(listening: psycopg.Connection[Any]) -> int:
    """A new two-player Auction Pitch game, in the app's context; its id. What its creation
    announced is heard and let go: it changes no version, so nothing, or nothing that matters."""
    game_id = operations.games.create_game(rules.Game.create("auction-pitch", ["Ana", "Bogdan"]))
    heard(listening)
    return game_id


def test_a_hand_recorded_is_announced_with_the_games_new_version(
    app: Any, listening: psycopg.Connection[Any]
) -> None:
    with app.app_context():
        game_id = _new_game(listening)
        version = operations.loading.load(game_id).row.version
        operations.hands.record_hand(game_id, HAND, version=version)
    assert heard(listening) == [live.Change(game_id, version + 1)]


def test_a_change_by_any_writer_is_announced_and_a_rolled_back_one_is_not(
    app: Any, listening: psycopg.Connection[Any]
) -> None:
    with app.app_context():
        game_id = _new_game(listening)
        bump = text("UPDATE game SET version = version + 1 WHERE id = :id RETURNING version")
        with contextlib.suppress(Undone), write_transaction():
            db.session.execute(bump, {"id": game_id})
            raise Undone
        assert heard(listening) == []
        with write_transaction():
            version = db.session.execute(bump, {"id": game_id}).scalar_one()
        assert heard(listening) == [live.Change(game_id, version)]
        with write_transaction():  # a change that leaves the version alone says nothing
            db.session.execute(text("UPDATE game SET stake = '1' WHERE id = :id"), {"id": game_id})
        assert heard(listening) == []


def test_a_deleted_game_is_announced_as_deleted(
    app: Any, listening: psycopg.Connection[Any]
) -> None:
    with app.app_context():
        game_id = _new_game(listening)
        operations.games.delete_game(game_id)
    assert heard(listening) == [live.Change(game_id, deleted=True)]
