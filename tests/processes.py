"""The processes a test run starts, found in /proc: a process's tree, and the whole session's.

Every process the suite starts carries the session's mark in its environment (set in
``pytest_configure``, so every child inherits it: a served app, its PDF workers and fork
server, Chromium, a pytest run inside a test). A process whose parent died is handed to
init and leaves the tree, but keeps its environment: so the mark finds it still.
"""

from __future__ import annotations

import http.client
import os
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The environment variable every process of a test session carries.
MARK = "SCOREKEEPER_TEST_SESSION"


@dataclass(frozen=True)
class Process:
    pid: int
    parent: int
    command: str


def mark_this_session() -> str:
    """Give this process (and so every process it starts) the session's mark. A session
    run inside another's test gets a mark that starts with the outer one."""
    outer = os.environ.get(MARK)
    mark = f"{outer}/{secrets.token_hex(4)}" if outer else secrets.token_hex(8)
    os.environ[MARK] = mark
    return mark


def _read(pid: int) -> tuple[int, str, str, bytes] | None:
    """A running process's parent, state, command line and environment (None if gone)."""
    folder = Path(f"/proc/{pid}")
    try:
        stat = (folder / "stat").read_text()
        command = (folder / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        environment = (folder / "environ").read_bytes()
    except OSError:  # gone, or not ours to read
        return None
    # The command's name is in parentheses and may hold spaces: the fields follow the last ")".
    state, parent = stat.rsplit(")", 1)[1].split()[:2]
    return int(parent), state, command.strip(), environment


def running() -> list[Process]:
    """Every process there is now, but zombies (ended, waiting for their parent to look)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and (read := _read(int(name))) is not None and read[1] != "Z":
            found.append(Process(int(name), read[0], read[2]))
    return found


def tree(pid: int) -> list[Process]:
    """The processes below ``pid`` now: its children, theirs, and so on."""
    every = running()
    below: list[Process] = []
    parents = {pid}
    while True:
        more = [p for p in every if p.parent in parents and p not in below]
        if not more:
            return below
        below += more
        parents = {p.pid for p in more}


def of_session(mark: str, leave_out: Iterable[int] = ()) -> list[Process]:
    """The running processes whose environment carries ``mark`` (or a mark inside it)."""
    wanted = f"{MARK}={mark}".encode()
    left_out = {os.getpid(), *leave_out}
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in left_out:
            continue
        read = _read(int(name))
        if read is None or read[1] == "Z":
            continue
        if any(v == wanted or v.startswith(wanted + b"/") for v in read[3].split(b"\0")):
            found.append(Process(int(name), read[0], read[2]))
    return found


def alive(pids: Iterable[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie has ended)."""
    return [pid for pid in pids if (read := _read(pid)) is not None and read[1] != "Z"]


def wait_until_gone(pids: Iterable[int], seconds: float) -> list[int]:
    """Wait up to ``seconds`` for the processes ``pids`` to end; return those still running."""
    pids = list(pids)
    deadline = time.monotonic() + seconds
    while (left := alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def wait_for_healthz(
    port: int, server: Any, log: Path, deadline: float, what: str, pause: float
) -> None:
    """Wait until the server process ``server`` answers /healthz on ``port``: fail with its
    ``log`` should it end first, or with ``what`` once ``deadline`` (a ``time.monotonic()``)
    has passed; ask again every ``pause`` seconds."""
    while True:
        assert server.poll() is None, log.read_text()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        assert time.monotonic() < deadline, what
        time.sleep(pause)
