"""The room's board hears its event on a stream: ``/events/<id>/events``, served for real by
waitress (as ``serve`` does) and read over a socket as the board's EventSource reads it.

A hand at one of the event's tables, the next round started (its new games heard from then
on) and a board reconnecting with an older stamp each send a ``change`` carrying the
event's new stamp, the one ``version.json`` answers (what the board polls where there is
no stream). Hands are recorded through ``operations.hands.record_hand``, every phone's
path. On SQLite the changes travel in memory; with TEST_DATABASE_URL, through PostgreSQL.
"""

from __future__ import annotations

import json
import re
from typing import Any

from builders import play_sweep, started_event, table_game
from event_stream import Stream

from scorekeeper import operations

from . import test_events as game_streams
from .test_events import Served, until

#: The game streams' fixtures: the app served by waitress with a cap of three streams.
app_config = game_streams.app_config
served = game_streams.served


def _event(app: Any) -> int:
    """A progressive event of eight players, two hands a game, its first round started."""
    return started_event(app, hands=2)


_game = table_game
_play = play_sweep


def _stamp(client: Any, event_id: int) -> str:
    response = client.get(f"/events/{event_id}/version.json")
    assert response.status_code == 200
    return str(json.loads(response.data)["version"])


def test_the_room_board_names_its_event_stream_and_the_director_s_screen_polls(
    client: Any, app: Any
) -> None:
    event_id = _event(app)
    board = client.get(f"/events/{event_id}/board").get_data(as_text=True)
    assert f'data-events-url="/events/{event_id}/events"' in board
    assert f'data-poll-url="/events/{event_id}/version.json"' in board  # the fallback
    assert '<noscript><meta http-equiv="refresh"' in board  # and without a script
    director = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'data-events-url=""' in director


def test_a_hand_at_a_table_is_sent_to_the_room_board_s_stream_as_the_new_stamp(
    client: Any, app: Any, served: Served
) -> None:
    event_id = _event(app)
    before = _stamp(client, event_id)
    stream = served.open_path(f"/events/{event_id}/events")
    assert stream.status == 200
    assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
    first = stream.next()
    assert (first.name, first.data) == ("alive", {"version": before})
    _play(app, _game(app, event_id, 2))
    change = stream.next_named("change")
    after = _stamp(client, event_id)
    assert after != before
    assert change.data == {"version": after} and change.id == after
    # The board the stream sent it to shows the hand at that table.
    board = client.get(f"/events/{event_id}/board").get_data(as_text=True)
    assert f'data-version="{after}"' in board
    table = re.search(r'id="table-2".*?</li>', board, re.S)
    assert table is not None and "1 hand played" in table.group(0)


def test_the_next_round_and_a_hand_at_its_new_games_are_each_sent(
    client: Any, app: Any, served: Served
) -> None:
    event_id = _event(app)
    for table in (1, 2):
        game_id = _game(app, event_id, table)
        _play(app, game_id)
        _play(app, game_id)
    stream = served.open_path(f"/events/{event_id}/events")
    stream.next()
    with app.app_context():
        operations.rounds.start_round(event_id, version=None)
    started = stream.next_named("change")
    assert started.data == {"version": _stamp(client, event_id)}
    new_game = _game(app, event_id, 1)
    _play(app, new_game)  # a game made after the stream opened
    change = stream.next_named("change")
    assert change.data == {"version": _stamp(client, event_id)} != started.data


def test_a_board_back_with_an_older_stamp_hears_the_change_at_once(
    client: Any, app: Any, served: Served
) -> None:
    event_id = _event(app)
    before = _stamp(client, event_id)
    _play(app, _game(app, event_id, 1))
    stream = served.open_path(f"/events/{event_id}/events", **{"Last-Event-ID": before})
    first = stream.next()
    assert (first.name, first.data) == ("change", {"version": _stamp(client, event_id)})
    same = served.open_path(f"/events/{event_id}/events?since={_stamp(client, event_id)}")
    assert same.next().name == "alive"


def test_a_stream_of_no_event_is_not_found_and_holds_nothing(served: Served) -> None:
    stream = served.open_path("/events/999/events")
    assert stream.status == 404
    stream.response.read()
    assert served.open_streams() == 0


def test_the_event_s_stream_counts_against_the_cap_and_is_let_go(
    client: Any, app: Any, served: Served
) -> None:
    event_id = _event(app)
    streams = [served.open_path(f"/events/{event_id}/events") for _ in range(3)]
    for stream in streams:
        assert stream.next().name == "alive"
    refused = Stream(served.port, f"/events/{event_id}/events")
    assert refused.status == 503  # the board polls version.json instead
    refused.close()
    streams[0].close()
    assert until(lambda: served.open_streams() == 2)
