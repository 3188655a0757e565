"""Recording a hand with crowds around it: idle, with 500 open pages, with 1,000 slow
connections, and under a PDF flood that ignores Retry-After, all in one run on one
``scorekeeper serve`` (and, given a PostgreSQL database, idle and 500 pages on the club
server: gunicorn's gevent workers), each as a ratio to idle in the same run.

- Recording a hand is fullstack_bench's client: a keep-alive connection posting the hand
  form and opening the game page it is sent to, for ``seconds`` at a time.
- An open page is a live stream (``GET /games/<id>/events``), 5 on each of 100 games (a
  hall's tables: boards and phones), from 10 addresses, read as it comes; the server's
  memory is sampled while they are open.
- A slow connection sends a request's head a line every 2 s and never finishes it, from 10
  addresses (the server keeps each address's share and drops each within its deadline;
  the crowd opens new ones as they are dropped, so 1,000 stay pressing).
- The flood is fullstack_bench's 20 PDF clients with no pause, Retry-After ignored.

    .venv/bin/python bench/crowds.py [--seconds 10] [--database-url postgresql://...]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import selectors
import socket
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

import databases  # noqa: E402
import fullstack_bench as stack  # noqa: E402

PAGES = 500
PAGE_GAMES = 100
SLOW = 1000
ADDRESSES = 10
PDF_CLIENTS = 20
SCHEMA = "bench_crowds"


def addresses(count: int) -> list[str]:
    return [f"127.0.1.{2 + n}" for n in range(count)]


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` (MiB), from /proc."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(p) for p in found]


class Crowd:
    """Many connections, one selector, on a thread: streams read, slow heads trickled."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.socks: dict[socket.socket, bytearray] = {}
        self.stopped = threading.Event()
        self.dropped = 0
        self.slow_wanted = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _connect(self, source: str, head: bytes) -> None:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(10)
        try:
            sock.connect(("127.0.0.1", self.port))
            sock.sendall(head)
        except OSError:
            sock.close()
            return
        sock.setblocking(False)
        self.socks[sock] = bytearray()
        self.selector.register(sock, selectors.EVENT_READ)

    def open_pages(self, games: list[int], count: int) -> None:
        sources = addresses(ADDRESSES)
        for n in range(count):
            self._connect(
                sources[n % ADDRESSES],
                f"GET /games/{games[n % len(games)]}/events HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{self.port}\r\n\r\n".encode(),
            )

    def open_slow(self, count: int) -> None:
        self.slow_wanted = count
        self._top_up()

    def _top_up(self) -> None:
        sources = addresses(ADDRESSES)
        missing = self.slow_wanted - len(self.socks)
        for n in range(max(0, missing)):
            self._connect(
                sources[n % ADDRESSES],
                f"POST /games/1 HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n".encode(),
            )

    def start(self) -> None:
        self.thread.start()

    def alive_streams(self) -> int:
        return sum(1 for data in self.socks.values() if b"event: alive" in data)

    def _run(self) -> None:
        trickle = time.monotonic() + 2
        while not self.stopped.is_set():
            for key, _ in self.selector.select(0.2):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if data:
                    kept = self.socks[sock]  # type: ignore[index]
                    kept += data
                    del kept[:-4096]
                else:
                    self._drop(sock)  # type: ignore[arg-type]
            if self.slow_wanted and time.monotonic() >= trickle:
                for sock in list(self.socks):
                    try:
                        sock.send(b"X-Slow: 1\r\n")
                    except OSError:
                        self._drop(sock)
                self._top_up()
                trickle = time.monotonic() + 2

    def _drop(self, sock: socket.socket) -> None:
        self.dropped += 1
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(sock)
        self.socks.pop(sock, None)
        sock.close()

    def close(self) -> None:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        for sock in list(self.socks):
            sock.close()
        self.selector.close()


def new_games(port: int, count: int) -> list[int]:
    table = stack.Table(stack.Client(port), seed=7)
    found = []
    for _ in range(count):
        table.new_game()
        found.append(table.game_id)
    return found


def recorded(port: int, seconds: float) -> list[float]:
    """Hands recorded by one client for ``seconds``: each one's time (ms)."""
    found = stack.run_clients(port, 1, seconds=seconds)[0]
    if found["errors"]:
        raise RuntimeError(f"recording failed: {found['errors'][:2]}")
    return list(found["record"])


class Sampler:
    """The most memory the server's processes held while it ran (MiB; the largest one)."""

    def __init__(self, pid: int, workers: bool) -> None:
        self.pid = pid
        self.workers = workers
        self.most = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            pids = children(self.pid) if self.workers else [self.pid]
            self.most = max([self.most, *(rss_mib(p) for p in pids)])

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


def phase(
    port: int, pid: int, seconds: float, *, workers: bool = False, crowd: Crowd | None = None
) -> dict[str, Any]:
    with Sampler(pid, workers) as memory:
        record = recorded(port, seconds)
    result: dict[str, Any] = {"record": record, "rss": memory.most}
    if crowd is not None:
        result["open"] = len(crowd.socks)
        result["alive"] = crowd.alive_streams()
        result["dropped"] = crowd.dropped
    return result


def with_pages(port: int, pid: int, seconds: float, games: list[int], workers: bool) -> Any:
    crowd = Crowd(port)
    try:
        crowd.open_pages(games, PAGES)
        crowd.start()
        deadline = time.monotonic() + 60
        while crowd.alive_streams() < PAGES and time.monotonic() < deadline:
            time.sleep(0.2)
        return phase(port, pid, seconds, workers=workers, crowd=crowd)
    finally:
        crowd.close()


def with_slow(port: int, pid: int, seconds: float) -> Any:
    crowd = Crowd(port)
    try:
        crowd.open_slow(SLOW)
        crowd.start()
        time.sleep(1)
        return phase(port, pid, seconds, crowd=crowd)
    finally:
        crowd.close()


@contextlib.contextmanager
def club(folder: Path, database_url: str) -> Iterator[tuple[int, int]]:
    port = stack.free_port()
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    command = [
        *(gunicorn, "-w", "2", "-k", "gevent", "--worker-connections", "2000"),
        *("-b", f"127.0.0.1:{port}", "scorekeeper:create_app()"),
    ]
    env = stack.server_env(folder / "instance", database_url)
    env["SECRET_KEY"] = "bench-crowds"
    (folder / "instance").mkdir(parents=True, exist_ok=True)
    # gunicorn makes no tables: the schema first, as the README's club setup does.
    subprocess.run(
        [*stack.scorekeeper_command(), "init-db"], env=env, check=True, capture_output=True
    )
    with stack.running("gunicorn", command, port, env, folder / "gunicorn.log") as pid:
        yield port, pid


def measure(seconds: float = 10, database_url: str | None = None) -> dict[str, Any]:
    """Each crowd's phase between two idle phases, so its ratio is to the idle just before
    and after it (the machine is shared: what else runs on it changes during a run)."""
    found: dict[str, Any] = {"seconds": seconds}
    with (
        tempfile.TemporaryDirectory(prefix="crowds-bench-") as folder,
        stack.served(Path(folder) / "instance") as (port, pid),
    ):
        stack.run_clients(port, 1, rounds=20)  # warm up
        games = new_games(port, PAGE_GAMES)
        night = stack.start_night(port)
        idle = [phase(port, pid, seconds)]
        found["pages"] = with_pages(port, pid, seconds, games, workers=False)
        idle.append(phase(port, pid, seconds))
        found["slow"] = with_slow(port, pid, seconds)
        idle.append(phase(port, pid, seconds))
        with Sampler(pid, False) as memory:
            flood = stack.run_pdf_load(port, PDF_CLIENTS, seconds + 1, 0.0, night)
        found["flood"] = {
            "record": flood["record"],
            "answers": flood["answers"],
            "rss": memory.most,
        }
        idle.append(phase(port, pid, seconds))
    found["idle"] = _joined(idle)
    for n, name in enumerate(("pages", "slow", "flood")):
        found[name]["idle"] = _joined(idle[n : n + 2])["record"]
    if database_url is not None:
        databases.make_schema(database_url, SCHEMA, fresh=True)
        url = databases.in_schema(database_url, SCHEMA)
        with (
            tempfile.TemporaryDirectory(prefix="crowds-club-") as folder,
            club(Path(folder), url) as (port, pid),
        ):
            stack.run_clients(port, 1, rounds=20)
            games = new_games(port, PAGE_GAMES)
            idle = [phase(port, pid, seconds, workers=True)]
            found["club_pages"] = with_pages(port, pid, seconds, games, workers=True)
            idle.append(phase(port, pid, seconds, workers=True))
        found["club_idle"] = _joined(idle)
        found["club_pages"]["idle"] = found["club_idle"]["record"]
    return found


def _joined(phases: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "record": [t for p in phases for t in p["record"]],
        "rss": max(p["rss"] for p in phases),
    }


def p95(samples: list[float]) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=20, method="inclusive")[18]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or None)
    args = parser.parse_args()
    found = measure(args.seconds, args.database_url)
    for name, value in found.items():
        if not isinstance(value, dict):
            continue
        record = value["record"]
        base = value.get("idle", record)
        print(
            f"{name:<11} n={len(record):4d} median {statistics.median(record):7.2f} ms "
            f"({statistics.median(record) / statistics.median(base):.2f}x) "
            f"p95 {p95(record):7.2f} ms ({p95(record) / p95(base):.2f}x) "
            f"rss {value.get('rss', float('nan')):.0f} MiB "
            + " ".join(
                f"{k}={value[k]}" for k in ("open", "alive", "dropped", "answers") if k in value
            )
        )


if __name__ == "__main__":
    main()
