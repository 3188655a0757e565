"""Live boards: Save -> every open board shows the hand, pushed against polled; recording a
hand with boards open; the server's memory and threads with the boards held open.

Not a test: it prints numbers (``make bench`` puts them in its table, bench/run.py).

A real ``scorekeeper serve`` (waitress) or gunicorn (``-k gthread``) process serves the app
on a SQLite file of its own. BOARDS boards are threads in a process of their own (other
devices), each doing what static/js/board.js does: hold the game's event stream open and, on
each ``change``, wait its spread (SPREAD_MS) and fetch the board again (as the page does,
to swap its regions); the hand "shows" when that fetch has it. The polling it replaces is
measured the same way: each board asks version.json every BOARD_POLL_SECONDS (its own
phase) and, on a new version, loads the board page again.

    .venv/bin/python bench/live.py             # prints the numbers as JSON
"""

from __future__ import annotations

import contextlib
import http.client
import json
import multiprocessing
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import fullstack_bench as stack  # noqa: E402  (a sibling script)

BOARDS = 20
#: The app's default BOARD_POLL_SECONDS: what the boards did before they were pushed to.
POLL_SECONDS = 1.5
LAST_HAND = re.compile(rb'class="last-hand">Hand (\d+):')
#: What static/js/board.js waits before fetching a change (ms): at least, and spread over.
SPREAD_MS = (30, 120)
#: How long one hand may take to reach every board before the run fails (s).
PATIENCE = 15.0


class Shown:
    """When each board first showed each hand: {hand number: [seconds, ...]}."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[int, list[float]] = {}
        self.errors: list[str] = []

    def saw(self, page: bytes, seen: set[int]) -> None:
        now = time.perf_counter()
        found = LAST_HAND.search(page)
        if found is None:
            return
        number = int(found.group(1))
        if number in seen:
            return
        seen.add(number)
        with self.lock:
            self.times.setdefault(number, []).append(now)

    def wait_for(self, number: int, boards: int) -> list[float]:
        deadline = time.perf_counter() + PATIENCE
        while time.perf_counter() < deadline:
            with self.lock:
                got = list(self.times.get(number, ()))
            if len(got) >= boards:
                return got
            time.sleep(0.002)
        raise RuntimeError(f"hand {number} reached {len(got)} of {boards} boards in {PATIENCE} s")


class Board(threading.Thread):
    """One open board: an event stream, and a fetch of the board on each change."""

    def __init__(self, port: int, game_id: int, shown: Shown, push: bool) -> None:
        super().__init__(daemon=True)
        self.port, self.game_id, self.shown, self.push = port, game_id, shown, push
        self.stopped = threading.Event()
        self.ready = threading.Event()
        self.seen: set[int] = set()
        self.page = stack.Client(port)
        self.stream: http.client.HTTPConnection | None = None
        self.socket: Any = None

    def fetch(self) -> None:
        status, _, body = self.page.request_with(
            "GET", f"/games/{self.game_id}/board", {"X-Scorekeeper-Live": "1"}
        )
        if status != 200:
            self.shown.errors.append(f"board answered {status}")
        self.shown.saw(body, self.seen)

    def run(self) -> None:
        try:
            self.fetch()  # the page as first opened
            if self.push:
                self.listen()
            else:
                self.poll()
        except Exception as error:
            if not self.stopped.is_set():
                self.shown.errors.append(repr(error))
        finally:
            self.ready.set()

    def listen(self) -> None:
        self.stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.stream.request("GET", f"/games/{self.game_id}/events")
        self.socket = self.stream.sock
        response = self.stream.getresponse()
        if response.status != 200:
            raise RuntimeError(f"events answered {response.status}")
        event = ""
        while not self.stopped.is_set():
            line = response.fp.readline()
            if not line:
                return
            if line.startswith(b"event:"):
                event = line[6:].strip().decode()
            elif line == b"\n":
                if event in ("alive", "change"):
                    self.ready.set()
                if event == "change":
                    time.sleep((SPREAD_MS[0] + random.random() * SPREAD_MS[1]) / 1000)
                    self.fetch()
                event = ""

    def poll(self) -> None:
        _, _, body = self.page.request("GET", f"/games/{self.game_id}/version.json")
        version = json.loads(body)["version"]  # as the page was drawn
        # Each board polls on its own phase, as pages opened at different moments do.
        next_tick = time.perf_counter() + random.uniform(0, POLL_SECONDS)
        self.ready.set()
        while not self.stopped.is_set():
            time.sleep(max(0.0, next_tick - time.perf_counter()))
            next_tick += POLL_SECONDS
            _, _, body = self.page.request("GET", f"/games/{self.game_id}/version.json")
            found = json.loads(body)["version"]
            if found != version:
                self.fetch()
            version = found

    def stop(self) -> None:
        self.stopped.set()
        if self.socket is not None:
            with contextlib.suppress(OSError):
                self.socket.shutdown(2)  # the stream's reader wakes, and the server sees it
        if self.stream is not None:
            self.stream.close()


def _request_with(
    self: stack.Client, method: str, path: str, headers: dict[str, str]
) -> tuple[int, Any, bytes]:
    """stack.Client.request with extra headers."""
    all_headers = {"Host": f"127.0.0.1:{self.port}", "Accept": "text/html", **headers}
    if self.cookies:
        all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
    self.connection.request(method, path, headers=all_headers)
    response = self.connection.getresponse()
    return response.status, response, response.read()


stack.Client.request_with = _request_with  # type: ignore[attr-defined]


class Phone:
    """The phone that records: plays one game, a hand at a time; times POST and redirect."""

    def __init__(self, port: int, seed: int) -> None:
        self.table = stack.Table(stack.Client(port), seed)
        self.table.new_game()

    @property
    def game_id(self) -> int:
        return int(self.table.game_id)

    def record(self) -> tuple[int, float, float, bool]:
        """Record a hand; return (its number, POST seconds, POST + game page seconds,
        whether the game ended)."""
        table = self.table
        hidden = stack.hand_form_fields(table.page)
        fields, finished = table.next_hand()
        body = urlencode({**hidden, **fields}).encode()
        started = time.perf_counter()
        status, response, answer = table.client.request(
            "POST", f"/games/{table.game_id}", body, "application/x-www-form-urlencoded"
        )
        posted = time.perf_counter() - started
        if status != 302:
            raise RuntimeError(f"POST answered {status}: {answer[:200]!r}")
        status, _, table.page = table.client.request(
            "GET", response.headers["Location"].split("#")[0]
        )
        total = time.perf_counter() - started
        if status != 200:
            raise RuntimeError(f"the game page answered {status}")
        return len(table.hands), posted, total, finished


def _board_process(connection: Any, port: int, game_id: int, count: int, push: bool) -> None:
    """The boards' own process (other devices, not threads beside the phone's: their
    wake-up would be timed as the phone's). Answers ("wait", number) with the times each
    board showed that hand, until told ("stop",)."""
    shown = Shown()
    boards = [Board(port, game_id, shown, push) for _ in range(count)]
    for board in boards:
        board.start()
    for board in boards:
        board.ready.wait(10)
    connection.send("ready")
    while True:
        command = connection.recv()
        if command[0] == "stop":
            break
        try:
            connection.send(("ok", shown.wait_for(command[1], count)))
        except RuntimeError as error:
            connection.send(("error", str(error)))
    for board in boards:
        board.stop()
    for board in boards:
        board.join(5)
    connection.send(list(shown.errors))


class Boards:
    """``count`` boards open on a game, in a process of their own. Times are
    ``time.perf_counter``, which on Linux is the machine's monotonic clock, shared by both."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.errors: list[str] = []

    def wait_for(self, number: int) -> list[float]:
        self.connection.send(("wait", number))
        status, found = self.connection.recv()
        if status != "ok":
            raise RuntimeError(found)
        return list(found)


@contextlib.contextmanager
def boards_on(port: int, game_id: int, count: int, push: bool) -> Iterator[Boards]:
    mine, theirs = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(
        target=_board_process, args=(theirs, port, game_id, count, push), daemon=True
    )
    process.start()
    if not mine.poll(30) or mine.recv() != "ready":
        raise RuntimeError("the boards did not open")
    boards = Boards(mine)
    try:
        yield boards
    finally:
        mine.send(("stop",))
        if mine.poll(30):
            boards.errors += mine.recv()
        process.join(10)


def save_to_boards(port: int, hands: int, boards: int, push: bool, seed: int) -> dict[str, Any]:
    """Record ``hands`` hands with ``boards`` boards open; return the times (ms): Save to
    every board showing it (``every``), to each board (``each``), and the record itself."""
    found: dict[str, Any] = {"every": [], "each": [], "post": [], "record": [], "errors": []}
    phone = Phone(port, seed)
    done = 0
    while done < hands:
        with boards_on(port, phone.game_id, boards, push) as shown:
            time.sleep(0.3)
            finished = False
            while done < hands and not finished:
                started = time.perf_counter()
                number, posted, total, finished = phone.record()
                found["post"].append(posted * 1000)
                found["record"].append(total * 1000)
                if boards:
                    got = shown.wait_for(number)
                    found["every"].append((max(got) - started) * 1000)
                    found["each"] += [(t - started) * 1000 for t in got]
                done += 1
                # Hands at a table are a minute apart: let the boards settle (and, polled,
                # start each hand at another moment of their cycle).
                time.sleep(0.15 if push else random.uniform(0.2, POLL_SECONDS))
        found["errors"] += shown.errors
        if finished:
            phone = Phone(port, seed + done)
    return found


def process_usage(pids: list[int]) -> dict[str, int]:
    """Resident memory (KiB) and threads of the processes, added up."""
    rss = threads = 0
    for pid in pids:
        status = Path(f"/proc/{pid}/status").read_text()
        rss += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
        threads += int(re.search(r"Threads:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    return {"rss_kib": rss, "threads": threads}


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


def held_open(port: int, pids: list[int], boards: int) -> dict[str, Any]:
    """The server's memory and threads with no board, then with ``boards`` held open."""
    phone = Phone(port, 7)
    phone.record()
    time.sleep(0.5)
    before = process_usage(pids)
    with boards_on(port, phone.game_id, boards, push=True) as shown:
        time.sleep(1.0)
        during = process_usage(pids)
    return {"none": before, "open": during, "errors": shown.errors}


@contextlib.contextmanager
def gunicorn_served(instance: Path, workers: int, threads: int) -> Iterator[tuple[int, int]]:
    """gunicorn with the gthread worker class, as the README says to run it."""
    env = stack.server_env(instance)
    subprocess.run(
        [*stack.scorekeeper_command(), "init-db"], env=env, check=True, capture_output=True
    )
    port = stack.free_port()
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        *("-w", str(workers), "-k", "gthread", "--threads", str(threads)),
        *("-b", f"127.0.0.1:{port}", "scorekeeper:create_app()"),
    ]
    with stack.running("gunicorn", command, port, env, instance / "gunicorn.log") as pid:
        yield port, pid


def measure(hands: int = 40, poll_hands: int = 15, boards: int = BOARDS) -> dict[str, Any]:
    """Every number of this part (times in ms, memory in KiB)."""
    found: dict[str, Any] = {"boards": boards}
    with tempfile.TemporaryDirectory(prefix="bench-live-") as folder:
        with stack.served(Path(folder) / "waitress") as (port, pid):
            # Recording alone, with the boards pushed to, alone again: the two "alone" runs
            # either side, so a machine getting busier does not favour either.
            alone = save_to_boards(port, hands // 2, 0, True, 1)
            pushed = save_to_boards(port, hands, boards, True, 2)
            alone_after = save_to_boards(port, hands // 2, 0, True, 3)
            polled = save_to_boards(port, poll_hands, boards, False, 4)
            found["waitress"] = {
                "alone_post": alone["post"] + alone_after["post"],
                "alone_record": alone["record"] + alone_after["record"],
                "pushed": pushed,
                "polled": polled,
                "usage": held_open(port, [pid], boards),
            }
        with gunicorn_served(Path(folder) / "gunicorn", 1, 48) as (port, pid):
            workers = children(pid)
            found["gunicorn"] = {
                "pushed": save_to_boards(port, hands // 2, boards, True, 5),
                "usage": held_open(port, [pid, *workers], boards),
                "worker_usage": process_usage(workers),
            }
    return found


def p95(samples: list[float]) -> float:
    if len(samples) < 2:
        return samples[0]
    return statistics.quantiles(samples, n=20, method="inclusive")[18]


def main() -> None:
    found = measure()
    print(json.dumps(found, indent=1)[:4000])
    for server in ("waitress", "gunicorn"):
        pushed = found[server]["pushed"]
        print(
            f"{server}: pushed every board median {statistics.median(pushed['every']):.1f} ms, "
            f"p95 {p95(pushed['every']):.1f} ms"
        )


if __name__ == "__main__":
    main()
