"""A printed history: a summary table, then every game's sheet, numbered as one document.

Laying out is the slow part (WeasyPrint does 4-5 pages a second a core here), so the
sheets are laid out a few at a time as separate documents, in a pool of worker
processes (one per core), and the parts are put together with pypdf. Page numbers
("page 7 of 112") can only be known once every part is laid out, so the parts leave
them out and a document of bare page numbers is stamped over the merged pages. Each
sheet's first page is found by its element id, so the summary can say where it is; the
summary and the page numbers are laid out early, for the lengths the sheets surely
have, and again only if one turns out otherwise (see ``history_pdf``).

Everything with words in it (the HTML, the page-number stamps) is rendered in this
process, in the current language; the worker processes only lay out finished HTML.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from .. import i18n, operations, rules
from ..data.database import read_then_release
from ..i18n import N_
from ..rules.night import game_shares, settle_night
from ..rules.settlement import Payment, Settlement
from ..sheets.model import GameView, game_snapshot
from .jobs import Progress
from .pool import Layout
from .printed_sheet import document_context, render_printed, sheet_anchor, sheets_html
from .render import Printed, merge, read_pdf

if TYPE_CHECKING:
    from pypdf import PdfReader

#: Sheets laid out together in one WeasyPrint document (measured: 15-25 % less CPU than
#: one document each; more to a document saves little more and slows the progress bar).
SHEETS_PER_DOCUMENT = 5


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

    @property
    def standing(self) -> str:
        """``up``, ``down`` or ``even``: by money where the player played for a stake (a unit
        is worth what the game's stake says, so units from different games do not add up to
        who won), else by units."""
        net = self.money if self.money is not None else self.units
        return "up" if net > 0 else "down" if net < 0 else "even"


@dataclass(frozen=True)
class SummaryRow:
    game: GameView | None
    unscorable: Unscorable | None
    first_page: int | None


def load_views(game_ids: Sequence[int]) -> Iterator[GameView | Unscorable]:
    """Load and replay the games, in the order given (needs an app context)."""
    for game_id in game_ids:
        try:
            yield game_snapshot(
                operations.loading.load(game_id), chart=False
            )  # a history draws none
        except operations.errors.NotFound:
            continue  # deleted since the list was made: nothing to print
        except rules.RuleError as error:
            yield Unscorable(game_id, i18n.error_message(error))


def balances(games: Sequence[GameView]) -> tuple[Balance, ...]:
    """Net every finished game's settlement per player: who is up, who is down.

    The netting is the engine's, as the night page's is (``rules.night.settle_night``, in
    exact decimals); this only orders the players and says who played for no stake.
    """
    settlements = [_settlement(game) for game in games if game.finished]
    shares = [game_shares(settlement) for settlement in settlements if settlement.units]
    night = settle_night(shares)
    # A player who played only for no stake has no money to show, not 0.00.
    staked = {player for share in shares for player, s in share.items() if s.money is not None}

    def money(player: str) -> Decimal | None:
        return night.money[player] if player in staked else None

    # Where anything was played for money, money decides who is up: +1 unit over the night
    # can be -2.00 (a unit lost at a stake of 2, two won for nothing).
    if night.in_money:
        order = sorted(night.units, key=lambda p: (-(money(p) or Decimal(0)), -night.units[p], p))
    else:
        order = sorted(night.units, key=lambda p: (-night.units[p], p))
    return tuple(Balance(player, night.units[player], money(player)) for player in order)


def _settlement(game: GameView) -> Settlement:
    """The engine's settlement of a game, from the copy of it its snapshot carries."""
    return Settlement(
        units=dict(game.units),
        payments=tuple(Payment(p.payer, p.payee, p.units, p.amount) for p in game.payments),
    )


def sheet_cost(game: GameView) -> int:
    """About how long a sheet takes to lay out, in table cells' worth (what WeasyPrint's
    time goes by): its header and result, then a row of cells per hand."""
    return 40 + len(game.rows) * (5 + len(game.sides))


def batches(games: Sequence[GameView], workers: int) -> list[list[GameView]]:
    """Group the sheets, in order, into documents of about the same layout time.

    Each WeasyPrint document has a fixed cost (styles, fonts, writing the PDF), so a
    few sheets laid out together take less time than each on its own. There are at
    least two documents per worker, so every worker keeps busy to the end and the
    progress bar moves; they are cut by cost, not by count, so that no document of
    long games keeps one worker going while the others wait; and the last few are
    half as long, so that the workers, given the longest first, end close together.
    """
    if not games:
        return []
    workers = max(1, workers)
    count = min(max(math.ceil(len(games) / SHEETS_PER_DOCUMENT), 2 * workers), len(games))
    shares = [1.0] * count
    if count > 4 * workers:
        shares[-2 * workers :] = [0.5] * (2 * workers)
    costs = [sheet_cost(game) for game in games]
    unit = sum(costs) / sum(shares)
    ends = list(itertools.accumulate(share * unit for share in shares))
    groups: list[list[GameView]] = [[]]
    spent = 0.0
    for game, cost in zip(games, costs, strict=True):
        # Close the group when this sheet would take it further past its end than short.
        if groups[-1] and spent + cost / 2 > ends[len(groups) - 1] and len(groups) < count:
            groups.append([])
        groups[-1].append(game)
        spent += cost
    return groups


#: A sheet of at most this many lines of hands (a sale takes two), notes of at most this
#: many characters in all, and names of at most this many, is surely one page long
#: (measured on US Letter, the shorter paper, at seven players, after a game night's
#: name: 12 lines fit with names of 20 characters, 8 with names of 40).
ONE_PAGE_LINES = 10
ONE_PAGE_NOTES = 200
ONE_PAGE_NAME = 20


def fits_one_page(game: GameView) -> bool:
    """Whether a game's sheet surely takes one page, and no more: a guess on the safe side
    (and if it is ever wrong, the summary is laid out again, later)."""
    lines = sum(2 if row.sale else 1 for row in game.rows)
    notes = sum(len(row.note or "") for row in game.rows)
    return (
        lines <= ONE_PAGE_LINES
        and notes <= ONE_PAGE_NOTES
        and max(len(name) for name in game.players) <= ONE_PAGE_NAME
    )


def _page_starts(
    groups: Sequence[Sequence[GameView]], parts: Mapping[int, Printed]
) -> tuple[dict[int, int], int]:
    """Where each sheet starts, counting from the first page after the summary (from 0),
    and the sheets' pages in all; a part not laid out yet is taken as a page a sheet."""
    starts: dict[int, int] = {}
    offset = 0
    for index, group in enumerate(groups):
        part = parts.get(index)
        for number, game in enumerate(group):
            starts[game.id] = offset + (
                part.anchors[sheet_anchor(game.id)] if part is not None else number
            )
        offset += part.pages if part is not None else len(group)
    return starts, offset


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
    """Print the games ``game_ids`` (in that order) as one history PDF (needs an app context).

    The summary names the page each sheet starts on, and the page numbers say how many
    pages there are, so both wait for the sheets' lengths. Most sheets are surely one
    page (``fits_one_page``); once every part that might be longer is laid out, the
    summary and the page numbers are laid out for the lengths expected, beside the last
    sheets instead of after them, and again after them only if a length was not as
    expected.
    """
    static = str(static_folder)
    progress(0, len(game_ids) + 2, N_("Reading the games"))
    with Layout(static, workers) as layout:
        # Everything is read first: the connection goes back now, not after the half
        # minute of layout.
        views = read_then_release(lambda: list(load_views(game_ids)))
        games = [v for v in views if isinstance(v, GameView)]
        total = len(games) + 2
        groups = batches(games, workers)
        sure = [all(fits_one_page(game) for game in group) for group in groups]
        ending = _Ending(views, paper=paper, title=title, filters=filters)

        # Parts that may be longer than a page a sheet first (the sooner their lengths are
        # known, the sooner the summary can be laid out), then the longest first, so that
        # the workers end together, on short ones. Each is handed out once rendered.
        progress(0, total, N_("Laying out %(all)s score sheets"), all=len(games))
        costs = [sum(sheet_cost(game) for game in group) for group in groups]
        for index in sorted(range(len(groups)), key=lambda i: (sure[i], -costs[i])):
            layout.add(index, sheets_html(groups[index], paper=paper))
        parts: dict[int, Printed] = {}
        # Each part's PDF is read as it comes back, while the workers lay out the others.
        readers: dict[Hashable, PdfReader] = {}
        expected: tuple[dict[int, int], int] | None = None
        laid = 0
        while len(parts) < len(groups) or (expected is not None and len(ending.done) < 2):
            if (
                expected is None
                and layout.parallel
                and all(p in parts or sure[p] for p in range(len(groups)))
            ):
                expected = _page_starts(groups, parts)
                for key, html in reversed(ending.documents(*expected).items()):
                    layout.add(key, html, first=True)
            key, printed = layout.next_done()
            readers[key] = read_pdf(printed.pdf)
            if isinstance(key, int):
                parts[key] = printed
                laid += len(groups[key])
                progress(
                    laid,
                    total,
                    N_("Laid out %(done)s of %(all)s score sheets"),
                    done=laid,
                    all=len(games),
                )
            else:
                ending.done[key] = printed
        progress(len(games), total, N_("Laying out the summary"))
        found = _page_starts(groups, parts)
        summary, numbers = ending.settle(layout, *found, expected_right=expected == found)
    progress(len(games) + 1, total, N_("Numbering the pages"))
    ordered: list[bytes | PdfReader] = [summary.pdf, *(readers[i] for i in range(len(groups)))]
    pdf = merge(ordered, numbers=numbers.pdf, title=title)
    progress(total, total, N_("Done"))
    return pdf


def summary_pages_guess(rows: int, balances: int) -> int:
    """How many pages the summary takes, to a first guess (measured: about 30 rows fit a
    page, and the balances, in a narrower table, about 60)."""
    return 1 + (rows + balances // 2) // 30


class _Ending:
    """The summary and the page-number stamps of a history, for given sheet lengths."""

    def __init__(
        self, views: Sequence[GameView | Unscorable], *, paper: str, title: str, filters: str
    ) -> None:
        self.views, self.paper, self.title, self.filters = views, paper, title, filters
        self.games = [v for v in views if isinstance(v, GameView)]
        self.owed = balances(self.games)
        self.guess = summary_pages_guess(len(views), len(self.owed))
        self.tries = 0
        self.done: dict[Hashable, Printed] = {}

    def documents(self, starts: Mapping[int, int], sheet_pages: int) -> dict[Hashable, str]:
        """The summary and the stamps, for the summary's guessed length (keys new each time,
        so that a document laid out for other lengths is never taken for these)."""
        self.tries += 1
        rows = [
            SummaryRow(view, None, self.guess + 1 + starts[view.id])
            if isinstance(view, GameView)
            else SummaryRow(None, view, None)
            for view in self.views
        ]
        summary = render_printed(
            "pdf/history.html",
            **document_context(self.paper),
            title=self.title,
            filters=self.filters,
            rows=rows,
            finished=sum(1 for g in self.games if g.finished),
            playing=sum(1 for g in self.games if not g.finished),
            balances=self.owed,
            stakes=any(g.stake for g in self.games),
        )
        return {
            ("summary", self.tries): summary,
            ("numbers", self.tries): self.numbers(self.guess + sheet_pages),
        }

    def numbers(self, pages: int) -> str:
        return render_printed("pdf/page_numbers.html", **document_context(self.paper), pages=pages)

    def settle(
        self, layout: Layout, starts: Mapping[int, int], sheet_pages: int, *, expected_right: bool
    ) -> tuple[Printed, Printed]:
        """The summary and the stamps for the sheets' real lengths: those laid out already if
        they were for these, else laid out now; and again if the summary's guess at its own
        length was wrong (the page column has a fixed width, so the second is right)."""
        if not expected_right:
            self.done = layout.collect(self.documents(starts, sheet_pages))
        for _ in range(3):
            summary = self.done[("summary", self.tries)]
            if summary.pages == self.guess:
                return summary, self.done[("numbers", self.tries)]
            self.guess = summary.pages
            self.done = layout.collect(self.documents(starts, sheet_pages))
        # Never settled (it cannot, with a fixed-width page column): number what there is.
        numbers = self.numbers(summary.pages + sheet_pages)
        return summary, layout.collect({"numbers": numbers})["numbers"]
