"""A hall of 100 tables on one server: a progressive Pitch night for 400 players.

Not a test: it prints numbers (``make bench`` puts them in its table, bench/run.py).

gunicorn serves the app as the README's club server does (``-w 4 -k gevent
--worker-connections 2000``: an open page is a greenlet, not a thread) on PostgreSQL
(BENCH_DATABASE_URL, or --database-url; its schema is dropped and made again by the app's
migrations: give it a database of its own). The bench then, through the served pages as a
director would:

1. sets up the event, registers 400 players at the door, and starts round 1 (timed);
2. plays round 1 out (time called, each table's hand in play recorded) and starts round 2:
   "start next round" for 400 players, the progressive movement computed and 100 games
   created (timed);
3. opens 400 phones' live game pages and 100 table boards (each its game's stream, in a
   process of their own) and 2 room boards (each its event's stream), each fetching its
   page again on a change as static/js/board.js does, polling where a stream is refused
   (bench/hall_pages.py);
4. records hands at random tables, 2 a second in all, for SECONDS: each hand's save (POST
   and the redirected game page) is timed, and so is Save's answer (the POST's) -> both
   room boards' fetched pages show that table's new count of hands (the standings are
   drawn in the same page from the same state);
5. reads the server's memory (every gunicorn process, resident) while all that is open.

The load average (``uptime``'s) is read before and after: the machine may be shared.

    .venv/bin/python bench/hall.py --database-url postgresql://u:p@127.0.0.1/hall
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import fullstack_bench as stack  # noqa: E402  (a sibling script)
import hall_pages  # noqa: E402
import live  # noqa: E402

TABLES = 100
PLAYERS = TABLES * 4
ROOM_BOARDS = 2
HANDS_PER_SECOND = 2.0
SECONDS = 60.0
WORKERS = 4
WORKER_CONNECTIONS = 2000
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]*)"')
#: Goals on the 2-core machine (issue: the hall).
GOALS = {"hand_p95": 0.150, "board_p95": 1.0, "next_round": 2.0, "memory_mib": 1024}


def p(samples: list[float], q: int) -> float:
    if not samples:
        return float("nan")
    if len(samples) < 2:
        return samples[0]
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


def ask(client: stack.Client, method: str, path: str, *args: Any) -> tuple[int, Any, bytes]:
    """``client.request``, once more on a fresh connection if the server had closed the kept
    one (gunicorn closes a connection idle past its keep-alive, as a phone's browser sees)."""
    try:
        return client.request(method, path, *args)
    except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
        client.connection.close()
        return client.request(method, path, *args)


def reset_schema(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@contextlib.contextmanager
def club_server(instance: Path, url: str) -> Iterator[tuple[int, int]]:
    """gunicorn, as the README runs the club's server; yield (port, master pid)."""
    instance.mkdir(parents=True, exist_ok=True)
    env = stack.server_env(instance, url)
    subprocess.run(
        [*stack.scorekeeper_command(), "init-db"], env=env, check=True, capture_output=True
    )
    port = stack.free_port()
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        *("-w", str(WORKERS), "-k", "gevent", "--worker-connections", str(WORKER_CONNECTIONS)),
        *("-b", f"127.0.0.1:{port}", "scorekeeper:create_app()"),
    ]
    with stack.running("gunicorn", command, port, env, instance / "gunicorn.log") as pid:
        yield port, pid


class Director:
    """The director's browser: one client, forms posted with their CSRF token."""

    def __init__(self, port: int) -> None:
        self.client = stack.Client(port)
        self.token = ""

    def get(self, path: str) -> bytes:
        status, _, body = ask(self.client, "GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}")
        found = CSRF.search(body.decode())
        if found:
            self.token = found.group(1)
        return body

    def post(self, path: str, fields: dict[str, Any]) -> Any:
        body = urlencode({"csrf_token": self.token, **fields}, doseq=True).encode()
        status, response, answer = ask(
            self.client, "POST", path, body, "application/x-www-form-urlencoded"
        )
        if status != 302:
            raise RuntimeError(f"POST {path} answered {status}: {answer[:300]!r}")
        return response.headers["Location"]

    def version(self, event_id: int) -> str:
        page = self.get(f"/events/{event_id}").decode()
        found = re.search(r'name="(?:register-)?version"[^>]*value="(\d+)"', page)
        if found is None:
            raise RuntimeError("the director's screen has no version")
        return found.group(1)


def set_up(port: int) -> tuple[int, Director]:
    director = Director(port)
    director.get("/events")
    location = director.post(
        "/events",
        {
            "name": "Hall night",
            "date": "2026-12-05",
            "format": "progressive",
            "game": "preset:auction-pitch",
            "rounds": "4",
            "season": "0",
        },
    )
    event_id = int(location.rsplit("/", 1)[1])
    director.get(f"/events/{event_id}")
    names = [f"Player {i:03d}" for i in range(1, PLAYERS + 1)]
    director.post(
        f"/events/{event_id}/players",
        {
            "register-door": "\n".join(names),
            "register-version": director.version(event_id),
            "register-csrf_token": director.token,
        },
    )
    return event_id, director


def start_round(director: Director, event_id: int) -> float:
    version = director.version(event_id)
    started = time.perf_counter()
    director.post(f"/events/{event_id}/rounds", {"version": version})
    return time.perf_counter() - started


def table_games(port: int, event_id: int) -> dict[int, int]:
    """The game each table plays now, as the table cards' codes lead."""
    client = stack.Client(port)
    found = {}
    for number in range(1, TABLES + 1):
        status, response, _ = ask(client, "GET", f"/events/{event_id}/tables/{number}")
        if status != 302:
            raise RuntimeError(f"table {number} answered {status}")
        found[number] = int(response.headers["Location"].rsplit("/", 1)[1])
    return found


class Recorder:
    """A table's phone that records: reads its game, taps random legal hands."""

    def __init__(self, port: int, game_id: int, seed: int) -> None:
        from scorekeeper import rules
        from scorekeeper.games.forms import TEAM_VALUE

        self.rules, self.team_value = rules, TEAM_VALUE
        self.client = stack.Client(port)
        self.game_id = game_id
        self.rng = random.Random(seed)
        _, _, body = ask(self.client, "GET", f"/games/{game_id}.json")
        record = json.loads(body)
        self.players = record["players"]
        self.teams = record.get("teams")
        self.game = rules.Game.create(
            record["variant"],
            self.players,
            house_rules=record.get("house_rules") or {},
            teams=self.teams,
        )
        self.hands: list[Any] = []
        self.side_of = {}
        if self.teams:
            order = list(self.teams)
            for team, members in self.teams.items():
                for name in members:
                    self.side_of[name] = order.index(team)
        self.finished = False
        self.last_fields: dict[str, str] = {}
        _, _, self.page = ask(self.client, "GET", f"/games/{game_id}")

    def _value(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        name = self.players[seat]
        return self.team_value.format(self.side_of[name]) if self.teams else str(seat)

    def next_hand(self, called_after: int | None = None) -> dict[str, str]:
        rules = self.rules
        game = self.game if called_after is None else self.game.call_time(called_after)
        for _ in range(200):
            pitcher = self.rng.randrange(4)
            bid = self.rng.choice((2, 2, 3, 3, 4))
            seats = {
                "high": self.rng.randrange(4),
                "low": self.rng.randrange(4),
                "jack": self.rng.choice((0, 1, 2, 3, None)),
                "game": self.rng.choice((0, 1, 2, 3, None)),
            }
            hand = rules.Hand(
                pitcher=self.players[pitcher],
                bid=bid,
                points={k: None if s is None else self.players[s] for k, s in seats.items()},
            )
            if self.hands and hand == self.hands[-1]:
                continue
            try:
                result = rules.score_game(game, [*self.hands, hand])
            except rules.RuleError:
                continue
            fields = {"pitcher": str(pitcher), "bid": str(bid), "save": "Save hand"}
            for key, seat in seats.items():
                fields[f"point_{key}"] = self._value(seat)
            if fields == self.last_fields:
                continue  # the page would ask "same as the hand before: record it again?"
            self.hands.append(hand)
            self.finished = result.finished
            return fields
        raise RuntimeError("no legal hand found")

    def record(self, called_after: int | None = None) -> tuple[float, float]:
        """Save a hand: (the save's time, POST and game page; when the POST answered)."""
        hidden = stack.hand_form_fields(self.page)
        if not hidden:
            # The page the last save led to has no hand form: the phone opens the game again.
            status, _, self.page = ask(self.client, "GET", f"/games/{self.game_id}")
            hidden = stack.hand_form_fields(self.page)
            if not hidden:
                self.finished = True
                title = re.search(rb"<title>(.*?)</title>", self.page, re.S)
                raise RuntimeError(
                    f"game {self.game_id} ({len(self.hands)} hands here) has no hand form: "
                    f"{status} {title.group(1) if title else self.page[:120]!r}"
                )
        fields = self.next_hand(called_after)
        body = urlencode({**hidden, **fields}).encode()
        started = time.perf_counter()
        status, response, answer = ask(
            self.client, "POST", f"/games/{self.game_id}", body, "application/x-www-form-urlencoded"
        )
        if status != 302:
            self.hands.pop()  # not recorded: the phone taps it again
            said = re.findall(
                rb'class="(?:flash|errors?|field-error)[^"]*"[^>]*>(.*?)</', answer, re.S
            )
            title = re.search(rb"<title>(.*?)</title>", answer, re.S)
            raise RuntimeError(
                f"POST answered {status}: {title.group(1) if title else answer[:120]!r} "
                f"{[s.strip() for s in said if s.strip()][:3]!r} (form sent: {sorted(hidden)})"
            )
        answered = time.perf_counter()
        self.last_fields = fields
        status, _, self.page = ask(self.client, "GET", response.headers["Location"].split("#")[0])
        took = time.perf_counter() - started
        if status != 200:
            raise RuntimeError(f"the game page answered {status}")
        # The server says when the game is over (a smudge may end it as its house rules
        # say): the phone sees its page without a hand form.
        self.finished = self.finished or b'id="hand-form"' not in self.page
        return took, answered


def play_round_out(port: int, director: Director, event_id: int) -> int:
    """Call time, then record hands until every table has finished; return the hands."""
    games = table_games(port, event_id)
    return play_out(director, event_id, {n: Recorder(port, g, n) for n, g in games.items()})


def play_out(director: Director, event_id: int, recorders: dict[int, Recorder]) -> int:
    """Call time, then record at each table until its game is over; return the hands."""
    director.get(f"/events/{event_id}")
    director.post(f"/events/{event_id}/clock/call", {})
    hands = 0
    for recorder in recorders.values():
        # Time called moved the game's version on: the phone's page shows it (its form's).
        _, _, recorder.page = ask(recorder.client, "GET", f"/games/{recorder.game_id}")
        recorder.finished = recorder.finished or b'id="hand-form"' not in recorder.page
        for _ in range(50):  # bounded: the hand in play, then a tie played on
            if recorder.finished:
                break
            try:
                recorder.record(called_after=1 + sum(1 for h in recorder.hands if not h.passed))
            except RuntimeError as error:
                if "answered 409" not in str(error):
                    raise
                # Another change came first (the conflict is shown): the page, again.
                _, _, recorder.page = ask(recorder.client, "GET", f"/games/{recorder.game_id}")
                continue
            hands += 1
    return hands


def server_memory(pid: int) -> dict[str, int]:
    pids = [pid, *live.children(pid)]
    return live.process_usage(pids)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the server's processes have used, in seconds."""
    total = 0
    for each in [pid, *live.children(pid)]:
        fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def profiled(pid: int, folder: Path | None, seconds: float) -> Iterator[None]:
    """With ``folder``, py-spy samples every gunicorn process meanwhile (collapsed stacks,
    one file a process: ``grep``, or flamegraph.pl); without, nothing."""
    if folder is None:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    spy = str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy in the venv: .venv/bin/pip install py-spy")
    command = [spy, "record", "-f", "raw", "-r", "50", "-d", str(int(seconds) + 1), "-p"]
    spies = [
        subprocess.Popen(
            [*command, str(each), "-o", str(folder / f"worker-{each}.txt")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for each in live.children(pid)
    ]
    try:
        yield
    finally:
        for spy_process in spies:
            try:
                spy_process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                spy_process.kill()


def load_average() -> float:
    """The 1-minute load average, as ``uptime`` says it."""
    return round(os.getloadavg()[0], 2)


def measure(url: str, seconds: float = SECONDS, profile: Path | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"tables": TABLES, "players": PLAYERS, "load_before": load_average()}
    reset_schema(url)
    with (
        tempfile.TemporaryDirectory(prefix="bench-hall-") as folder,
        club_server(Path(folder) / "club", url) as (port, pid),
    ):
        event_id, director = set_up(port)
        found["round_1"] = start_round(director, event_id)
        found["round_1_hands"] = play_round_out(port, director, event_id)
        found["load_next_round"] = load_average()
        found["next_round"] = start_round(director, event_id)
        games = table_games(port, event_id)
        found["idle_memory"] = server_memory(pid)

        mine, theirs = multiprocessing.get_context("fork").Pipe()
        pages = multiprocessing.get_context("fork").Process(
            target=hall_pages.pages_process,
            args=(theirs, port, list(games.values()), seconds + 60),
            daemon=True,
        )
        pages.start()
        found["pages"] = mine.recv() if mine.poll(120) else {"error": "pages did not open"}
        rooms = [hall_pages.RoomBoard(port, event_id) for _ in range(ROOM_BOARDS)]
        for room in rooms:
            room.start()
        time.sleep(1.0)
        recorders = {n: Recorder(port, g, n) for n, g in games.items()}
        saves: list[float] = []
        boards: list[float] = []
        errors: list[str] = []
        pending: list[tuple[int, int, float]] = []
        rng = random.Random(7)
        found["load_during"] = load_average()
        cpu_before = cpu_seconds(pid)
        with profiled(pid, profile, seconds):
            deadline = time.perf_counter() + seconds
            next_at = time.perf_counter()
            peak: dict[str, int] = {"rss_kib": 0, "threads": 0}
            while time.perf_counter() < deadline:
                time.sleep(max(0.0, next_at - time.perf_counter()))
                next_at += 1.0 / HANDS_PER_SECOND
                open_tables = [n for n, r in recorders.items() if not r.finished]
                if not open_tables:
                    break
                table = rng.choice(open_tables)
                try:
                    took, answered = recorders[table].record()
                    saves.append(took)
                    played = sum(1 for h in recorders[table].hands if not h.passed)
                    pending.append((table, played, answered))
                except (OSError, http.client.HTTPException, RuntimeError) as error:
                    errors.append(str(error)[:300])
                if len(saves) % 20 == 0:
                    usage = server_memory(pid)
                    if usage["rss_kib"] > peak["rss_kib"]:
                        peak = usage
            found["load_after"] = load_average()
            found["server_cpu"] = cpu_seconds(pid) - cpu_before
        time.sleep(3.0)
        for table, played, answered in pending:
            shown = [room.when(table, played) for room in rooms]
            if all(s is not None for s in shown):
                boards.append(max(0.0, max(shown) - answered))  # type: ignore[type-var]
            else:
                errors.append(f"table {table} hand {played} never reached a room board")
        found["memory"] = peak
        found["rooms"] = [(room.how, room.fetches, room.errors) for room in rooms]
        for room in rooms:
            room.stop()
        mine.send("stop")
        found["pages_after"] = mine.recv() if mine.poll(30) else {}
        pages.join(15)
        if pages.is_alive():
            pages.terminate()
        found["saves"] = saves
        found["boards"] = boards
        found["errors"] = errors[:20] + [f"... {len(errors)} in all"] * (len(errors) > 20)
    return found


def summary(found: dict[str, Any]) -> dict[str, Any]:
    saves, boards = found["saves"], found["boards"]
    memory_mib = found["memory"]["rss_kib"] / 1024
    return {
        "hand save p50 (s)": round(p(saves, 50), 4),
        "hand save p95 (s)": round(p(saves, 95), 4),
        "save -> room board p95 (s)": round(p(boards, 95), 3),
        "start round 1, 400 players (s)": round(found["round_1"], 3),
        "start next round, 400 players (s)": round(found["next_round"], 3),
        "server memory (MiB, all workers)": round(memory_mib, 1),
        "hands recorded": len(saves),
        "server CPU per hand (ms, every process)": round(
            1000 * found["server_cpu"] / max(1, len(saves)), 1
        ),
        "open pages": found["pages_after"] or found["pages"],
        "room boards (how, fetches, errors)": found["rooms"],
        "load average (before, next round, during, after)": [
            found[k] for k in ("load_before", "load_next_round", "load_during", "load_after")
        ],
        "errors": found["errors"],
        "goals met": {
            "hand p95 < 150 ms": p(saves, 95) < GOALS["hand_p95"],
            "room board p95 < 1 s": p(boards, 95) < GOALS["board_p95"],
            "next round < 2 s": found["next_round"] < GOALS["next_round"],
            "memory < 1 GiB": memory_mib < GOALS["memory_mib"],
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument(
        "--profile", type=Path, help="a folder for py-spy's samples of each worker (hands phase)"
    )
    args = parser.parse_args(argv)
    if not args.database_url:
        raise SystemExit("the hall runs on PostgreSQL: give --database-url or BENCH_DATABASE_URL")
    print(json.dumps(summary(measure(args.database_url, args.seconds, args.profile)), indent=2))


if __name__ == "__main__":
    main()
