"""A stopped server leaves nothing running: its PDF workers and their fork server end with it.

``scorekeeper serve`` (and gunicorn's workers) lay out PDFs in worker processes from a fork
server. Stopped by a service manager (SIGTERM), a terminal's Ctrl-C (SIGINT) or a closed
terminal (SIGHUP), the server ends them itself; killed outright (SIGKILL), each worker sees
its server gone and ends itself. Either way no process of the server's tree is left
within 5 s. Real servers, a real PDF, the processes read from /proc.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import processes
import pytest

BIN = Path(sys.executable).parent
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game-record-example.json"
#: The issue's bound: every process of the server's tree has ended this long after the signal.
ENDED_WITHIN = 5.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ask(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _environment(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
    env["SCOREKEEPER_INSTANCE"] = str(folder / "instance")
    return env


@contextmanager
def _running(command: list[str], env: dict[str, str], port: int, log: Path) -> Iterator[int]:
    """Start ``command``; once it answers /healthz on ``port``, yield its pid. Whatever the
    test did, nothing it started is left running afterwards."""
    with log.open("wb") as out:
        server = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    started = [server.pid]
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            try:
                if _ask(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not answer in 60 s"
            time.sleep(0.1)
        yield server.pid
    finally:
        started += [p.pid for p in processes.tree(server.pid)]
        if server.poll() is None:
            server.kill()
        server.wait(timeout=30)
        for pid in processes.alive(started):
            os.kill(pid, signal.SIGKILL)


def _print_a_sheet(port: int) -> None:
    status, body = _ask(port, "POST", "/games/import", EXAMPLE.read_bytes())
    assert status == 201, body
    game_id = json.loads(body)["id"]
    status, pdf = _ask(port, "GET", f"/games/{game_id}/sheet.pdf")
    assert status == 200 and pdf.startswith(b"%PDF"), pdf[:200]


def _stopped_leaves_nothing(pid: int, how: signal.Signals, log: Path) -> None:
    """Send ``how`` to ``pid`` once its tree holds a PDF worker; then nothing is left."""
    below = processes.tree(pid)
    # The fork server and the worker it forked carry the fork server's command line.
    workers = [p for p in below if "multiprocessing.forkserver" in p.command]
    assert len(workers) >= 2, below
    os.kill(pid, how)
    left = processes.wait_until_gone([pid, *(p.pid for p in below)], ENDED_WITHIN)
    named = [p.command[:120] for p in below if p.pid in left] + (["the server"] * (pid in left))
    assert named == [], log.read_text()


@pytest.mark.parametrize(
    "how", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name
)
def test_serve_stopped_after_printing_a_sheet_leaves_no_process_of_its_tree(
    how: signal.Signals, tmp_path: Path
) -> None:
    port = _free_port()
    serve = [str(BIN / "scorekeeper"), "serve", "--port", str(port), "--threads", "2"]
    # As a terminal starts it, Ctrl-C included: a shell's background job ignores SIGINT.
    command = [sys.executable, "-c", _WITH_CTRL_C, *serve]
    log = tmp_path / "serve.log"
    with _running(command, _environment(tmp_path), port, log) as pid:
        _print_a_sheet(port)
        _stopped_leaves_nothing(pid, how, log)
    if how is not signal.SIGKILL:
        assert "Traceback" not in log.read_text(), log.read_text()


#: Run a command with SIGINT at its default, as in a terminal (exec keeps the default).
_WITH_CTRL_C = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); " + (
    "os.execv(sys.argv[1], sys.argv[1:])"
)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_gunicorn_stopped_after_a_worker_printed_a_sheet_leaves_no_process_of_its_tree(
    how: signal.Signals, tmp_path: Path
) -> None:
    env = _environment(tmp_path)
    ready = subprocess.run(
        [str(BIN / "scorekeeper"), "init-db"], env=env, capture_output=True, timeout=120
    )
    assert ready.returncode == 0, ready.stderr
    port = _free_port()
    command = [
        str(BIN / "gunicorn"),
        *("-w", "1", "-k", "gthread", "--threads", "4", "-b", f"127.0.0.1:{port}"),
        *("--graceful-timeout", "3"),
        "scorekeeper:create_app()",
    ]
    log = tmp_path / "gunicorn.log"
    with _running(command, env, port, log) as pid:
        _print_a_sheet(port)
        _stopped_leaves_nothing(pid, how, log)


def test_a_port_taken_by_another_server_is_one_clear_line_and_status_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [str(BIN / "scorekeeper"), "serve", "--port", str(port)],
            env=_environment(tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"error: cannot listen on 127.0.0.1 port {port}: Address already in use. Is another "
        "server there? Choose another with --port."
    )
    assert "Traceback" not in done.stderr
