"""A game's changes pushed to its open boards: the event stream, served for real by waitress.

Each test serves the app with waitress (scorekeeper/serving/server.py, the threads ``serve`` uses)
on a free port and reads ``/games/<id>/events`` over a socket, as a browser's EventSource
would; hands are recorded through the real views. On SQLite the changes travel in memory;
with TEST_DATABASE_URL the same tests run on PostgreSQL, through LISTEN/NOTIFY.
"""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from event_stream import PATIENCE, Stream

from .tables import create_game, hand_count, page, post_ap_hand, post_hand, taken, version_of

PLAYERS = ["Ana", "Bob", "Cy"]
#: The most streams the served app may hold in these tests.
CAP = 3


@pytest.fixture
def app_config(app_config: dict[str, Any], database_url: str) -> dict[str, Any]:
    """A small cap and a quick heartbeat (naming database_url keeps its parametrisation)."""
    return {**app_config, "LIVE_STREAMS": CAP, "LIVE_HEARTBEAT_SECONDS": 0.5}


@dataclass
class Served:
    app: Any
    port: int

    def open(self, game_id: int, **headers: str) -> Stream:
        return self.open_path(f"/games/{game_id}/events", **headers)

    def open_path(self, path: str, **headers: str) -> Stream:
        stream = Stream(self.port, path, headers)
        self.streams.append(stream)
        return stream

    def __post_init__(self) -> None:
        self.streams: list[Stream] = []

    def open_streams(self) -> int:
        from scorekeeper.live import broker as live

        with self.app.app_context():
            return live.broker().open_streams


@pytest.fixture
def served(app: Any) -> Iterator[Served]:
    """The app under waitress with the threads ``scorekeeper serve`` gives it."""
    from scorekeeper.live import broker as live
    from scorekeeper.serving import server as serving

    server = serving.create_server(app, host="127.0.0.1", port=0, threads=serving.thread_count(app))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    found = Served(app, int(server.effective_port))
    try:
        yield found
    finally:
        for stream in found.streams:
            stream.close()
        serving.stop(server)
        thread.join(timeout=5)
        with app.app_context():
            live.broker().close()  # its PostgreSQL listener, if it has one


def sent(response: Any) -> Any:
    """The answer, closed as a server closes it once sent (changes are told then)."""
    response.close()
    return response


def play_a_hand(client: Any, game_id: int) -> Any:
    return sent(post_ap_hand(client, game_id, PLAYERS, "Ana", 2, "Ana", "Bob", None, "Ana"))


def until(condition: Any) -> bool:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def test_a_hand_recorded_is_sent_to_an_open_stream_with_the_game_s_new_version(
    client: Any, served: Served
) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    version = version_of(client, game_id)
    stream = served.open(game_id)
    assert stream.status == 200
    assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
    first = stream.next()
    assert (first.name, first.data) == ("alive", {"version": version})
    assert play_a_hand(client, game_id).status_code == 302
    change = stream.next_named("change")
    assert change.data == {"version": version_of(client, game_id)}
    assert change.id == str(change.data["version"]) and change.data["version"] > version


def test_a_correction_and_an_undo_are_each_sent_too(client: Any, served: Served) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    play_a_hand(client, game_id)
    stream = served.open(game_id, **{"Last-Event-ID": str(version_of(client, game_id))})
    assert stream.next().name == "alive"
    asked = page(client.get(f"/games/{game_id}/undo")).submitted()
    response = sent(client.post(f"/games/{game_id}/undo", data=asked))
    assert response.status_code == 302, response.get_data(as_text=True)
    assert stream.next_named("change").data == {"version": version_of(client, game_id)}
    assert hand_count(client.application, game_id) == 0


def test_a_write_that_is_rolled_back_sends_nothing(client: Any, served: Served) -> None:
    from scorekeeper.data.database import write_transaction
    from scorekeeper.live import broker as live

    game_id = create_game(client, "auction-pitch", PLAYERS)
    stream = served.open(game_id)
    assert stream.next().name == "alive"
    with served.app.app_context(), pytest.raises(RuntimeError), write_transaction():
        live.changed(game_id, 999)
        raise RuntimeError("the write fails after saying the game changed")
    # A stale hand form is refused (its transaction rolled back): nothing is sent for it either.
    stale = post_hand(
        client,
        game_id,
        PLAYERS,
        version=version_of(client, game_id) - 1,
        pitcher="Ana",
        bid=2,
        **taken("high low jack game", "Ana Bob - Ana"),
    )
    assert stale.status_code != 302
    assert hand_count(client.application, game_id) == 0
    assert play_a_hand(client, game_id).status_code == 302
    # The first change heard is the hand that was saved, not the write rolled back.
    assert stream.next_named("change").data == {"version": version_of(client, game_id)}


def test_deleting_the_game_ends_its_stream_with_deleted(client: Any, served: Served) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    stream = served.open(game_id)
    assert stream.next().name == "alive"
    response = sent(
        client.post(f"/games/{game_id}/delete", data={"version": version_of(client, game_id)})
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert stream.next_named("deleted").data == {"version": None}
    assert stream.ended()
    assert until(lambda: served.open_streams() == 0)


def test_a_stream_asked_for_since_an_older_version_hears_the_change_at_once(
    client: Any, served: Served
) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    before = version_of(client, game_id)
    play_a_hand(client, game_id)
    by_header = served.open(game_id, **{"Last-Event-ID": str(before)})
    first = by_header.next()
    assert (first.name, first.data) == ("change", {"version": version_of(client, game_id)})
    by_query = served.open_path(f"/games/{game_id}/events?since={before}")
    assert by_query.next().name == "change"


def test_the_stream_says_it_is_alive_between_changes(client: Any, served: Served) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    stream = served.open(game_id)
    names = [stream.next().name for _ in range(3)]
    assert names == ["alive", "alive", "alive"]


def test_a_stream_past_the_cap_is_answered_503_and_a_closed_one_makes_room(
    client: Any, served: Served
) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    streams = [served.open(game_id) for _ in range(CAP)]
    assert [s.next().name for s in streams] == ["alive"] * CAP
    refused = served.open(game_id)
    assert refused.status == 503
    assert refused.response.getheader("Retry-After") == "30"
    assert "Too many live boards are open" in refused.response.read().decode()
    streams[0].close()
    # The server finds the client gone at its next write (a heartbeat) and lets it go.
    assert until(lambda: served.open_streams() == CAP - 1)
    assert served.open(game_id).status == 200


def test_a_hand_is_recorded_while_every_stream_the_server_allows_is_open(
    app: Any, client: Any, served: Served
) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    streams = [served.open(game_id) for _ in range(CAP)]
    assert [s.next().name for s in streams] == ["alive"] * CAP
    # Through the served app (its threads), not the test client: several pages and a hand at
    # once, each answered while the streams hold their threads.
    for _ in range(serving_request_threads()):
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=PATIENCE)
        connection.request("GET", f"/games/{game_id}")
        assert connection.getresponse().status == 200
        connection.close()
    version = version_of(client, game_id)
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=PATIENCE)
    connection.request(
        "POST",
        f"/games/{game_id}",
        body=(
            f"version={version}&pitcher=0&bid=2&point_high=0&point_low=1&point_jack=nobody"
            "&point_game=0"
        ),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert connection.getresponse().status == 302
    connection.close()
    assert hand_count(app, game_id) == 1
    assert [s.next_named("change").data for s in streams] == [
        {"version": version_of(client, game_id)}
    ] * CAP


def serving_request_threads() -> int:
    from scorekeeper.serving import server as serving

    return serving.REQUEST_THREADS


def test_a_closed_stream_is_let_go(client: Any, served: Served) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    stream = served.open(game_id)
    assert stream.next().name == "alive"
    assert served.open_streams() == 1
    stream.close()
    assert until(lambda: served.open_streams() == 0)


def test_a_stream_of_no_game_is_not_found(served: Served) -> None:
    stream = served.open(9999)
    assert stream.status == 404
    assert served.open_streams() == 0


def test_a_server_with_one_thread_is_told_to_poll_instead(client: Any) -> None:
    # Flask's test client, like gunicorn's sync workers, says it is not multithreaded.
    game_id = create_game(client, "auction-pitch", PLAYERS)
    response = client.get(f"/games/{game_id}/events")
    assert response.status_code == 503
    assert "cannot keep live boards open" in response.get_data(as_text=True)


def test_the_board_and_game_page_name_their_stream_and_their_live_regions(client: Any) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    for path in (f"/games/{game_id}/board", f"/games/{game_id}"):
        html = client.get(path).get_data(as_text=True)
        assert f'data-events-url="/games/{game_id}/events"' in html
        assert 'data-live="standings"' in html
    assert 'data-live="sheet"' in client.get(f"/games/{game_id}").get_data(as_text=True)
    board = client.get(f"/games/{game_id}/board").get_data(as_text=True)
    assert 'data-live="last-hand"' in board and 'data-live="settlement"' in board
    assert '<noscript><meta http-equiv="refresh"' in board


def test_a_board_fetched_again_by_its_script_shows_each_new_hand(client: Any) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    refetch = {"X-Scorekeeper-Live": "1"}
    assert "Hand 1:" not in client.get(f"/games/{game_id}/board", headers=refetch).text
    play_a_hand(client, game_id)
    assert (
        "Hand 1: <bdi>Ana</bdi> bid 2"
        in client.get(f"/games/{game_id}/board", headers=refetch).text
    )
    undo = page(client.get(f"/games/{game_id}/undo")).submitted()
    sent(client.post(f"/games/{game_id}/undo", data=undo))
    assert "Hand 1:" not in client.get(f"/games/{game_id}/board", headers=refetch).text


def test_a_page_fetched_again_by_its_script_leaves_the_messages_for_the_next_page(
    client: Any,
) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    client.get(f"/games/{game_id}")  # the game's first page takes its "started" message
    assert play_a_hand(client, game_id).status_code == 302
    refetched = client.get(f"/games/{game_id}", headers={"X-Scorekeeper-Live": "1"}).text
    assert "Ana made 2." not in refetched
    assert "Ana made 2." in client.get(f"/games/{game_id}").text


def test_a_head_request_for_a_stream_gets_its_headers_and_holds_nothing(
    client: Any, served: Served
) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS)
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    try:
        connection.request("HEAD", f"/games/{game_id}/events")
        response = connection.getresponse()
        response.read()
        assert response.status == 200
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
    finally:
        connection.close()
    assert served.open_streams() == 0
