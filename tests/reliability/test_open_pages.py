"""Five hundred open pages cost the table nothing it notices: a real ``scorekeeper serve``
holds 500 live streams (boards and game pages of a hall's games, from several addresses),
records hands meanwhile, and every stream of the game hears each hand; none is sent away
to poll. On PostgreSQL the same under the club server, gunicorn's gevent workers.

How long a hand takes with them open is the benchmark's to say (``make bench``); here the
bounds are functional: each answer within the client's patience, each event heard.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from processes import wait_for_healthz

from .crowd import Crowd
from .test_hand_keys import (
    HAND,
    Phone,
    _free_port,
    _hands,
    _new_game,
    _server_env,
    _server_processes,
)

#: Open pages, as the issue counts them.
PAGES = 500
#: Games they are open on (a hall: a few pages a table).
GAMES = 25
#: Hands recorded with them open.
HANDS = 3


def _hand_is_heard_by_every_stream_of_its_game(app: Any, port: int) -> None:
    games = [_new_game(app) for _ in range(GAMES)]
    crowd = Crowd(port)
    try:
        streams = crowd.open_streams(games, PAGES)
        assert crowd.until(lambda: all(c.events("alive") for c in streams), 60), [
            bytes(c.received[:200]) for c in streams if not c.events("alive")
        ][:3]
        assert all(c.received.startswith(b"HTTP/1.1 200 OK") for c in streams)
        watching = [c for n, c in enumerate(streams) if games[n % GAMES] == games[0]]
        phone = Phone(port)
        for number in range(1, HANDS + 1):
            seat = str((number - 1) % 2)  # each hand unlike the last (else the form asks)
            taps = {**HAND, **{k: seat for k in HAND if k.startswith("p")}}
            status, said = phone.save(games[0], {**taps, **phone.open(games[0])})
            who = ("Ana", "Bogdan")[int(seat)]
            assert status == 200 and said.startswith(f"{who} made 2."), said
            assert crowd.until(lambda n=number: all(c.events("change") >= n for c in watching), 30)
        assert len(_hands(app, games[0])) == HANDS
        # The other games' streams heard no change, and every stream is still open.
        others = [c for c in streams if c not in watching]
        assert not any(c.events("change") for c in others)
        crowd.pump(0.5)
        assert len(crowd.open()) == PAGES
    finally:
        crowd.close()


def test_500_open_pages_on_serve_hear_every_hand_and_the_table_records(
    app: Any, database_url: str, tmp_path: Path
) -> None:
    with _server_processes(database_url, tmp_path, 1) as (port,):
        _hand_is_heard_by_every_stream_of_its_game(app, port)


@contextmanager
def _club_server(database_url: str, folder: Path, workers: int) -> Iterator[int]:
    """The README's club server: gunicorn with gevent workers, on ``database_url``."""
    port = _free_port()
    env = _server_env(database_url, folder)
    log = folder / "gunicorn.log"
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        *("-w", str(workers), "-k", "gevent", "--worker-connections", "2000"),
        *("-b", f"127.0.0.1:{port}", "scorekeeper:create_app()"),
    ]
    with log.open("wb") as out:
        server = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        wait_for_healthz(port, server, log, deadline, "gunicorn did not answer in 60 s", pause=0.2)
        yield port
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


@pytest.mark.postgres
def test_500_open_pages_on_the_club_server_hear_every_hand_and_the_table_records(
    app: Any, database_url: str, tmp_path: Path
) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("the club server runs on PostgreSQL (needs TEST_DATABASE_URL)")
    pytest.importorskip("gevent")
    with _club_server(database_url, tmp_path, 2) as port:
        _hand_is_heard_by_every_stream_of_its_game(app, port)
