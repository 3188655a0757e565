"""Benchmark recording a hand through the whole stack, against the floor of a trivial route.

Not a test. The app is served by ``scorekeeper serve`` (waitress, the production
server) in its own process, on a real SQLite file in a temporary instance folder
(or, with ``--database-url``, a fresh schema of that PostgreSQL database: see
bench/databases.py), with CSRF on. Clients are separate processes that talk HTTP/1.1 with keep-alive
(``http.client``), as a phone's browser does: each reads the hand form's hidden
fields (``csrf_token``, ``version``, ``token``) from the game page, keeps the
session cookie, posts a hand, and follows the redirect to the game page.

- one client: each round records one hand (POST + redirected GET, timed together)
  and asks for ``GET /healthz`` once and twice (the floor: the same server, the
  same connection, a route that does nothing), so all three see the same noise;
- under load: 4 clients, in 4 different games, record hands for 20 seconds;
- under PDF load: one client records hands for 20 seconds while 20 others fetch PDFs:
  the score sheets of the games played so far and the night's settlement (the night the
  recorded games join, so it changes with every hand). Twice: as people at tables do
  (a PDF a second each, waiting as long as a 503's Retry-After says), where recording
  must stay within 2x its median alone (issue 19); and as fast as they are answered,
  Retry-After ignored (a flood: there, every request of anything slows the table).

Games are Auction Pitch to 21; when one ends (about 15-25 hands) the client starts
another, so a hand is recorded into a game of realistic length.

    .venv/bin/python bench/fullstack_bench.py [--rounds 300] [--seconds 20] [--clients 4]
        [--database-url postgresql://...]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import databases  # noqa: E402  (a sibling script, not a package)

#: The PostgreSQL schema the served app records into (dropped and made afresh each run).
SCHEMA = "bench_stack"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HOUSE_RULES = {"target": 21}
#: Seconds between one PDF client's fetches, as a person opening PDFs one after another.
PDF_PAUSE = 1.0
HIDDEN = re.compile(r'<input[^>]*\bname="(csrf_token|version|token)"[^>]*\bvalue="([^"]*)"')


# --- The server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def scorekeeper_command() -> list[str]:
    """The ``scorekeeper`` console script of this interpreter's environment."""
    beside = Path(sys.executable).with_name("scorekeeper")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("scorekeeper")
    if found is None:
        raise SystemExit("the scorekeeper command is not installed (run `make setup`)")
    return [found]


def server_env(instance: Path, database_url: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    # The app's own SQLite file in the instance folder (or the database given), open to
    # writes, CSRF on.
    for name in ("DATABASE_URL", "SCOREKEEPER_PASSWORD", "SCOREKEEPER_SECURE_COOKIES"):
        env.pop(name, None)
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    return env


@contextlib.contextmanager
def served(
    instance: Path, threads: int = 8, timeout: float = 60.0, database_url: str | None = None
) -> Iterator[tuple[int, int]]:
    """Run ``scorekeeper serve`` on ``instance`` (and ``database_url``, if given: it makes
    the schema by the app's migrations); yield (port, pid); stop it afterwards."""
    instance.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [*scorekeeper_command(), "serve", "--port", str(port), "--threads", str(threads)]
    env = server_env(instance, database_url)
    with running("scorekeeper serve", command, port, env, instance / "serve.log", timeout) as pid:
        yield port, pid


@contextlib.contextmanager
def running(
    name: str,
    command: list[str],
    port: int,
    env: dict[str, str],
    log_path: Path,
    timeout: float = 60.0,
) -> Iterator[int]:
    """Start the server ``name`` (its output to ``log_path``), wait until GET /healthz on
    ``port`` answers 200, yield its pid, and stop it afterwards (SIGTERM, then kill)."""
    log = log_path.open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise SystemExit(
                    f"{name} exited with {process.returncode}:\n"
                    + log_path.read_text(errors="replace")[-2000:]
                )
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    connection.close()
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"{name} did not answer within {timeout:.0f} s")
            time.sleep(0.1)
        yield process.pid
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


# --- A client --------------------------------------------------------------------------------


class Client:
    """One keep-alive HTTP/1.1 connection with a cookie jar, like a phone's browser tab."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(
        self, method: str, path: str, body: bytes | None = None, content_type: str | None = None
    ) -> tuple[int, http.client.HTTPResponse, bytes]:
        headers = {"Host": f"127.0.0.1:{self.port}", "Accept": "text/html"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if content_type:
            headers["Content-Type"] = content_type
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, response, data


def hand_form_fields(page: bytes) -> dict[str, str]:
    """The hand form's hidden fields, read from the game page as a browser would post them."""
    text = page.decode()
    start = text.find('id="hand-form"')
    form = text[start : text.find("</form>", start)] if start >= 0 else ""
    fields: dict[str, str] = {}
    for name, value in HIDDEN.findall(form):
        fields.setdefault(name, value)
    return fields


def page_version(page: bytes) -> str | None:
    """The game version a page's forms carry (a finished game's page has no hand form)."""
    for name, value in HIDDEN.findall(page.decode()):
        if name == "version":
            return value
    return None


class Table:
    """Play Auction Pitch games to the end, one after another, through the served app."""

    def __init__(self, client: Client, seed: int) -> None:
        from scorekeeper import rules

        self.rules = rules
        self.client = client
        self.rng = random.Random(seed)
        self.game_id = 0
        self.page = b""
        self.hands: list[Any] = []
        self.game: Any = None

    def new_game(self) -> None:
        """Start a game (not timed): import an empty record, then open its page."""
        record = {
            "format": "pitch-scorekeeper/1",
            "variant": "auction-pitch",
            "players": PLAYERS,
            "house_rules": HOUSE_RULES,
            "hands": [],
        }
        status, _, body = self.client.request(
            "POST", "/games/import", json.dumps(record).encode(), "application/json"
        )
        if status == 409:  # the same empty game kept already: a new one is asked for
            again = json.loads(body)["game"]
            status, _, body = self.client.request(
                "POST",
                f"/games/import?again={again}",
                json.dumps(record).encode(),
                "application/json",
            )
        if status != 201:
            raise RuntimeError(f"import answered {status}: {body[:200]!r}")
        self.game_id = json.loads(body)["id"]
        self.game = self.rules.Game.create("auction-pitch", PLAYERS, house_rules=HOUSE_RULES)
        self.hands = []
        status, _, self.page = self.client.request("GET", f"/games/{self.game_id}")
        if status != 200:
            raise RuntimeError(f"the new game's page answered {status}")

    def next_hand(self) -> tuple[dict[str, str], bool]:
        """A legal random hand as the form's fields, and whether it ends the game."""
        rules = self.rules
        while True:
            pitcher = self.rng.randrange(4)
            bid = self.rng.choice((2, 2, 3, 3, 4))
            seats = {
                "high": self.rng.randrange(4),
                "low": self.rng.randrange(4),
                "jack": self.rng.choice((0, 1, 2, 3, None)),
                "game": self.rng.choice((0, 1, 2, 3, None)),
            }
            hand = rules.Hand(
                pitcher=PLAYERS[pitcher],
                bid=bid,
                points={k: None if s is None else PLAYERS[s] for k, s in seats.items()},
            )
            if self.hands and hand == self.hands[-1]:
                continue  # the form would ask "same as the last hand?" first
            try:
                result = rules.score_game(self.game, [*self.hands, hand])
            except rules.RuleError:
                continue
            self.hands.append(hand)
            fields = {"pitcher": str(pitcher), "bid": str(bid), "save": "Save hand"}
            for key, seat in seats.items():
                fields[f"point_{key}"] = "nobody" if seat is None else str(seat)
            return fields, result.finished

    def record_one(self) -> tuple[float, str | None]:
        """Record one hand: POST the form, follow the redirect. Return (seconds, error)."""
        if not self.page:
            self.new_game()
        hidden = hand_form_fields(self.page)
        fields, finished = self.next_hand()
        body = urlencode({**hidden, **fields}).encode()
        started = time.perf_counter()
        status, response, answer = self.client.request(
            "POST", f"/games/{self.game_id}", body, "application/x-www-form-urlencoded"
        )
        error = None
        if status != 302:
            error = f"POST answered {status}: {answer[:300]!r}"
            seconds = time.perf_counter() - started
        else:
            location = urlsplit(response.headers["Location"])
            status, _, self.page = self.client.request("GET", location.path)
            seconds = time.perf_counter() - started
            if status != 200:
                error = f"the redirected page answered {status}"
            elif (
                b'class="card game-over"' not in self.page
                if finished
                else page_version(self.page) != str(int(hidden["version"]) + 1)
            ):
                # A finished game's page has no form to carry the version: it says who won.
                error = "the game page after the redirect does not show the hand recorded"
        if error is not None or finished:
            self.page = b""  # a fresh game next time (after an error: a known state)
        return seconds, error


def client_main(port: int, rounds: int, seconds: float, seed: int, floor: bool) -> None:
    """Run one client; print its timings as JSON (milliseconds)."""
    client = Client(port)
    table = Table(client, seed)
    table.new_game()
    record: list[float] = []
    one: list[float] = []
    two: list[float] = []
    errors: list[str] = []
    deadline = time.perf_counter() + seconds if seconds else None
    done = 0
    while (deadline is None and done < rounds) or (deadline and time.perf_counter() < deadline):
        try:
            took, error = table.record_one()
        except (OSError, http.client.HTTPException, RuntimeError) as failure:
            took, error = 0.0, f"{type(failure).__name__}: {failure}"
            client.connection.close()
            table.page = b""
        if error is None:
            record.append(took * 1000)
        else:
            errors.append(error)
        done += 1
        if floor:
            for samples, times in ((one, 1), (two, 2)):
                started = time.perf_counter()
                for _ in range(times):
                    status, _, body = client.request("GET", "/healthz")
                    if status != 200 or body != b"ok\n":
                        errors.append(f"/healthz answered {status}")
                samples.append((time.perf_counter() - started) * 1000)
    print(json.dumps({"record": record, "floor1": one, "floor2": two, "errors": errors}))


def pdf_client_main(
    port: int, seconds: float, seed: int, games: int, night: int, pause: float
) -> None:
    """Fetch PDFs one after another for ``seconds``: a sheet of one of the first ``games``
    games, or (one time in four) the night's settlement, ``pause`` seconds apart (and as
    long as a 503's Retry-After says; with no pause, none). Print the answers, as JSON."""
    rng = random.Random(seed)
    client = Client(port)
    answers: dict[str, int] = {}
    took: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if rng.random() < 0.25:
            path = f"/nights/{night}.pdf"
        else:
            path = f"/games/{rng.randint(1, games)}/sheet.pdf"
        started = time.perf_counter()
        wait = pause
        try:
            status, response, _ = client.request("GET", path)
            if status == 503 and pause:
                wait = max(pause, float(response.headers.get("Retry-After") or 0))
        except (OSError, http.client.HTTPException) as failure:
            status = type(failure).__name__  # type: ignore[assignment]
            client.connection.close()
        took.append((time.perf_counter() - started) * 1000)
        answers[str(status)] = answers.get(str(status), 0) + 1
        time.sleep(min(wait, max(0.0, deadline - time.perf_counter())))
    print(json.dumps({"answers": answers, "took": took}))


def start_night(port: int) -> int:
    """Start a game night through its form (CSRF and all); games started later join it."""
    client = Client(port)
    status, _, page = client.request("GET", "/nights")
    token = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page)
    if status != 200 or token is None:
        raise RuntimeError(f"the nights page answered {status}")
    body = urlencode(
        {"csrf_token": token.group(1).decode(), "name": "Bench night", "date": "2026-12-01"}
    ).encode()
    status, response, _ = client.request(
        "POST", "/nights", body, "application/x-www-form-urlencoded"
    )
    if status != 302:
        raise RuntimeError(f"starting a night answered {status}")
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def run_pdf_load(
    port: int, clients: int, seconds: float, pause: float, night: int
) -> dict[str, Any]:
    """Record hands with one client while ``clients`` others fetch PDFs, all for ``seconds``."""
    games = games_so_far(port)
    fetchers = [
        subprocess.Popen(
            [
                *(sys.executable, __file__, "pdf-client", "--port", str(port)),
                *("--seconds", str(seconds), "--seed", str(500 + i), "--pause", str(pause)),
                *("--games", str(games), "--night", str(night)),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(clients)
    ]
    time.sleep(1)  # the fetchers are asking already
    recorded = run_clients(port, 1, seconds=seconds - 1)[0]
    answers: dict[str, int] = {}
    took: list[float] = []
    for process in fetchers:
        out, _ = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a PDF client failed with status {process.returncode}")
        found = json.loads(out.strip().splitlines()[-1])
        for status, count in found["answers"].items():
            answers[status] = answers.get(status, 0) + count
        took += found["took"]
    return {
        "record": recorded["record"],
        "errors": recorded["errors"],
        "answers": answers,
        "took": took,
        "clients": clients,
        "seconds": seconds,
    }


def games_so_far(port: int) -> int:
    """How many games the server holds (the newest game's number: none are deleted here)."""
    client = Client(port)
    status, _, page = client.request("GET", "/history")
    numbers = [int(n) for n in re.findall(rb'href="/games/(\d+)"', page)]
    if status != 200 or not numbers:
        raise RuntimeError(f"the history answered {status} with no game")
    return max(numbers)


def run_clients(
    port: int, count: int, *, rounds: int = 0, seconds: float = 0, floor: bool = False
) -> list[dict[str, Any]]:
    """Start ``count`` client processes at once; wait for them; return what each measured."""
    args = ["--port", str(port), "--rounds", str(rounds), "--seconds", str(seconds)]
    processes = [
        subprocess.Popen(
            [sys.executable, __file__, "client", *args, "--seed", str(100 + i)]
            + (["--floor"] if floor else []),
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(count)
    ]
    found = []
    for process in processes:
        out, _ = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a benchmark client failed with status {process.returncode}")
        found.append(json.loads(out.strip().splitlines()[-1]))
    return found


# --- Measuring -------------------------------------------------------------------------------


def p99(samples: list[float]) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=100, method="inclusive")[98]


def measure(
    rounds: int = 300,
    seconds: float = 20,
    clients: int = 4,
    pdf_clients: int = 20,
    database_url: str | None = None,
    runs: int = 3,
) -> dict[str, Any]:
    """Serve the app from a fresh instance folder and run the measurements against it: on
    its own new SQLite file, or on a new schema of the PostgreSQL ``database_url``. The one
    client's ``rounds`` hands are recorded ``runs`` times over (each run with its own floor,
    interleaved), so a ratio to the floor can be given as the median of the runs'."""
    served_url = None
    if database_url is not None:
        databases.make_schema(database_url, SCHEMA, fresh=True)
        served_url = databases.in_schema(database_url, SCHEMA)
    with (
        tempfile.TemporaryDirectory(prefix="fullstack-bench-") as folder,
        served(Path(folder) / "instance", database_url=served_url) as (port, _pid),
    ):
        # Warm up: templates compiled, connections in the pool, code paths taken.
        run_clients(port, 1, rounds=20, floor=True)
        singles = [run_clients(port, 1, rounds=rounds, floor=True)[0] for _ in range(runs)]
        loaded = run_clients(port, clients, seconds=seconds)
        pdf_load, pdf_flood = None, None
        if pdf_clients:
            night = start_night(port)
            pdf_load = run_pdf_load(port, pdf_clients, seconds, PDF_PAUSE, night)
            pdf_flood = run_pdf_load(port, pdf_clients, seconds, 0.0, night)
    under_load = [t for found in loaded for t in found["record"]]
    return {
        "rounds": rounds,
        "record": [t for single in singles for t in single["record"]],
        "floor1": [t for single in singles for t in single["floor1"]],
        "floor2": [t for single in singles for t in single["floor2"]],
        "errors": [e for single in singles for e in single["errors"]],
        # Each run's median hand over its own median two-trip floor.
        "run_ratios": [
            statistics.median(single["record"]) / statistics.median(single["floor2"])
            for single in singles
        ],
        "load_clients": clients,
        "load_seconds": seconds,
        "load_record": under_load,
        "load_errors": [e for found in loaded for e in found["errors"]],
        "pdf_load": pdf_load,
        "pdf_flood": pdf_flood,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command")
    client = sub.add_parser("client", help=argparse.SUPPRESS)
    client.add_argument("--port", type=int, required=True)
    client.add_argument("--rounds", type=int, default=0)
    client.add_argument("--seconds", type=float, default=0)
    client.add_argument("--seed", type=int, default=1)
    client.add_argument("--floor", action="store_true")
    pdf_client = sub.add_parser("pdf-client", help=argparse.SUPPRESS)
    pdf_client.add_argument("--port", type=int, required=True)
    pdf_client.add_argument("--seconds", type=float, default=20)
    pdf_client.add_argument("--seed", type=int, default=1)
    pdf_client.add_argument("--games", type=int, required=True)
    pdf_client.add_argument("--night", type=int, required=True)
    pdf_client.add_argument("--pause", type=float, default=PDF_PAUSE)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--pdf-clients", type=int, default=20)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL") or None,
        help="a PostgreSQL database to record into instead of a SQLite file "
        "(default: $BENCH_DATABASE_URL; schema bench_stack, made afresh)",
    )
    args = parser.parse_args()
    if args.command == "client":
        client_main(args.port, args.rounds, args.seconds, args.seed, args.floor)
        return
    if args.command == "pdf-client":
        pdf_client_main(args.port, args.seconds, args.seed, args.games, args.night, args.pause)
        return
    found = measure(
        args.rounds, args.seconds, args.clients, args.pdf_clients, database_url=args.database_url
    )
    for name in ("record", "floor1", "floor2", "load_record"):
        samples = found[name]
        if not samples:  # no load asked for (--clients 0)
            continue
        print(
            f"{name:<12} n={len(samples):5d} median {statistics.median(samples):7.2f} ms"
            f"   p99 {p99(samples):7.2f} ms"
        )
    for name in ("pdf_load", "pdf_flood"):
        if found[name]:
            pdf = found[name]
            samples = pdf["record"]
            print(
                f"{name:<12} n={len(samples):5d} median {statistics.median(samples):7.2f} ms"
                f"   p99 {p99(samples):7.2f} ms   PDF answers {pdf['answers']}"
            )
    print(f"errors: {len(found['errors'])} single, {len(found['load_errors'])} under load")
    for error in (found["errors"] + found["load_errors"])[:5]:
        print("  ", error)


if __name__ == "__main__":
    main()
