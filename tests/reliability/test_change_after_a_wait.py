"""A change that waited for its game's lock works from the game as the other change left it.

On PostgreSQL a change locks its game's row and reads the game's statistics rows (and a
hand form's key) in the same statement; when the lock has to wait for another change to
commit, PostgreSQL hands back the locked row as it now is but the joined rows as they were
when the statement began, and the change must read them again (``operations.loading``,
``_GAME_TO_CHANGE``). Here another writer holds the lock, having moved a player's
statistics (row and totals alike, as a change does), while a hand is recorded: the hand
waits, then must count from the moved rows. PostgreSQL only (SQLite writers queue before
they read anything).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from sqlalchemy import select

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db

from ..stats.support import cache_and_replay

pytestmark = pytest.mark.postgres

HAND = rules.Hand(
    pitcher="Bob", bid=3, points={"high": "Bob", "low": "Ann", "jack": None, "game": "Bob"}
)


def _waiting_for_a_lock(connection: psycopg.Connection[Any]) -> int:
    found = connection.execute(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
    ).fetchone()
    return int(found[0]) if found else 0


def test_a_hand_that_waited_for_the_lock_counts_from_the_rows_the_other_change_left(
    app: Any, database_url: str
) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite's writers queue before they read: no change waits on a row lock")
    with app.app_context():
        game_id = operations.games.create_game(
            rules.Game.create("auction-pitch", ["Ann", "Bob", "Cy"])
        )
        bob = db.session.execute(select(models.Player.id).where(models.Player.name == "Bob"))
        bob_id = bob.scalar_one()
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        db.session.remove()

    other = psycopg.connect(url)  # another writer, mid-change: the game is locked
    other.execute("UPDATE game SET version = version + 1 WHERE id = %s", (game_id,))
    other.execute(
        "UPDATE player_game SET bids = bids + 5 WHERE game_id = %s AND player_id = %s",
        (game_id, bob_id),
    )
    other.execute("UPDATE player_stats SET bids = bids + 5 WHERE player_id = %s", (bob_id,))

    failed: list[BaseException] = []

    def record() -> None:
        try:
            with app.app_context():
                operations.hands.record_hand(game_id, HAND, version=None)
                db.session.remove()
        except BaseException as error:  # reported by the test below
            failed.append(error)

    saving = threading.Thread(target=record)
    with psycopg.connect(url, autocommit=True) as watcher:
        saving.start()
        deadline = time.monotonic() + 10
        while not _waiting_for_a_lock(watcher) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _waiting_for_a_lock(watcher) == 1, "the hand never waited for the game's lock"
    other.commit()
    other.close()
    saving.join(timeout=10)
    assert not saving.is_alive() and not failed, failed

    cached, fresh = cache_and_replay(app)
    assert cached[(game_id, "Bob")]["bids"] == 1  # the row is the replay's again
    assert cached == fresh  # and Bob's totals moved from the 5 bids the other change left
