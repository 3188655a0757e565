"""The layout workers (scorekeeper.pdf.pool): kept only while there is printing, and stopped.

Real worker processes from the real fork server, found below this process in /proc.
"""

from __future__ import annotations

import os
from typing import Any

import processes
import pytest

from scorekeeper.pdf import pool

from .games import eventful_game, store


@pytest.fixture
def app_config(app_config: dict[str, Any], database_url: str) -> dict[str, Any]:
    """The kept worker waits half a second for the next sheet, not a minute (naming
    database_url keeps its parametrisation)."""
    return {**app_config, "PDF_WORKERS": 1, "PDF_WORKER_IDLE_SECONDS": 0.5}


@pytest.fixture
def game_id(app: Any) -> int:
    game, hands = eventful_game()
    return store(app, game, hands[:3])


def workers() -> list[int]:
    """The layout workers below this process: the fork server's children."""
    below = processes.tree(os.getpid())
    servers = {p.pid for p in below if "multiprocessing.forkserver" in p.command}
    return [p.pid for p in below if p.parent in servers]


def sheet(client: Any, game_id: int, paper: str) -> bytes:
    response = client.get(f"/games/{game_id}/sheet.pdf?paper={paper}")
    assert response.status_code == 200
    data: bytes = response.data
    assert data.startswith(b"%PDF")
    return data


def test_the_kept_worker_ends_once_idle_and_the_next_sheet_starts_one_again(
    client: Any, game_id: int
) -> None:
    pool.stop()  # none left by an earlier test
    sheet(client, game_id, "letter")
    (first,) = workers()
    assert processes.wait_until_gone([first], 30) == []
    assert workers() == []
    sheet(client, game_id, "a4")  # another paper: not the one kept
    (second,) = workers()
    assert second != first


def test_stop_ends_the_kept_worker_a_historys_workers_and_the_fork_server(
    app: Any, client: Any, game_id: int
) -> None:
    app.config["PDF_WORKER_IDLE_SECONDS"] = None  # kept, until stopped
    sheet(client, game_id, "letter")
    with pool.Layout(app.static_folder, 2) as layout:
        layout.add("one", "<p>one</p>")
        assert layout.next_done()[0] == "one"
        running = workers()
        assert len(running) == 3, running  # the kept one and the history's two
        below = [p.pid for p in processes.tree(os.getpid())]
        pool.stop()
        assert workers() == []
        assert not [p for p in processes.tree(os.getpid()) if "forkserver" in p.command]
        assert processes.alive(running) == []
        assert set(processes.alive(below)) <= set(below)
    # Printing after a stop starts anew.
    sheet(client, game_id, "a4")
    assert len(workers()) == 1
