"""A hall's several server processes on one PostgreSQL: a hand recorded on a table's phone
through one process updates the room's board held open on another.

Two real ``scorekeeper serve`` processes on the same database (as ``gunicorn -w 2`` would
be). The room's board, served by one, hears the event on its stream (``/events/<id>/
events``, as its script does), or follows its stamp (``/events/<id>/version.json``, what
the script polls where there is no stream), and fetches itself again; the hand is saved
through the other's hand form, as the table's phone does, and the next round is started
by a third (the test's own). Needs TEST_DATABASE_URL.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from builders import started_event, table_game
from event_stream import Stream

from scorekeeper import operations

from .test_hand_keys import Phone, _server_processes

pytestmark = pytest.mark.postgres


@pytest.fixture
def postgres_url(database_url: str) -> str:
    if database_url.startswith("sqlite"):
        pytest.skip("needs TEST_DATABASE_URL: SQLite is served by one process")
    return database_url


def _event(app: Any) -> tuple[int, int]:
    """A progressive event of four players, its first round started: (event, table 1's game)."""
    event_id = started_event(app, ["Ana", "Bogdan", "Cleo", "Dan"])
    return event_id, table_game(app, event_id, 1)


def _stamp(phone: Phone, event_id: int) -> str:
    status, _, body = phone.request("GET", f"/events/{event_id}/version.json")
    assert status == 200
    return str(json.loads(body)["version"])


#: Seat 0 pitches 2 and its side (seats 0 and 2) takes every point.
HAND = {
    "pitcher": "0",
    "bid": "2",
    **{f"point_{key}": "team-0" for key in ("high", "low", "jack", "game")},
    "save": "Save hand",
}


def test_the_room_board_s_stream_on_one_process_hears_hands_and_rounds_saved_on_another(
    app: Any, postgres_url: str, tmp_path: Path
) -> None:
    event_id, game_id = _event(app)
    with _server_processes(postgres_url, tmp_path, 2) as (saving, showing):
        board = Phone(showing)
        before = _stamp(board, event_id)
        stream = Stream(showing, f"/events/{event_id}/events?since={before}")
        assert stream.status == 200
        assert stream.next().name == "alive"
        phone = Phone(saving)
        hidden = phone.open(game_id)
        status, said = phone.save(game_id, {**HAND, **hidden})
        assert status == 200, said
        change = stream.next_named("change")
        assert change.data == {"version": _stamp(board, event_id)}
        assert change.data["version"] != before
        status, _, page = board.request("GET", f"/events/{event_id}/board")
        table = re.search(r'id="table-1".*?</li>', page, re.S)
        assert table is not None and "1 hand played" in table.group(0)
        # Time is called and the next round started by a third process (this one's): the
        # board hears the event change, then a hand at the new round's game.
        with app.app_context():
            operations.rounds.call_time(event_id)
        # The hand in play ends the game: seat 0's side takes high, low and jack this time.
        ending = {**HAND, "point_game": "team-1"}
        status, said = phone.save(game_id, {**ending, **phone.open(game_id)})
        assert status == 200, said
        assert 'id="hand-form"' not in phone.request("GET", f"/games/{game_id}")[2]
        stream.next_named("change")
        with app.app_context():
            operations.rounds.start_round(event_id, version=None)
            new_game = operations.events.table_game(event_id, 1)
        assert new_game is not None and new_game != game_id
        deadline = time.monotonic() + 10
        while stream.next_named("change").data != {"version": _stamp(board, event_id)}:
            assert time.monotonic() < deadline, "the board never caught up with the new round"
        hidden = phone.open(new_game)
        status, said = phone.save(new_game, {**HAND, **hidden})
        assert status == 200, said
        change = stream.next_named("change")
        assert change.data == {"version": _stamp(board, event_id)}
        stream.close()


def test_a_hand_saved_through_one_process_updates_the_room_board_on_another(
    app: Any, postgres_url: str, tmp_path: Path
) -> None:
    event_id, game_id = _event(app)
    with _server_processes(postgres_url, tmp_path, 2) as (saving, showing):
        board = Phone(showing)
        status, _, page = board.request("GET", f"/events/{event_id}/board")
        assert status == 200 and "0 hands played" in page
        before = _stamp(board, event_id)
        phone = Phone(saving)
        hidden = phone.open(game_id)
        # Seat 0 pitches 2 and its side (seats 0 and 2) takes every point.
        hand = {
            "pitcher": "0",
            "bid": "2",
            **{f"point_{key}": "team-0" for key in ("high", "low", "jack", "game")},
            "save": "Save hand",
        }
        status, said = phone.save(game_id, {**hand, **hidden})
        assert status == 200, said
        deadline = time.monotonic() + 5
        while _stamp(board, event_id) == before:
            assert time.monotonic() < deadline, "the room's board never heard of the hand"
            time.sleep(0.1)
        status, _, page = board.request("GET", f"/events/{event_id}/board")
        table = re.search(r'id="table-1".*?</ol>', page, re.S)
        assert table is not None
        assert "1 hand played" in table.group(0)
        assert re.search(r"<strong class=\"num\">4</strong>", table.group(0))
