"""Benchmark the printed sheets in the served app, against WeasyPrint alone on the same HTML.

Not a test. The games come from ``bench/pdf_bench.py`` (100 random games played through
the engine, one of them 60 hands long), written into a fresh instance folder that
``scorekeeper serve`` (waitress) then serves. Over HTTP, with keep-alive:

- ``GET /games/<id>/sheet.pdf`` for a typical game and for the 60-hand game, warmed up
  (the running app has WeasyPrint loaded and the print stylesheet parsed), many times;
- ``GET /history.pdf`` for all 100 games: the background job, polled to the end, and the
  download. Memory is the peak resident set of the server and all its children (the
  layout workers), sampled every 50 ms.

The floor runs in a fresh process with no app around it: WeasyPrint lays out the very
same HTML documents the app renders (taken from the app, with the same stylesheets:
``scorekeeper.pdf.render.write_pdf``, the call the app makes); for the history, the
same documents the app lays out (its parts of a few sheets each, the summary, the
page-number stamps), on the same number of processes, longest first, with no database,
no job and no merging.

A fixed reference runs in the same process: the HTML the app laid out before the sheets
were made lighter (``bench/pdf_reference/``: the same two sheets and the same history,
with the print stylesheet of then and WeasyPrint as it comes). It measures the machine,
not the code, so a run on a busy machine can still be compared with another: divide by it.

Each is asked turn about with the app (a sheet in the app, the same sheet alone, the old
one; the three histories back to back), so a busy moment on the machine hits all alike.

    .venv/bin/python bench/pdf_stack.py [--games 100] [--sheets 15]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import fullstack_bench  # noqa: E402  (a sibling script, not a package)
import pdf_bench  # noqa: E402

STATIC = ROOT / "static"
REFERENCE = HERE / "pdf_reference"


class TreeMemory:
    """Sample the resident memory of a process and all its descendants; keep the peak (MiB)."""

    def __init__(self, root: int, interval: float = 0.05) -> None:
        self.root = root
        self.interval = interval
        self.peak = 0.0
        self.start = pdf_bench.tree_rss_kib(root) / 1024
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, pdf_bench.tree_rss_kib(self.root) / 1024)
            self._stop.wait(self.interval)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, pdf_bench.tree_rss_kib(self.root) / 1024)


# --- In the served app -----------------------------------------------------------------------


def fetch_pdf(client: fullstack_bench.Client, path: str) -> bytes:
    status, response, body = client.request("GET", path)
    if status != 200 or not body.startswith(b"%PDF"):
        raise RuntimeError(f"{path} answered {status} {response.getheader('Content-Type')}")
    return body


def served_history(port: int, timeout: float = 300) -> tuple[float, int]:
    """Ask for the history PDF, poll its job to the end, download it: (seconds, bytes)."""
    client = fullstack_bench.Client(port)
    started = time.perf_counter()
    status, response, _ = client.request("GET", "/history.pdf")
    if status not in (302, 303):
        raise RuntimeError(f"/history.pdf answered {status}")
    job = urlsplit(response.headers["Location"]).path
    while True:
        status, _, body = client.request("GET", job + ".json")
        state = json.loads(body)
        if state["state"] == "done":
            break
        if state["state"] == "failed" or time.perf_counter() - started > timeout:
            raise RuntimeError(f"the history job did not finish: {state}")
        time.sleep(0.05)
    pdf = fetch_pdf(client, state["download"])
    return time.perf_counter() - started, len(pdf)


# --- The HTML the app lays out ---------------------------------------------------------------


def app_documents(url: str, sheet_ids: list[int], workers: int) -> dict[str, Any]:
    """The HTML strings the app renders: one sheet per id, and the history's documents."""
    from sqlalchemy import select

    from scorekeeper import create_app, operations
    from scorekeeper.data import models
    from scorekeeper.data.extensions import db
    from scorekeeper.pdf import history
    from scorekeeper.pdf import printed_sheet as sheet
    from scorekeeper.sheets.model import game_snapshot

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        sheets = {
            str(i): sheet.sheet_html(
                game_snapshot(operations.loading.load(i), chart=False), paper="letter"
            )
            for i in sheet_ids
        }
        ids = (
            db.session.execute(select(models.Game.id).order_by(models.Game.created_at.desc()))
            .scalars()
            .all()
        )
        views = [v for v in history.load_views(ids) if not isinstance(v, history.Unscorable)]
        parts = [
            sheet.sheets_html(group, paper="letter") for group in history.batches(views, workers)
        ]
        # The summary and the stamps as the app first guesses them (a page per sheet).
        owed = history.balances(views)
        guess = history.summary_pages_guess(len(views), len(owed))
        rows = [history.SummaryRow(v, None, guess + 1 + i) for i, v in enumerate(views)]
        summary = sheet.render_printed(
            "pdf/history.html",
            **sheet.document_context("letter"),
            title="Score history",
            filters="",
            rows=rows,
            finished=sum(1 for v in views if v.finished),
            playing=sum(1 for v in views if not v.finished),
            balances=owed,
            stakes=any(v.stake for v in views),
        )
        numbers = sheet.render_printed(
            "pdf/page_numbers.html", **sheet.document_context("letter"), pages=guess + len(views)
        )
        db.session.remove()
    return {"sheets": sheets, "history": [summary, *parts, numbers]}


# --- The floor: WeasyPrint alone -------------------------------------------------------------


def weasyprint_alone(html: str) -> int:
    """Lay out one HTML string as the app does (its stylesheets), nothing else; the PDF's size."""
    from scorekeeper.pdf.render import write_pdf

    return len(write_pdf(html, STATIC).pdf)


_OLD_CSS: Any = None


def reference_alone(html: str) -> int:
    """Lay out an HTML string of the fixed reference: WeasyPrint as it comes, the old CSS."""
    global _OLD_CSS
    from weasyprint import CSS, HTML

    if _OLD_CSS is None:
        _OLD_CSS = CSS(filename=str(REFERENCE / "old-print.css"))
    document = HTML(string=html).render(stylesheets=[_OLD_CSS], presentational_hints=False)
    return len(document.write_pdf())


def reference_documents() -> dict[str, Any]:
    with gzip.open(REFERENCE / "old-html.json.gz", "rt", encoding="utf-8") as handle:
        found: dict[str, Any] = json.load(handle)
    return found


def lay_out_all(documents: list[str], workers: int, alone: Any) -> tuple[float, float, int]:
    """Lay out documents on ``workers`` forked processes, longest first.

    Returns the seconds, the peak memory (MiB) and the PDFs' bytes in all.
    """
    fork = multiprocessing.get_context("fork")  # no threads here: fork is safe
    longest_first = sorted(documents, key=len, reverse=True)
    with TreeMemory(os.getpid()) as memory:
        started = time.perf_counter()
        if workers > 0:
            with concurrent.futures.ProcessPoolExecutor(workers, mp_context=fork) as pool:
                sizes = list(pool.map(alone, longest_first))
        else:
            sizes = [alone(html) for html in longest_first]
        seconds = time.perf_counter() - started
    return seconds, memory.peak, sum(sizes)


def floor_main(documents_file: str, workers: int) -> None:
    """In this fresh process, lay out what is asked on standard input; answer each with JSON.

    ``sheet <key>`` lays out one sheet as the app does, ``reference <key>`` the old HTML of
    the same sheet (``typical`` or ``long``); ``history`` and ``reference-history`` lay out
    the history's documents on ``workers`` processes; ``memory`` reports the peak memory
    so far. So the runner can interleave them with the app's own requests, and all see
    the same machine.
    """
    documents = json.loads(Path(documents_file).read_text())
    reference = reference_documents()
    for html in documents["sheets"].values():
        weasyprint_alone(html)  # warm: fonts loaded, stylesheets parsed
    for key in ("typical", "long"):
        reference_alone(reference[key])
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        command, _, key = line.strip().partition(" ")
        answer: dict[str, Any] = {}
        if command in ("sheet", "reference"):
            html = documents["sheets"][key] if command == "sheet" else reference[key]
            alone = weasyprint_alone if command == "sheet" else reference_alone
            started = time.perf_counter()
            answer["bytes"] = alone(html)
            answer["seconds"] = time.perf_counter() - started
        elif command == "memory":
            answer["maxrss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        elif command in ("history", "reference-history"):
            found = (
                lay_out_all(documents["history"], workers, weasyprint_alone)
                if command == "history"
                else lay_out_all(reference["history"], workers, reference_alone)
            )
            answer["seconds"], answer["peak_mib"], answer["bytes"] = found
        else:
            answer["error"] = f"unknown command {command!r}"
        print(json.dumps(answer), flush=True)


class Floor:
    """The floor's process, started once, asked one thing at a time."""

    def __init__(self, documents_file: Path, workers: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "floor", str(documents_file), "--workers", str(workers)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.ask("")  # wait for it to be ready

    def ask(self, command: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        if command:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the floor process ended (status {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


# --- Together --------------------------------------------------------------------------------


def sheets_side_by_side(
    port: int, floor: Floor, game_id: int, reference: str, runs: int, warm: int = 2
) -> tuple[list[float], list[float], list[float]]:
    """Print a game's sheet in the app, with WeasyPrint alone, and the old reference sheet,
    turn about: (app, floor, reference)."""
    client = fullstack_bench.Client(port)
    for _ in range(warm):
        fetch_pdf(client, f"/games/{game_id}/sheet.pdf")
    app, alone, old = [], [], []
    for _ in range(runs):
        started = time.perf_counter()
        fetch_pdf(client, f"/games/{game_id}/sheet.pdf")
        app.append(time.perf_counter() - started)
        alone.append(floor.ask(f"sheet {game_id}")["seconds"])
        old.append(floor.ask(f"reference {reference}")["seconds"])
    return app, alone, old


def measure(games: int = 100, sheets: int = 15, long_sheets: int = 5) -> dict[str, Any]:
    workers = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="pdf-stack-bench-") as folder:
        instance = Path(folder) / "instance"
        instance.mkdir()
        url = f"sqlite:///{instance / 'scorekeeper.sqlite3'}"
        previous = os.environ.get("SCOREKEEPER_INSTANCE")
        os.environ["SCOREKEEPER_INSTANCE"] = str(instance)
        try:
            started = time.perf_counter()
            made = pdf_bench.build_database(url, games, seed=4)
            built = time.perf_counter() - started
            documents = app_documents(url, [made["typical_id"], made["long_id"]], workers)
        finally:
            if previous is None:
                os.environ.pop("SCOREKEEPER_INSTANCE", None)
            else:
                os.environ["SCOREKEEPER_INSTANCE"] = previous
        documents_file = Path(folder) / "documents.json"
        documents_file.write_text(json.dumps(documents))
        floor = Floor(documents_file, workers)
        try:
            with fullstack_bench.served(instance) as (port, pid):
                with TreeMemory(pid) as sheet_memory:
                    typical, typical_floor, typical_old = sheets_side_by_side(
                        port, floor, made["typical_id"], "typical", sheets
                    )
                    long, long_floor, long_old = sheets_side_by_side(
                        port, floor, made["long_id"], "long", long_sheets, warm=1
                    )
                sheet_floor_mib = floor.ask("memory")["maxrss_mib"]
                # One history each, back to back (a history takes the whole machine).
                with TreeMemory(pid) as history_memory:
                    history_seconds, history_bytes = served_history(port)
            history_floor = floor.ask("history")
            history_old = floor.ask("reference-history")
        finally:
            floor.close()
    return {
        "games": games,
        "built_seconds": built,
        "workers": workers,
        "typical": typical,
        "long": long,
        "typical_floor": typical_floor,
        "long_floor": long_floor,
        "typical_reference": typical_old,
        "long_reference": long_old,
        "sheet_peak_mib": sheet_memory.peak,
        "sheet_floor_maxrss_mib": sheet_floor_mib,
        "history_seconds": history_seconds,
        "history_bytes": history_bytes,
        "history_peak_mib": history_memory.peak,
        "history_start_mib": history_memory.start,
        "history_floor_seconds": history_floor["seconds"],
        "history_floor_peak_mib": history_floor["peak_mib"],
        "history_reference_seconds": history_old["seconds"],
        "history_reference_peak_mib": history_old["peak_mib"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command")
    floor = sub.add_parser("floor", help=argparse.SUPPRESS)
    floor.add_argument("documents")
    floor.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--sheets", type=int, default=15)
    args = parser.parse_args()
    if args.command == "floor":
        floor_main(args.documents, args.workers)
        return
    found = measure(args.games, args.sheets)
    for key in (
        "typical",
        "typical_floor",
        "typical_reference",
        "long",
        "long_floor",
        "long_reference",
    ):
        print(
            f"{key:<18} median {statistics.median(found[key]):6.3f} s  max {max(found[key]):6.3f} s"
        )
    for key, value in found.items():
        if not isinstance(value, list):
            print(f"{key:<28} {value:.2f}" if isinstance(value, float) else f"{key:<28} {value}")
    # Against the fixed reference: how much of the old time the app takes now.
    for name, app, reference in (
        ("typical sheet", found["typical"], found["typical_reference"]),
        ("60-hand sheet", found["long"], found["long_reference"]),
        ("history", [found["history_seconds"]], [found["history_reference_seconds"]]),
    ):
        ratio = statistics.median(app) / statistics.median(reference)
        print(f"{name:<14} app / old reference {ratio:.2f}")


if __name__ == "__main__":
    main()
