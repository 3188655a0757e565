"""A club's several server processes on one PostgreSQL: a hand saved through one reaches the
boards held open by another, through PostgreSQL's LISTEN/NOTIFY (scorekeeper/live/broker.py).

Two real ``scorekeeper serve`` processes on the same database (as ``gunicorn -w 2`` or two
machines would be); the board's stream is read over a socket from one, the hand is saved
through the other's hand form. Needs TEST_DATABASE_URL (skipped on SQLite, which is served
by one process).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from event_stream import Stream

from .test_hand_keys import HAND, Phone, _new_game, _server_processes

pytestmark = pytest.mark.postgres


def _stream_events(port: int, game_id: int, since: int | None = None) -> Stream:
    path = f"/games/{game_id}/events" + (f"?since={since}" if since is not None else "")
    return Stream(port, path)


@pytest.fixture
def postgres_url(database_url: str) -> str:
    if database_url.startswith("sqlite"):
        pytest.skip("needs TEST_DATABASE_URL: SQLite is served by one process")
    return database_url


def test_a_hand_saved_through_one_server_process_reaches_a_board_open_on_another(
    app: Any, postgres_url: str, tmp_path: Path
) -> None:
    game_id = _new_game(app)
    with _server_processes(postgres_url, tmp_path, 2) as (saving, showing):
        board = _stream_events(showing, game_id)
        try:
            first = board.next()
            assert first.name == "alive"
            phone = Phone(saving)
            status, said = phone.save(game_id, {**HAND, **phone.open(game_id)})
            assert (status, said) == (200, "Ana made 2.")
            change = board.next_named("change")
            assert change.data is not None and change.data["version"] > first.data["version"]
            # What the board fetches then, from its own server, shows the hand.
            status, _, page = Phone(showing).request("GET", f"/games/{game_id}/board")
            assert status == 200 and "Hand 1: <bdi>Ana</bdi> bid 2" in page
            # And the other way round: a board on the saving server hears a second hand saved
            # through the showing one.
            other_board = _stream_events(saving, game_id, since=change.data["version"])
            try:
                assert other_board.next().name == "alive"
                phone = Phone(showing)
                bogdan = {**HAND, "pitcher": "1", "point_high": "1", "point_game": "1"}
                status, said = phone.save(game_id, {**bogdan, **phone.open(game_id)})
                assert (status, said) == (200, "Bogdan made 2."), said
                assert other_board.next_named("change").data == board.next_named("change").data
            finally:
                other_board.close()
        finally:
            board.close()
