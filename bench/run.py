"""Run every benchmark in one go; print one table, and write it to bench/results.md.

Not a test: it prints numbers, each beside its floor (the same work with nothing of
ours around it, measured in the same run so the ratio holds on a noisy machine) and
beside the target it is held to:

- engine: a 60-hand game scored (bench/engine_bench.py);
- events: a hall of 400 players seated for its next round, and its standings
  (bench/events_bench.py);
- recording a hand through the served app, alone and under load (bench/fullstack_bench.py);
- Save on a phone: Save -> the next hand's form ready, timed in Chromium's page
  (bench/save_bench.py);
- the printed sheets and the 100-game history (bench/pdf_stack.py);
- the history, player and night pages on a large database (bench/scale_pages.py);
- live boards: Save -> 20 open boards show the hand, recording with them open, and the
  server's memory and threads while they are held open (bench/live.py);
- a night on a small box: ``serve`` on one core, four tables saving at once with twenty
  boards open, the memory of the server and its PDF processes, and start-up
  (bench/small_box.py);
- crowds: recording a hand with 500 open pages, with 1,000 slow connections and under a
  PDF flood that ignores Retry-After, each as a ratio to idle in the same run, and the
  server's memory (bench/crowds.py; the club server's 500 pages too, on PostgreSQL);
- a hall of 100 tables: a 400-player progressive night under gunicorn on PostgreSQL, with
  400 phones, 100 table boards and 2 room boards open, hands at 2 a second (bench/hall.py;
  only with a PostgreSQL database).

Recording a hand and the pages run on SQLite and, when BENCH_DATABASE_URL (or
--database-url) names a PostgreSQL database, on it too: each of their rows is then
printed twice, the SQLite one above the PostgreSQL one, the part saying which database
(the schemas used are described in bench/databases.py).

    make bench                                   # everything, about 3-4 minutes on 2 cores
    .venv/bin/python bench/run.py --only engine,stack --scale-games 2000
    BENCH_DATABASE_URL=postgresql://user:password@127.0.0.1:5432/name make bench
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import databases  # noqa: E402  (a sibling script, not a package)

PARTS = (
    "engine",
    "events",
    "stack",
    "save",
    "pdf",
    "pages",
    "live",
    "smallbox",
    "crowds",
    "hall",
)


@dataclass
class Row:
    part: str
    what: str
    n: int | str
    median: str
    p99: str = ""
    floor: str = ""
    ratio: str = ""
    target: str = ""
    result: str = ""


#: Recording a hand may cost at most this many of the two-round-trip floor, as the median
#: of three runs' ratios (8x before a hand came in by one door; 5x before the caches woven
#: into the pages were taken out).
RECORD_FLOOR_TIMES = 6
#: Save -> the next hand's form ready on the saving phone, in the browser: its p95 (ms).
SAVE_P95_LIMIT = 250
#: Issue 14: recording a hand (POST + game page) with 20 boards open is no worse than the
#: 17.7 ms median the issue measured before them by more than 20 % (seconds). The ratio to
#: this run's own no-board median is shown beside it.
LIVE_RECORD_LIMIT = 0.0177 * 1.2


def p99(samples: Sequence[float]) -> float:
    if len(samples) < 2:
        return samples[0]
    return statistics.quantiles(samples, n=100, method="inclusive")[98]


def seconds(value: float) -> str:
    """A duration, in the unit that reads best."""
    if value < 0.01:
        return f"{value * 1000:.3f} ms"
    if value < 1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def verdict(ok: bool) -> str:
    return "**pass**" if ok else "**MISS**"


def ratio(value: float, floor: float) -> str:
    return f"{value / floor:.1f}x" if floor else ""


def failed_row(part: str, error: Exception) -> Row:
    return Row(part, f"failed: {type(error).__name__}: {error}"[:300], 0, "-")


# --- The parts -------------------------------------------------------------------------------


def engine_rows() -> list[Row]:
    import engine_bench

    engine, floor = engine_bench.measure()
    median, base = statistics.median(engine), statistics.median(floor)
    hands = engine_bench.HANDS
    return [
        Row(
            "Engine",
            f"score a {hands}-hand game",
            len(engine),
            seconds(median),
            seconds(p99(engine)),
            seconds(base) + " (a loop adding the deltas)",
            ratio(median, base),
            "< 1 ms median",
            verdict(median < 0.001),
        ),
        Row(
            "Engine",
            "throughput (hands scored per second)",
            len(engine),
            f"{hands / median:,.0f} /s",
            f"{hands / p99(engine):,.0f} /s",
            f"{hands / base:,.0f} /s",
            "",
            f"> {hands * 1000:,} /s (same as 1 ms)",
            verdict(hands / median > hands * 1000),
        ),
    ]


def events_rows() -> list[Row]:
    import events_bench

    rows = []
    for what, samples, goal in events_bench.measure():
        median = statistics.median(samples)
        rows.append(
            Row(
                "Events engine",
                what,
                len(samples),
                seconds(median),
                seconds(p99(samples)),
                target=f"< {seconds(goal)} median",
                result=verdict(median < goal),
            )
        )
    return rows


def on_each_database(
    rows_on: Callable[[str | None, str], list[Row]], database_url: str | None
) -> list[Row]:
    """A part's rows on SQLite and (with ``database_url``) PostgreSQL, side by side: each
    SQLite row followed by the same row measured on PostgreSQL."""
    sqlite = rows_on(None, databases.SQLITE)
    if database_url is None:
        return sqlite
    try:
        postgres = rows_on(database_url, databases.POSTGRESQL)
    except Exception as error:  # PostgreSQL failing still reports SQLite's rows
        traceback.print_exc()
        postgres = [failed_row(databases.POSTGRESQL, error)]
    if len(postgres) != len(sqlite):  # not the same rows (one side failed): one after the other
        return sqlite + postgres
    return [row for pair in zip(sqlite, postgres, strict=True) for row in pair]


def stack_rows(
    rounds: int,
    load_seconds: float,
    clients: int,
    database_url: str | None = None,
    label: str = databases.SQLITE,
) -> list[Row]:
    import fullstack_bench

    found = fullstack_bench.measure(rounds, load_seconds, clients, database_url=database_url)
    part = f"Record a hand ({label})"
    record = [t / 1000 for t in found["record"]]
    one = [t / 1000 for t in found["floor1"]]
    two = [t / 1000 for t in found["floor2"]]
    loaded = [t / 1000 for t in found["load_record"]]
    median, floor = statistics.median(record), statistics.median(two)
    runs = sorted(found["run_ratios"])
    times = statistics.median(runs)
    errors = len(found["errors"])
    load_errors = len(found["load_errors"])
    rows = [
        Row(
            part,
            f"POST hand form + redirect + game page (waitress, {label}, CSRF on), 1 client",
            len(record),
            seconds(median),
            seconds(p99(record)),
            seconds(floor) + " (2 x GET /healthz)",
            f"{times:.1f}x (median of {len(runs)} runs: "
            + ", ".join(f"{r:.1f}x" for r in found["run_ratios"])
            + ")",
            f"< 25 ms median; <= {RECORD_FLOOR_TIMES}x floor",
            verdict(median < 0.025 and times <= RECORD_FLOOR_TIMES and errors == 0)
            + ("" if not errors else f" ({errors} errors)"),
        ),
        Row(
            part,
            "floor: GET /healthz, same server and connection (1 round trip; a hand is 2)",
            len(one),
            seconds(statistics.median(one)),
            seconds(p99(one)),
            "",
            ratio(median, statistics.median(one)) + " (hand / 1 trip)",
            "",
            "",
        ),
    ]
    if loaded or load_errors:
        rows += [
            Row(
                part,
                f"under load: {clients} clients in {clients} games for {load_seconds:.0f} s "
                f"({len(loaded) / load_seconds:.1f} hands/s in all)",
                len(loaded),
                seconds(statistics.median(loaded)) if loaded else "-",
                seconds(p99(loaded)) if loaded else "-",
                seconds(median) + " (1 client)",
                ratio(statistics.median(loaded), median) if loaded else "",
                "",
                "",
            ),
            Row(
                part,
                "under load: errors (any answer but 302 then 200 showing the hand)",
                len(loaded) + load_errors,
                str(load_errors),
                "",
                "",
                "",
                "0",
                verdict(load_errors == 0),
            ),
        ]
    rows += pdf_load_rows(found, median, part)
    for error in (found["errors"] + found["load_errors"])[:3]:
        print(f"  error: {error[:300]}", file=sys.stderr)
    return rows


def save_rows(hands: int) -> list[Row]:
    import save_bench

    found = save_bench.measure(hands)
    times = found["times"]
    p95 = save_bench.p95(times)
    return [
        Row(
            "Save on a phone (SQLite)",
            "Save -> the next hand's form ready to tap, in Chromium at 390x844 (the page's "
            f"script; load average {found['load_before']:.2f} before)",
            len(times),
            seconds(statistics.median(times) / 1000),
            "p95 " + seconds(p95 / 1000),
            "",
            "",
            f"< {SAVE_P95_LIMIT} ms p95",
            verdict(p95 < SAVE_P95_LIMIT),
        )
    ]


def live_rows(hands: int, poll_hands: int) -> list[Row]:
    import live

    found = live.measure(hands, poll_hands)
    boards = found["boards"]
    part = f"Live boards ({boards} open, SQLite)"

    def ms(samples: list[float]) -> float:
        return statistics.median(samples) / 1000

    def p95(samples: list[float]) -> str:
        return "p95 " + seconds(live.p95(samples) / 1000)

    rows = []
    polled = found["waitress"]["polled"]["every"]
    for server, label in (("waitress", "serve (waitress)"), ("gunicorn", "gunicorn -k gthread")):
        every = found[server]["pushed"]["every"]
        errors = found[server]["pushed"]["errors"]
        rows.append(
            Row(
                part,
                f"Save -> every open board shows the hand: pushed, {label}",
                len(every),
                seconds(ms(every)),
                p95(every),
                seconds(ms(polled)) + " (polled)",
                ratio(ms(every), ms(polled)),
                "< 300 ms p95",
                verdict(live.p95(every) < 300 and not errors)
                + (f" ({len(errors)} errors)" if errors else ""),
            )
        )
    rows.append(
        Row(
            part,
            f"the same, polled as before (version.json every {live.POLL_SECONDS} s, then the page)",
            len(polled),
            seconds(ms(polled)),
            p95(polled),
            "",
            "",
            "",
            "",
        )
    )
    waitress = found["waitress"]
    for key, what in (("post", "POST hand form"), ("record", "POST hand form + game page")):
        alone = waitress[f"alone_{key}"]
        with_boards = waitress["pushed"][key]
        rows.append(
            Row(
                part,
                f"record a hand with {boards} boards open: {what} (waitress)",
                len(with_boards),
                seconds(ms(with_boards)),
                seconds(p99(with_boards) / 1000),
                seconds(ms(alone)) + " (no board)",
                ratio(ms(with_boards), ms(alone)),
                f"< {LIVE_RECORD_LIMIT * 1000:.1f} ms (17.7 ms + 20 %)" if key == "record" else "",
                verdict(ms(with_boards) < LIVE_RECORD_LIMIT) if key == "record" else "",
            )
        )
    for server, label in (("waitress", "serve (waitress)"), ("gunicorn", "gunicorn -w 1")):
        usage = found[server]["usage"]
        none, held = usage["none"], usage["open"]
        rows.append(
            Row(
                part,
                f"server memory (RSS) and threads, {boards} boards held open: {label}",
                boards,
                f"{held['rss_kib'] / 1024:.1f} MiB, {held['threads']} threads",
                "",
                f"{none['rss_kib'] / 1024:.1f} MiB, {none['threads']} threads (no board)",
                f"+{(held['rss_kib'] - none['rss_kib']) / 1024:.1f} MiB",
                "",
                "",
            )
        )
    return rows


def small_box_rows(rounds: int) -> list[Row]:
    import small_box

    found = small_box.measure(rounds)
    part = "Small box (serve on 1 core, SQLite)"
    hands = [t / 1000 for t in found["hands"]]
    errors = len(found["errors"])
    p95 = small_box.p95(hands)

    def mib(rss: float, pss: float) -> str:
        return f"{rss:.0f} MiB (PSS {pss:.0f})"

    rows = [
        Row(
            part,
            f"record a hand: {found['tables']} tables saving at once every "
            f"{small_box.ROUND_SECONDS} s, {found['boards']} boards open "
            "(POST + redirect + game page)",
            len(hands),
            seconds(statistics.median(hands)),
            "p95 " + seconds(p95),
            "",
            "",
            "< 100 ms p95",
            verdict(p95 < 0.1 and not errors) + (f" ({errors} errors)" if errors else ""),
        ),
        Row(
            part,
            "memory (RSS of the server and every process below it, added up): the night's "
            f"peak, nothing printing ({found['processes']} processes)",
            1,
            mib(found["night_rss"], found["night_pss"]),
            "",
            mib(found["idle_rss"], found["idle_pss"]) + " before the first hand, boards open",
            "",
            "< 200 MiB",
            verdict(found["night_rss"] < 200),
        ),
        Row(
            part,
            f"memory while one sheet prints (its game: {found['rounds']} hands, "
            f"laid out in {found['sheet_seconds']:.1f} s), boards open",
            1,
            mib(found["sheet_rss"], found["sheet_pss"]),
            "",
            mib(found["after_rss"], found["after_pss"])
            + " after it, the worker kept for the next sheet",
            "",
            "< 350 MiB",
            verdict(found["sheet_rss"] < 350),
        ),
    ]
    for key, what in (
        ("first_start", "start-up: serve to the first page, on a new data folder (migrations)"),
        ("start", "start-up: serve to the first page, its database there"),
    ):
        starts = found[key]
        rows.append(
            Row(
                part,
                what,
                len(starts),
                seconds(statistics.median(starts)),
                "max " + seconds(max(starts)),
                "",
                "",
                "< 3 s",
                verdict(max(starts) < 3),
            )
        )
    for error in found["errors"][:3]:
        print(f"  error: {error[:300]}", file=sys.stderr)
    return rows


#: Issue 30: 500 open pages leave recording a hand within 1.3x of idle at the median and 2x
#: at p95, the process under 300 MiB; a PDF flood that ignores Retry-After within 2x.
PAGES_MEDIAN_TIMES = 1.3
PAGES_P95_TIMES = 2.0
PAGES_MOST_MIB = 300
FLOOD_TIMES = 2.0


def crowd_rows(phase_seconds: float, database_url: str | None) -> list[Row]:
    import crowds

    found = crowds.measure(phase_seconds, database_url)

    def p95(samples: list[float]) -> float:
        return crowds.p95(samples) / 1000

    def median(samples: list[float]) -> float:
        return statistics.median(samples) / 1000

    idle = found["idle"]
    rows = [
        Row(
            "Crowds (serve, SQLite)",
            f"record a hand, nothing open around it (server {idle['rss']:.0f} MiB)",
            len(idle["record"]),
            seconds(median(idle["record"])),
            "p95 " + seconds(p95(idle["record"])),
        )
    ]

    def crowd_row(part: str, name: str, what: str, target: str, ok: Any) -> Row:
        got = found[name]
        record, base = got["record"], got["idle"]
        m, b = median(record), median(base)
        return Row(
            part,
            what.format(**got),
            len(record),
            seconds(m),
            "p95 " + seconds(p95(record)) + f" ({ratio(p95(record), p95(base))})",
            seconds(b) + " (idle, around it)",
            ratio(m, b),
            target,
            verdict(ok(m / b, p95(record) / p95(base), got.get("rss", 0.0))),
        )

    def pages_ok(m: float, p: float, rss: float) -> bool:
        return m <= PAGES_MEDIAN_TIMES and p <= PAGES_P95_TIMES and rss < PAGES_MOST_MIB

    pages_target = (
        f"<= {PAGES_MEDIAN_TIMES}x, p95 <= {PAGES_P95_TIMES:.0f}x, < {PAGES_MOST_MIB} MiB"
    )
    rows.append(
        crowd_row(
            "Crowds (serve, SQLite)",
            "pages",
            "record a hand with 500 open pages ({alive} streams heard, server {rss:.0f} MiB)",
            pages_target,
            pages_ok,
        )
    )
    rows.append(
        crowd_row(
            "Crowds (serve, SQLite)",
            "slow",
            "record a hand with 1,000 slow connections from 10 addresses ({open} open, "
            "{dropped} dropped and opened again; server {rss:.0f} MiB)",
            "records",
            lambda m, p, rss: True,
        )
    )
    answers = ", ".join(f"{n} x {s}" for s, n in sorted(found["flood"]["answers"].items()))
    rows.append(
        crowd_row(
            "Crowds (serve, SQLite)",
            "flood",
            "record a hand while 20 clients fetch PDFs as fast as answered, Retry-After "
            f"ignored (answered: {answers}; server {{rss:.0f}} MiB)",
            f"<= {FLOOD_TIMES:.0f}x",
            lambda m, p, rss: m <= FLOOD_TIMES,
        )
    )
    if "club_pages" in found:
        club = found["club_idle"]
        rows.append(
            Row(
                "Crowds (club: gunicorn -k gevent -w 2, PostgreSQL)",
                f"record a hand, nothing open around it (largest worker {club['rss']:.0f} MiB)",
                len(club["record"]),
                seconds(median(club["record"])),
                "p95 " + seconds(p95(club["record"])),
            )
        )
        rows.append(
            crowd_row(
                "Crowds (club: gunicorn -k gevent -w 2, PostgreSQL)",
                "club_pages",
                "record a hand with 500 open pages ({alive} streams heard, largest worker "
                "{rss:.0f} MiB)",
                pages_target,
                pages_ok,
            )
        )
    return rows


def pdf_load_rows(found: dict[str, Any], alone: float, part: str) -> list[Row]:
    """Recording a hand while 20 clients fetch PDFs (issue 19: within 2x its median alone)."""
    rows = []
    for name, how, target in (
        ("pdf_load", "a PDF a second each, Retry-After honoured", "<= 2x 1 client"),
        ("pdf_flood", "as fast as answered, Retry-After ignored (a flood)", ""),
    ):
        pdf = found.get(name)
        if not pdf or not pdf["record"]:
            continue
        record = [t / 1000 for t in pdf["record"]]
        median = statistics.median(record)
        answers = ", ".join(
            f"{count} x {status}" for status, count in sorted(pdf["answers"].items())
        )
        errors = len(pdf["errors"])
        rows.append(
            Row(
                part,
                f"while {pdf['clients']} clients fetch sheet and night PDFs, {how} "
                f"(answered: {answers})",
                len(record),
                seconds(median),
                seconds(p99(record)),
                seconds(alone) + " (1 client)",
                ratio(median, alone),
                target,
                (verdict(median <= 2 * alone and errors == 0) if target else "")
                + ("" if not errors else f" ({errors} errors)"),
            )
        )
    return rows


def hall_rows(database_url: str | None, seconds_: float) -> list[Row]:
    import hall

    if not database_url:
        return [Row("Hall", "skipped: the hall runs on PostgreSQL (--database-url)", 0, "")]
    found = hall.measure(database_url, seconds_)
    for error in found["errors"]:
        print(f"  hall: {error}", file=sys.stderr)
    saves, boards = found["saves"], found["boards"]
    part = f"Hall ({hall.TABLES} tables, gunicorn -w {hall.WORKERS} -k gevent, PostgreSQL)"
    errors = len(found["errors"])
    pages = found["pages_after"] or found["pages"]
    rooms = ", ".join(how for how, _fetches, _errors in found["rooms"])
    opened = (
        f"{pages.get('streamed', 0)} pages streamed, {pages.get('polled', 0)} polling "
        f"(streams refused 503), room boards {rooms}; load average "
        f"{found['load_during']} during, {found['load_after']} after"
    )
    memory = found["memory"]["rss_kib"] / 1024
    return [
        Row(
            part,
            f"hand save (POST + game page) at 2/s in all, {opened}",
            len(saves),
            seconds(statistics.median(saves)) if saves else "-",
            "p95 " + seconds(hall.p(saves, 95)) if saves else "",
            target="p95 < 150 ms",
            result=verdict(bool(saves) and hall.p(saves, 95) < 0.150)
            + ("" if not errors else f" ({errors} errors)"),
        ),
        Row(
            part,
            "Save's answer -> both room boards' pages (fetched on their event's stream) show "
            "the table's new count of hands, and the standings drawn with it",
            len(boards),
            seconds(statistics.median(boards)) if boards else "-",
            "p95 " + seconds(hall.p(boards, 95)) if boards else "",
            target="p95 < 1 s",
            result=verdict(bool(boards) and hall.p(boards, 95) < 1.0),
        ),
        Row(
            part,
            f"start next round for {hall.PLAYERS} players (progressive movement, "
            f"{hall.TABLES} games); round 1 took {seconds(found['round_1'])}; load average "
            f"{found['load_next_round']}",
            1,
            seconds(found["next_round"]),
            target="< 2 s",
            result=verdict(found["next_round"] < 2.0),
        ),
        Row(
            part,
            "server memory, every gunicorn process (resident), pages open",
            1,
            f"{memory:.0f} MiB",
            target="< 1 GiB",
            result=verdict(memory < 1024),
        ),
    ]


def pdf_rows(games: int, sheets: int) -> list[Row]:
    import pdf_stack

    found = pdf_stack.measure(games, sheets, long_sheets=max(2, sheets // 4))
    typical, typical_floor = found["typical"], found["typical_floor"]
    long, long_floor = found["long"], found["long_floor"]
    history, history_floor = found["history_seconds"], found["history_floor_seconds"]
    peak, floor_peak = found["history_peak_mib"], found["history_floor_peak_mib"]
    return [
        Row(
            "PDF",
            "score sheet of a typical game (GET /games/<id>/sheet.pdf, running app)",
            len(typical),
            seconds(statistics.median(typical)),
            seconds(p99(typical)),
            seconds(statistics.median(typical_floor)) + " (WeasyPrint alone, same HTML)",
            ratio(statistics.median(typical), statistics.median(typical_floor)),
            "< 0.5 s",
            verdict(statistics.median(typical) < 0.5),
        ),
        Row(
            "PDF",
            "score sheet of a 60-hand game",
            len(long),
            seconds(statistics.median(long)),
            seconds(p99(long)),
            seconds(statistics.median(long_floor)) + " (WeasyPrint alone)",
            ratio(statistics.median(long), statistics.median(long_floor)),
            "",
            "",
        ),
        Row(
            "PDF",
            "sheets: peak memory of the server (and children) while printing them",
            1,
            f"{found['sheet_peak_mib']:.0f} MiB",
            "",
            f"{found['sheet_floor_maxrss_mib']:.0f} MiB (WeasyPrint alone)",
            ratio(found["sheet_peak_mib"], found["sheet_floor_maxrss_mib"]),
            "",
            "",
        ),
        Row(
            "PDF",
            f"{games}-game history (GET /history.pdf, background job on "
            f"{found['workers']} workers, polled, downloaded)",
            1,
            seconds(history),
            "",
            seconds(history_floor)
            + f" (WeasyPrint alone, same HTML, {found['workers']} processes)",
            ratio(history, history_floor),
            "< 15 s",
            verdict(history < 15),
        ),
        Row(
            "PDF",
            f"{games}-game history: peak memory, server and its workers "
            f"({found['history_start_mib']:.0f} MiB before)",
            1,
            f"{peak:.0f} MiB",
            "",
            f"{floor_peak:.0f} MiB (WeasyPrint alone)",
            ratio(peak, floor_peak),
            "< 500 MB",
            verdict(peak * 1.048576 < 500),
        ),
    ]


def page_rows(
    games: int, budget: float, database_url: str | None = None, label: str = databases.SQLITE
) -> list[Row]:
    import scale_pages

    found = scale_pages.measure(games, budget, database_url)
    part = f"Pages ({label})"
    floor = statistics.median(found["floor"]) / 1000
    size = f"{found['games']:,} games, {found['hands']:,} hands, {found['nights']:,} nights"
    rows = [
        Row(
            part,
            f"floor: GET /healthz (test client, in process; database of {size})",
            len(found["floor"]),
            seconds(floor),
            seconds(p99(found["floor"]) / 1000),
        )
    ]
    for name, timings in found["pages"].items():
        median = statistics.median(timings) / 1000
        rows.append(
            Row(
                part,
                f"{name} on {found['games']:,} games",
                len(timings),
                seconds(median),
                seconds(p99(timings) / 1000),
                seconds(floor) + " (/healthz)",
                ratio(median, floor),
                "< 100 ms median",
                verdict(median < 0.1),
            )
        )
    edit = found["edit"]
    rows.append(
        Row(
            part,
            f"correct a hand on {found['games']:,} games (operations.hands.replace_hand: replay, "
            "write, statistics cache; in process)",
            edit["n"],
            seconds(edit["median_ms"] / 1000),
            seconds(edit["p99_ms"] / 1000),
        )
    )
    return rows


# --- The table -------------------------------------------------------------------------------

COLUMNS = ("part", "what", "n", "median", "p99", "floor (median)", "ratio", "target", "result")


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| " + " | ".join(COLUMNS) + " |",
        "|---|---|--:|--:|--:|---|--:|---|---|",
    ]
    for row in rows:
        cells = [
            row.part,
            row.what,
            str(row.n),
            row.median,
            row.p99,
            row.floor,
            row.ratio,
            row.target,
            row.result,
        ]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def commit() -> str:
    try:
        found = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return found + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(PARTS), help=f"parts to run, of {PARTS}")
    parser.add_argument("--rounds", type=int, default=300, help="hands recorded by one client")
    parser.add_argument("--load-seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--pdf-games", type=int, default=100)
    parser.add_argument("--sheets", type=int, default=10, help="sheets printed per measure")
    parser.add_argument(
        "--scale-games",
        type=int,
        default=int(os.environ.get("BENCH_SCALE_GAMES", "10000")),
        help="games in the database of the page benchmark (kept in instance/bench/)",
    )
    parser.add_argument("--page-seconds", type=float, default=4, help="sampling time per page")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL") or None,
        help="a PostgreSQL database (postgresql://user:password@host:port/name) on which the "
        "stack and pages parts run too, beside SQLite (default: $BENCH_DATABASE_URL). It "
        "gets the schemas bench_stack (made afresh each run) and bench_scale_<games> "
        "(seeded once, kept)",
    )
    parser.add_argument(
        "--save-hands", type=int, default=60, help="hands saved in the browser (save)"
    )
    parser.add_argument("--live-hands", type=int, default=40, help="hands saved to live boards")
    parser.add_argument(
        "--live-poll-hands", type=int, default=15, help="hands saved to polling boards"
    )
    parser.add_argument(
        "--small-box-rounds", type=int, default=60, help="rounds of four hands on one core"
    )
    parser.add_argument(
        "--crowd-seconds", type=float, default=8, help="seconds recording in each crowd phase"
    )
    parser.add_argument("--hall-seconds", type=float, default=60, help="hands at 2/s in the hall")
    parser.add_argument("--out", type=Path, default=HERE / "results.md")
    args = parser.parse_args(argv)
    chosen = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = set(chosen) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}; choose from {PARTS}")

    runs: dict[str, Callable[[], list[Row]]] = {
        "engine": engine_rows,
        "events": events_rows,
        "stack": lambda: on_each_database(
            lambda url, label: stack_rows(args.rounds, args.load_seconds, args.clients, url, label),
            args.database_url,
        ),
        "save": lambda: save_rows(args.save_hands),
        "pdf": lambda: pdf_rows(args.pdf_games, args.sheets),
        "live": lambda: live_rows(args.live_hands, args.live_poll_hands),
        "smallbox": lambda: small_box_rows(args.small_box_rounds),
        "crowds": lambda: crowd_rows(args.crowd_seconds, args.database_url),
        "hall": lambda: hall_rows(args.database_url, args.hall_seconds),
        "pages": lambda: on_each_database(
            lambda url, label: page_rows(args.scale_games, args.page_seconds, url, label),
            args.database_url,
        ),
    }
    started = time.perf_counter()
    load_before = os.getloadavg()
    rows: list[Row] = []
    took: list[str] = []
    for part in chosen:
        print(f"running {part} ...", file=sys.stderr, flush=True)
        part_started = time.perf_counter()
        try:
            rows += runs[part]()
        except Exception as error:  # one part failing still reports the others
            traceback.print_exc()
            rows.append(failed_row(part, error))
        took.append(f"{part} {time.perf_counter() - part_started:.0f} s")
        print(f"  {took[-1]}", file=sys.stderr, flush=True)
    total = time.perf_counter() - started
    load_after = os.getloadavg()
    header = [
        f"# Benchmarks ({datetime.now():%Y-%m-%d %H:%M})",
        "",
        f"{os.cpu_count()} cores; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; Python {platform.python_version()}; commit {commit()}. "
        f"Ran in {total:.0f} s ({', '.join(took)}). "
        "Medians and 99th percentiles of wall-clock time; each floor was measured in the "
        "same run, interleaved where it could be."
        + (f" PostgreSQL: {databases.describe(args.database_url)}." if args.database_url else ""),
        "",
    ]
    text = "\n".join(header) + "\n" + table(rows) + "\n"
    args.out.write_text(text)
    print(text)
    print(
        f"(written to {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
