"""A night on a small box: ``scorekeeper serve`` on one core, four tables, twenty boards.

Not a test: it prints numbers (``make bench`` puts them in its table, bench/run.py).

The server runs pinned to one core (``taskset -c 0``), as on the smallest machine a club
would use, on a SQLite file of its own; everything else (the phones, the boards) runs on
the other cores, in processes of its own. The night:

- four tables (four processes, a game each) record a hand at the same moment, every
  ROUND_SECONDS, as the phones of four tables saving at once; each hand is timed from its
  POST to the game page after the redirect, as bench/fullstack_bench.py times one;
- twenty boards (BOARDS_PER_TABLE on each table's game) hold the game's event stream open
  and fetch the board on each change, as static/js/board.js does (bench/live.py's boards);
- the server's memory is read from /proc every SAMPLE_SECONDS: the resident memory (RSS)
  of the server and every process below it (the PDF fork server and its worker, the
  resource tracker), added up, and their proportional share (PSS, which counts a page
  shared by two processes half in each, so it is what they cost the machine together);
- then, with the boards still open, one table prints its game's sheet, and the memory is
  read while it is laid out;
- start-up: from starting ``serve`` to the first page (``GET /``) answering, on a new
  data folder (the database made by the migrations) and on one that has it.

    .venv/bin/python bench/small_box.py        # prints the numbers as JSON
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import fullstack_bench as stack  # noqa: E402  (a sibling script)
import live  # noqa: E402

TABLES = 4
BOARDS_PER_TABLE = 5
#: Seconds between two rounds of four hands saved at once.
ROUND_SECONDS = 0.5
ROUNDS = 60
SAMPLE_SECONDS = 0.05
#: Games long enough that none ends while its boards watch it.
HOUSE_RULES = {"target": 500}
#: The core the server runs on; the clients keep off it.
SERVER_CORE = 0


def pinned(command: list[str]) -> list[str]:
    """``command`` run on SERVER_CORE alone (as it is, where taskset is missing)."""
    taskset = shutil.which("taskset")
    return [taskset, "-c", str(SERVER_CORE), *command] if taskset else command


@contextlib.contextmanager
def off_the_servers_core() -> Iterator[None]:
    """Run this process (and what it starts meanwhile) on the other cores, where there are
    any; then on those it had."""
    had = os.sched_getaffinity(0)
    if had - {SERVER_CORE}:
        os.sched_setaffinity(0, had - {SERVER_CORE})
    try:
        yield
    finally:
        os.sched_setaffinity(0, had)


@contextlib.contextmanager
def served_on_one_core(instance: Path) -> Iterator[tuple[int, int]]:
    """``scorekeeper serve`` on one core and ``instance``; yield (port, pid)."""
    instance.mkdir(parents=True, exist_ok=True)
    port = stack.free_port()
    command = pinned([*stack.scorekeeper_command(), "serve", "--port", str(port), "--threads", "8"])
    env = stack.server_env(instance)
    with stack.running("serve", command, port, env, instance / "serve.log") as pid:
        yield port, pid  # taskset runs serve in its own process: the same pid


# --- Memory ----------------------------------------------------------------------------------


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found, parents = [pid], [pid]
    while parents:
        below = []
        for parent in parents:
            with contextlib.suppress(OSError):
                below += live.children(parent)
        found += below
        parents = below
    return found


def memory(pid: int) -> tuple[float, float, int]:
    """RSS and PSS (MiB) of ``pid`` and every process below it, added up, and how many."""
    rss = pss = 0
    pids = tree(pid)
    for each in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{each}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
    return rss / 1024, pss / 1024, len(pids)


class Peak(threading.Thread):
    """The highest memory of a process tree while it runs (``with Peak(pid) as peak``)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.rss = self.pss = 0.0
        self.processes = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            rss, pss, count = memory(self.pid)
            if rss > self.rss:
                self.rss, self.processes = rss, count
            self.pss = max(self.pss, pss)
            self.stopped.wait(SAMPLE_SECONDS)

    def __enter__(self) -> Peak:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.join()


def fork_server_ready(pid: int, timeout: float = 60) -> None:
    """Wait until the server's warm-up has started its PDF fork server and the fork server
    has loaded WeasyPrint (it has Pango's library mapped), as after any start."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for each in tree(pid)[1:]:
            with contextlib.suppress(OSError):
                command = Path(f"/proc/{each}/cmdline").read_bytes()
                maps = Path(f"/proc/{each}/maps").read_text()
                if b"multiprocessing.forkserver" in command and "libpango" in maps:
                    return
        time.sleep(0.1)
    raise RuntimeError("the PDF fork server did not load WeasyPrint")


# --- The tables ------------------------------------------------------------------------------


def _table_process(connection: Any, port: int, seed: int, barrier: Any, rounds: int) -> None:
    """One table: start a game, say its id, then record a hand each time the barrier opens;
    send back the times (ms) and the errors."""
    stack.HOUSE_RULES = HOUSE_RULES
    table = stack.Table(stack.Client(port), seed)
    table.new_game()
    connection.send(int(table.game_id))
    times: list[float] = []
    errors: list[str] = []
    for _ in range(rounds):
        barrier.wait()
        took, error = table.record_one()
        if error is None:
            times.append(took * 1000)
        else:
            errors.append(error)
    connection.send((times, errors))


def _boards_process(connection: Any, port: int, game_ids: list[int]) -> None:
    """Every board, in a process of its own: BOARDS_PER_TABLE on each game, until told."""
    shown = live.Shown()
    boards = [live.Board(port, g, shown, True) for g in game_ids for _ in range(BOARDS_PER_TABLE)]
    for board in boards:
        board.start()
    for board in boards:
        board.ready.wait(10)
    connection.send("ready")
    connection.recv()
    for board in boards:
        board.stop()
    for board in boards:
        board.join(5)
    connection.send(list(shown.errors))


def night(port: int, pid: int, rounds: int) -> dict[str, Any]:
    """Four tables saving at once with twenty boards open; then one table prints its sheet."""
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(TABLES + 1)
    tables = []
    for number in range(TABLES):
        mine, theirs = context.Pipe()
        process = context.Process(
            target=_table_process, args=(theirs, port, 300 + number, barrier, rounds), daemon=True
        )
        process.start()
        tables.append((process, mine))
    game_ids = [mine.recv() for _, mine in tables]
    mine, theirs = context.Pipe()
    boards = context.Process(target=_boards_process, args=(theirs, port, game_ids), daemon=True)
    boards.start()
    if not mine.poll(60) or mine.recv() != "ready":
        raise RuntimeError("the boards did not open")
    time.sleep(1.0)
    found: dict[str, Any] = {
        "tables": TABLES,
        "boards": TABLES * BOARDS_PER_TABLE,
        "rounds": rounds,
    }
    found["idle_rss"], found["idle_pss"], _ = memory(pid)
    started = time.perf_counter()
    with Peak(pid) as peak:
        for _ in range(rounds):
            barrier.wait()
            time.sleep(ROUND_SECONDS)
    found["seconds"] = time.perf_counter() - started
    found["night_rss"], found["night_pss"], found["processes"] = peak.rss, peak.pss, peak.processes
    times: list[float] = []
    errors: list[str] = []
    for process, connection in tables:
        got, wrong = connection.recv()
        times += got
        errors += wrong
        process.join(10)
    found["hands"], found["errors"] = times, errors
    # A table prints its game's sheet, the boards still open.
    client = stack.Client(port)
    with Peak(pid) as printing:
        took = time.perf_counter()
        status, _, pdf = client.request("GET", f"/games/{game_ids[0]}/sheet.pdf")
        found["sheet_seconds"] = time.perf_counter() - took
        time.sleep(0.5)
    if status != 200 or not pdf.startswith(b"%PDF"):
        errors.append(f"the sheet answered {status}")
    found["sheet_rss"], found["sheet_pss"] = printing.rss, printing.pss
    found["after_rss"], found["after_pss"], _ = memory(pid)
    mine.send("stop")
    if mine.poll(30):
        errors += mine.recv()
    boards.join(10)
    return found


# --- Start-up --------------------------------------------------------------------------------


def start_up(instance: Path) -> float:
    """Seconds from starting ``serve`` on ``instance`` to ``GET /`` answering 200."""
    instance.mkdir(parents=True, exist_ok=True)
    port = stack.free_port()
    command = pinned([*stack.scorekeeper_command(), "serve", "--port", str(port)])
    log = (instance / "start.log").open("wb")
    started = time.perf_counter()
    process = subprocess.Popen(
        command, env=stack.server_env(instance), stdout=log, stderr=subprocess.STDOUT
    )
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"serve exited with {process.returncode}")
            with contextlib.suppress(OSError):
                client = stack.Client(port)
                client.connection.timeout = 5
                if client.request("GET", "/")[0] == 200:
                    return time.perf_counter() - started
            if time.perf_counter() - started > 60:
                raise RuntimeError("serve did not answer in 60 s")
            time.sleep(0.01)
    finally:
        process.terminate()
        process.wait(30)
        log.close()


def measure(rounds: int = ROUNDS, starts: int = 3) -> dict[str, Any]:
    """Every number of this part (times in ms or s, memory in MiB)."""
    with off_the_servers_core(), tempfile.TemporaryDirectory(prefix="bench-small-box-") as folder:
        found: dict[str, Any] = {
            "first_start": [start_up(Path(folder) / f"new-{n}") for n in range(starts)],
            "start": [start_up(Path(folder) / "new-0") for _ in range(starts)],
        }
        with served_on_one_core(Path(folder) / "night") as (port, pid):
            fork_server_ready(pid)
            found |= night(port, pid, rounds)
    return found


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20, method="inclusive")[18]


def main() -> None:
    found = measure()
    hands = found.pop("hands")
    print(json.dumps(found, indent=1))
    print(f"{len(hands)} hands: median {statistics.median(hands):.1f} ms, p95 {p95(hands):.1f} ms")


if __name__ == "__main__":
    main()
