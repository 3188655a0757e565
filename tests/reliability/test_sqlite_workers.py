"""Several gunicorn workers on one SQLite database refuse to start, saying why; one worker
starts, and so do several on PostgreSQL (whose LISTEN/NOTIFY carries a hand to every
worker's boards). Real gunicorn processes on loopback."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_hand_keys import _free_port

REASON = "gunicorn workers cannot serve one SQLite database"


def _gunicorn(folder: Path, database_url: str | None, *options: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(folder / "instance"), "SECRET_KEY": "k"}
    for name in ("DATABASE_URL", "SCOREKEEPER_PASSWORD", "TEST_DATABASE_URL"):
        env.pop(name, None)
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        *options,
        "scorekeeper:create_app()",
    ]
    with (folder / "gunicorn.log").open("wb") as log:
        return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)


def _answers(port: int, server: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return True
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.2)
    return False


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


@pytest.mark.parametrize("preload", [False, True], ids=["workers-load", "preload"])
def test_two_gunicorn_workers_on_sqlite_refuse_to_start_and_say_why(
    tmp_path: Path, preload: bool
) -> None:
    port = _free_port()
    options = ["-w", "2", "-b", f"127.0.0.1:{port}", *(["--preload"] if preload else [])]
    server = _gunicorn(tmp_path, None, *options)
    try:
        status = server.wait(timeout=90)
    finally:
        _stop(server)
    log = (tmp_path / "gunicorn.log").read_text(errors="replace")
    assert status != 0
    assert f"2 {REASON}" in log and "Run one worker (-w 1), or use PostgreSQL" in log


def test_one_gunicorn_worker_on_sqlite_serves(tmp_path: Path) -> None:
    port = _free_port()
    server = _gunicorn(tmp_path, None, "-w", "1", "-b", f"127.0.0.1:{port}")
    try:
        assert _answers(port, server), (tmp_path / "gunicorn.log").read_text(errors="replace")
    finally:
        _stop(server)
    assert REASON not in (tmp_path / "gunicorn.log").read_text(errors="replace")


@pytest.mark.postgres
def test_two_gunicorn_workers_on_postgresql_serve(tmp_path: Path, database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("needs TEST_DATABASE_URL")
    port = _free_port()
    server = _gunicorn(tmp_path, database_url, "-w", "2", "-b", f"127.0.0.1:{port}")
    try:
        assert _answers(port, server), (tmp_path / "gunicorn.log").read_text(errors="replace")
    finally:
        _stop(server)
