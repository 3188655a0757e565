"""A client that floods the printer, ignoring Retry-After, gets 429 and waits; another
client still gets its PDF, and the table still records.

A real ``scorekeeper serve``; the flood comes from one address (127.0.0.2), a dozen
connections asking for sheets again the moment each is answered; the person asking once
from another address (127.0.0.3) and the table (127.0.0.1) are the others.
"""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path
from typing import Any

from .test_hand_keys import HAND, Phone, _hands, _new_game, _server_processes

#: Connections of the flooding client.
FLOOD = 12
#: How long it floods, in seconds.
FLOOD_SECONDS = 12.0


def _ask(port: int, source: str, path: str) -> tuple[int, str, str]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        response = connection.getresponse()
        body = response.read().decode(errors="replace")
        return response.status, response.getheader("Retry-After") or "", body
    finally:
        connection.close()


def test_a_client_that_ignores_retry_after_gets_429_and_the_others_are_served(
    app: Any, database_url: str, tmp_path: Path
) -> None:
    games = [_new_game(app) for _ in range(FLOOD)]
    answers: list[tuple[int, str, str]] = []
    lock = threading.Lock()
    stop = time.monotonic() + FLOOD_SECONDS

    def flood(n: int, port: int) -> None:
        while time.monotonic() < stop:  # each connection asks for its own game's sheet
            found = _ask(port, "127.0.0.2", f"/games/{games[n]}/sheet.pdf")
            with lock:
                answers.append(found)

    with _server_processes(database_url, tmp_path, 1) as (port,):
        flooders = [threading.Thread(target=flood, args=(n, port)) for n in range(FLOOD)]
        for thread in flooders:
            thread.start()
        try:
            time.sleep(2)  # the flood is on
            # The table records meanwhile.
            game_id = _new_game(app)
            phone = Phone(port)
            status, said = phone.save(game_id, {**HAND, **phone.open(game_id)})
            assert (status, said) == (200, "Ana made 2.")
            # Someone else asking once gets a PDF, or a busy page: never the flood's 429.
            other = _ask(port, "127.0.0.3", f"/games/{game_id}/sheet.pdf")
            assert other[0] in (200, 503), other
        finally:
            for thread in flooders:
                thread.join(timeout=120)
    assert len(_hands(app, game_id)) == 1
    statuses = {status for status, _, _ in answers}
    assert 429 in statuses, statuses
    assert statuses <= {200, 429, 503}, statuses
    too_many = [a for a in answers if a[0] == 429]
    assert all(retry.isdigit() and int(retry) >= 1 for _, retry, _ in too_many)
    assert all("faster than they can be printed" in body for _, _, body in too_many)
    # Held back until its wait is over, the flood asked far less than it would have: each
    # connection waited out most of its 429s (a few seconds each).
    assert len(too_many) < FLOOD * FLOOD_SECONDS, len(too_many)
