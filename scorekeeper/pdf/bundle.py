"""A printed history: a summary table, then every game's sheet, numbered as one document.

Laying out is the slow part (WeasyPrint does 3-4 pages a second here), so the sheets
are laid out a few at a time as separate documents, in a pool of worker processes
(one per core), and the parts are put together with pypdf. Page numbers ("page 7 of
112") can only be known once every part is laid out, so the parts leave them out and
a last, quick document of bare page numbers is stamped over the merged pages. Each
sheet's first page is found by its element id, so the summary can say where it is.
"""

from __future__ import annotations

import functools
import logging
import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from .. import operations, rules
from ..extensions import db
from ..games.snapshot import GameView, game_snapshot
from .render import Printed, merge, write_pdf
from .sheet import document_context, render_printed, sheet_anchor, sheets_html

log = logging.getLogger(__name__)

#: Sheets laid out together in one WeasyPrint document (measured: 15-25 % less CPU than
#: one document each; more to a document saves little more and slows the progress bar).
SHEETS_PER_DOCUMENT = 5

#: Called as work goes on: (steps done, steps in all, what is being done now).
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Unscorable:
    """A stored game that no longer replays (kept in the summary, with the engine's message)."""

    id: int
    message: str


@dataclass(frozen=True)
class Balance:
    """One player's net over the printed games: units and money received (negative: paid)."""

    player: str
    units: int
    money: Decimal | None


@dataclass(frozen=True)
class SummaryRow:
    game: GameView | None
    unscorable: Unscorable | None
    first_page: int | None


def load_views(game_ids: Sequence[int]) -> Iterator[GameView | Unscorable]:
    """Load and replay the games, in the order given (needs an app context)."""
    for game_id in game_ids:
        try:
            yield game_snapshot(operations.load(game_id))
        except operations.NotFound:
            continue  # deleted since the list was made: nothing to print
        except rules.RuleError as error:
            yield Unscorable(game_id, str(error))


def balances(games: Sequence[GameView]) -> tuple[Balance, ...]:
    """Net every finished game's payments per player: who is up, who is down."""
    units: dict[str, int] = {}
    money: dict[str, Decimal] = {}
    for game in games:
        for payment in game.payments:
            units[payment.payer] = units.get(payment.payer, 0) - payment.units
            units[payment.payee] = units.get(payment.payee, 0) + payment.units
            if payment.amount is not None:
                money[payment.payer] = money.get(payment.payer, Decimal(0)) - payment.amount
                money[payment.payee] = money.get(payment.payee, Decimal(0)) + payment.amount
    return tuple(
        Balance(player, units[player], money.get(player))
        for player in sorted(units, key=lambda p: (-units[p], p))
    )


@functools.cache
def _pool_context() -> multiprocessing.context.BaseContext:
    """Worker processes come from a fork server that has WeasyPrint loaded already.

    Not a plain fork: the web process runs threads and holds database connections,
    and a forked copy of those is unsafe. The fork server is a fresh process.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["scorekeeper.pdf.render", "weasyprint"])
    return context


def worker_count(setting: int | None) -> int:
    """How many processes lay out parts: the PDF_WORKERS setting, else one per core."""
    if setting is None:
        return os.cpu_count() or 1
    return max(0, int(setting))


def batches(games: Sequence[GameView], workers: int) -> list[list[GameView]]:
    """Group the sheets into documents: a few to each, and at least two documents per worker.

    Each WeasyPrint document has a fixed cost (styles, fonts, writing the PDF), so a
    few sheets laid out together take less time than each on its own; more documents
    than workers keep every worker busy to the end, and the progress bar moving.
    """
    if not games:
        return []
    size = max(1, min(SHEETS_PER_DOCUMENT, math.ceil(len(games) / (2 * max(1, workers)))))
    return [list(games[i : i + size]) for i in range(0, len(games), size)]


def lay_out(
    documents: Sequence[str], static_folder: str, workers: int, done: Callable[[int], None]
) -> list[Printed]:
    """Lay out every HTML document, on ``workers`` processes (0: here, one after another).

    ``done`` is called with each document's index as it is finished.
    """
    if workers <= 0 or len(documents) <= 1:
        printed = []
        for i, html in enumerate(documents):
            printed.append(write_pdf(html, static_folder))
            done(i)
        return printed
    results: list[Printed | None] = [None] * len(documents)
    try:
        with ProcessPoolExecutor(
            max_workers=min(workers, len(documents)), mp_context=_pool_context()
        ) as pool:
            pending: dict[Future[Printed], int] = {
                pool.submit(write_pdf, html, static_folder): i for i, html in enumerate(documents)
            }
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    results[i] = future.result()
                    done(i)
    except (BrokenProcessPool, RuntimeError, OSError):
        # A worker died or could not start (multiprocessing re-imports the main module in
        # its workers; a main script without an ``if __name__ == "__main__"`` guard breaks
        # that). Slower is better than nothing: lay out what is missing right here.
        log.warning("the layout workers failed; laying out in this process", exc_info=True)
    for i, html in enumerate(documents):
        if results[i] is None:
            results[i] = write_pdf(html, static_folder)
            done(i)
    return [r for r in results if r is not None]


def history_pdf(
    game_ids: Sequence[int],
    *,
    paper: str,
    title: str,
    filters: str,
    static_folder: str | Path,
    workers: int,
    progress: Progress,
) -> bytes:
    """Print the games ``game_ids`` (in that order) as one history PDF (needs an app context)."""
    static = str(static_folder)
    progress(0, len(game_ids) + 2, "Reading the games")
    views = list(load_views(game_ids))
    # Everything is read: end the read transaction and give the connection back now,
    # not after the half minute of layout (a long-open read holds back SQLite's WAL).
    db.session.remove()
    games = [v for v in views if isinstance(v, GameView)]
    total = len(games) + 2
    groups = batches(games, workers)
    documents = [sheets_html(group, paper=paper) for group in groups]

    laid = 0

    def finished(index: int) -> None:
        nonlocal laid
        laid += len(groups[index])
        progress(laid, total, f"Laid out {laid} of {len(games)} score sheets")

    progress(0, total, f"Laying out {len(games)} score sheets")
    parts = lay_out(documents, static, workers, finished)

    # Where each sheet starts, counting from the first page after the summary (from 0).
    starts: dict[int, int] = {}
    offset = 0
    for group, part in zip(groups, parts, strict=True):
        for game in group:
            starts[game.id] = offset + part.anchors[sheet_anchor(game.id)]
        offset += part.pages

    progress(len(games), total, "Laying out the summary")
    summary = _summary(views, starts, paper=paper, title=title, filters=filters, static=static)
    progress(len(games) + 1, total, "Numbering the pages")
    numbers = write_pdf(
        render_printed(
            "pdf/page_numbers.html", **document_context(paper), pages=summary.pages + offset
        ),
        static,
    )
    pdf = merge([summary.pdf, *(p.pdf for p in parts)], numbers=numbers.pdf, title=title)
    progress(total, total, "Done")
    return pdf


def _summary(
    views: Sequence[GameView | Unscorable],
    starts: Mapping[int, int],
    *,
    paper: str,
    title: str,
    filters: str,
    static: str,
) -> Printed:
    """Lay out the summary, with the page each game's sheet starts on.

    Those page numbers depend on how long the summary itself is, so it is laid out
    again if its first guess at its own length was wrong (the page column has a fixed
    width, so the second layout has the same length).
    """
    games = [v for v in views if isinstance(v, GameView)]
    owed = balances(games)
    # About 30 rows fit a page (measured: 100 games and their balances take 4 pages); a
    # good first guess saves the second layout.
    guess = 1 + (len(views) + len(owed) // 2) // 30
    for _ in range(3):
        rows = [
            SummaryRow(view, None, guess + 1 + starts[view.id])
            if isinstance(view, GameView)
            else SummaryRow(None, view, None)
            for view in views
        ]
        html = render_printed(
            "pdf/history.html",
            **document_context(paper),
            title=title,
            filters=filters,
            rows=rows,
            finished=sum(1 for g in games if g.finished),
            playing=sum(1 for g in games if not g.finished),
            balances=owed,
            stakes=any(g.stake for g in games),
        )
        printed = write_pdf(html, static)
        if printed.pages == guess:
            return printed
        guess = printed.pages
    return printed
