"""The page model: a game as plain values for templates (the web sheet, the board, the PDFs,
the history's list).

Templates never see ORM rows or engine internals, only these frozen values.

Every view of a game (the web sheet, the board, the PDFs, the history) is drawn from these
values; one model keeps them all drawing the same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from markupsafe import Markup

from .. import rules
from ..i18n import current_locale, gettext
from ..lru import LRU
from ..operations.rows import Loaded
from . import charts
from .names import FEWEST_LETTERS, SHORT_LETTERS, short_names
from .trail import TrailView, trail_view
from .words import (
    bid_words,
    hand_outcome,
    house_rules_said,
    limit_line,
    play_to_words,
    sale_words,
    win_words,
)


@dataclass(frozen=True)
class SideView:
    name: str
    members: tuple[str, ...]
    score: int
    setbacks: int
    in_hole: bool
    is_winner: bool
    deals_next: bool
    #: The name as a narrow column heads it (``short_names``): ``"Ann"`` for Annabelle.
    short: str = ""


class SideCell(NamedTuple):
    """One side's cell of a hand's row on the phone's sheet, in ``GameView.sides`` order."""

    #: The side's player pitched (the bid is boxed in this cell).
    pitched: bool
    #: The side scored the bid as sale points (Sell-Out).
    sold: bool
    #: The hand won the game for this side.
    won: bool
    score: int
    #: The marks of the points the side took: ``"H L 3"``.
    took: str


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: str
    passed: bool
    pitcher: str | None
    pitcher_side: str | None
    bid: int | None
    outcome: str
    made: bool | None
    set_back: bool
    won: bool
    sale: str | None
    high_bidder: str | None
    takers: tuple[tuple[str, str | None], ...]
    taken: tuple[int | None, ...]
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    note: str | None
    #: The point keys each side took this hand, in count-out order, in ``GameView.sides`` order.
    points_by_side: tuple[tuple[str, ...], ...]
    #: Sell-Out: the player at the dealer's left, who sold, kept or pitched.
    seller: str | None
    #: Sell-Out: the side that scored the bid as sale points (the seller's on a sold
    #: hand, the high bidder's on a kept one), else None.
    sale_side: str | None
    #: The marks each side took, as the web sheet writes them under its score: ``("H L 3", "")``.
    took_marks: tuple[str, ...]
    #: The bid and what became of it, in words: ``"Ann bid 3, made it"`` ("" when passed).
    bid_words: str = ""
    #: Sell-Out: how the contract came about, as the printed sheet writes it under the
    #: pitcher: ``"bought from Bob"``, ``"kept; Ann bid"``, ``"pitched"`` ("" otherwise).
    sale_words: str = ""
    #: Each side's cell of the row, as the phone's sheet draws it.
    cells: tuple[SideCell, ...] = ()
    #: A passed hand that set the dealer's side back (``all_pass: dealer-set``, RULES.md
    #: 11.3): that side's place in ``GameView.sides``, else None; ``set_back_by`` what it cost.
    dealer_set_side: int | None = None
    set_back_by: int | None = None

    def __hash__(self) -> int:
        """The row's hash, worked out once: a kept row is a key of the drawn rows
        (``web.templating.sheet_rows``) on every page its game shows, and it never changes."""
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = hash(tuple(getattr(self, name) for name in self.__dataclass_fields__))
            object.__setattr__(self, "_hash", found)
        return found


@dataclass(frozen=True)
class PaymentView:
    payer: str
    payee: str
    units: int
    amount: Decimal | None


@dataclass(frozen=True)
class GameView:
    id: int
    version: int
    variant_key: str
    variant_name: str
    target: int | None
    players: tuple[str, ...]
    is_partnership: bool
    sides: tuple[SideView, ...]
    rows: tuple[HandRow, ...]
    point_names: tuple[tuple[str, str], ...]
    finished: bool
    winner: str | None
    win_reason: str | None
    win_words: str | None
    winning_hand: int | None
    next_dealer: str | None
    seller: str | None
    passing_allowed: bool
    stake: Decimal | None
    units: tuple[tuple[str, int], ...]
    payments: tuple[PaymentView, ...]
    created_at: datetime
    finished_at: datetime | None
    #: The short marks a paper sheet writes for each point: ``("high", "H")``, ...
    point_marks: tuple[tuple[str, str], ...]
    #: The house rules that differ from the preset, in words: ``"first to 200 (not 7)"``.
    house_rules_words: tuple[str, ...]
    #: Who dealt hand 1.
    first_dealer: str | None
    #: The score progression chart as SVG (the page and the printed sheet both show it).
    progression_svg: Markup
    #: The game night the game was played at, if any.
    night_id: int | None
    night_name: str | None
    #: Where that night was played, if the table said (the printed sheet's header shows it).
    night_place: str | None
    #: How many hands were played: ``rows`` is empty when the snapshot was taken without them.
    hand_count: int
    #: Each player's name as a narrow column writes it (``short_names``): ``("Annabelle", "Ann")``.
    player_shorts: tuple[tuple[str, str], ...] = ()
    #: The game's trail: marks of hands waiting, disputed, corrected; signatures; its
    #: changes in words (``sheets.trail``). None when taken without the hand rows.
    trail: TrailView | None = None
    #: What ends the game, in words: ``first to 7``, ``the most points after 8 hands``.
    play_to: str = ""
    #: The played hands after which the game ends (``Game.hand_limit``), or None.
    hand_limit: int | None = None
    #: A game not over that a count of hands or time called ends (RULES.md 11.4): how many
    #: hands are left, or that time was called, in a sentence; "" otherwise.
    limit_line: str = ""
    #: A game won after time was called: the hand time was called after (else None).
    called_after: int | None = None
    #: Whether the organiser may still call time, and the hand it would be called after.
    can_call_time: bool = False
    call_after_hand: int | None = None
    #: The number of played hands time would be called after (the question posts it).
    call_after_played: int | None = None
    #: Everyone passing sets the dealer's side back (``all_pass: dealer-set``).
    dealer_set: bool = False


def _sale_side(game: rules.Game, hand: rules.HandResult) -> str | None:
    """Name the side that scores a Sell-Out hand's bid as sale points, if any."""
    scorer = hand.sale_scorer
    return game.side_of(scorer) if scorer is not None else None


def _points_by_side(
    points: Mapping[str, str | None],
    point_keys: Sequence[str],
    side_of: Mapping[str, str],
    sides: Sequence[str],
) -> tuple[tuple[str, ...], ...]:
    """List the point keys each side took in a hand, in count-out order, a tuple per side."""
    taken: dict[str, list[str]] = {side: [] for side in sides}
    for key in point_keys:
        taker = points.get(key)
        if taker is not None:
            taken[side_of[taker]].append(key)
    return tuple(tuple(taken[side]) for side in sides)


def game_snapshot(loaded: Loaded, *, chart: bool = True, rows: bool = True) -> GameView:
    """Take the plain values a page or sheet shows from a loaded, replayed game.

    A list of many games takes them without the chart and the hand rows (``chart`` and
    ``rows`` false): those cost more than all the rest.
    """
    game, result, row = loaded.game, loaded.result, loaded.row
    sides = game.sides
    next_dealer = result.next_dealer
    side_shorts = short_names(sides, SHORT_LETTERS.get(len(sides), FEWEST_LETTERS))
    side_views = tuple(
        SideView(
            name=side,
            members=game.members(side),
            score=result.scores[side],
            setbacks=result.setbacks[side],
            in_hole=result.in_the_hole(side),
            is_winner=result.winner == side,
            deals_next=next_dealer is not None
            and game.side_of(next_dealer) == side
            and game.teams is None,
            short=short,
        )
        for side, short in zip(sides, side_shorts, strict=True)
    )
    marks = {p.key: gettext(p.mark) for p in game.variant.points}
    hand_rows = _hand_rows(game, result, marks) if rows else ()
    settlement = result.settlement
    stake = game.stake_amount if game.stake_amount > 0 else None
    return GameView(
        id=row.id,
        version=row.version,
        variant_key=game.variant.key,
        variant_name=game.variant.name,  # the English name, a catalogue key: _() where shown
        target=game.house_rules.target,
        players=game.players,
        is_partnership=game.teams is not None,
        sides=side_views,
        rows=hand_rows,
        point_names=tuple((p.key, p.name) for p in game.variant.points),
        finished=result.finished,
        winner=result.winner,
        win_reason=result.win_reason.value if result.win_reason else None,
        win_words=win_words(result.win_reason.value) if result.win_reason else None,
        winning_hand=result.winning_hand,
        next_dealer=next_dealer,
        seller=game.seller_for(next_dealer),
        passing_allowed=game.house_rules.all_pass is not rules.AllPass.DEALER_TAKES,
        stake=stake,
        units=tuple(settlement.units.items()) if settlement else (),
        payments=tuple(
            PaymentView(p.payer, p.payee, p.units, p.amount) for p in settlement.payments
        )
        if settlement
        else (),
        created_at=row.created_at,
        finished_at=row.finished_at,
        # A list of many games shows no charts: drawing one costs more than the rest.
        progression_svg=Markup(
            charts.progression_chart(
                sides,
                [tuple(h.scores[s] for s in sides) for h in result.hands],
                game.house_rules.target,
                winner=result.winner,
                winning_hand=result.winning_hand,
                chart_id=f"progress-{row.id}",
            )
        )
        if chart
        else Markup(),
        night_id=row.night_id,
        night_name=row.night.name if row.night is not None else None,
        night_place=row.night.place if row.night is not None else None,
        point_marks=tuple(marks.items()),
        house_rules_words=house_rules_said(game.variant.base or game.variant, game.house_rules),
        first_dealer=game.dealer_first,
        hand_count=len(result.hands),
        player_shorts=tuple(zip(game.players, short_names(game.players), strict=True)),
        trail=trail_view(loaded) if rows else None,
        play_to=play_to_words(game),
        hand_limit=game.hand_limit,
        limit_line=limit_line(result),
        called_after=result.limit_hand if result.finished and game.limit_is_called else None,
        can_call_time=result.time_can_be_called,
        call_after_hand=len(result.hands) + 1 if result.time_can_be_called else None,
        call_after_played=result.played + 1 if result.time_can_be_called else None,
        dealer_set=game.house_rules.all_pass is rules.AllPass.DEALER_SET,
    )


#: Hand rows a process keeps between pages (a row is about a kilobyte): many tables' sheets.
HAND_ROWS_KEPT = 8192
_kept_rows: LRU[tuple[rules.HandResult, str | None, HandRow]] = LRU(HAND_ROWS_KEPT)


def _hand_rows(
    game: rules.Game, result: rules.GameResult, marks: Mapping[str, str]
) -> tuple[HandRow, ...]:
    """The sheet's rows of a replayed game, one a hand. A hand's row is made again only when
    its scored hand, the game's winner, its seats, points or the language is not what it was
    made from: a page after a hand is recorded makes one new row, not one for every hand."""
    sides = game.sides
    # Looked up once, not once a hand: a page draws every hand of the game.
    side_of = {player: game.side_of(player) for player in game.players}
    # Everything a row is made from besides its own hand: rows of games alike are shared.
    context = (
        current_locale(),
        game.variant.point_keys,
        tuple(marks.items()),
        sides,
        tuple(side_of.items()),
    )
    made: list[HandRow] = []
    for h in result.hands:
        key = (context, h.number)
        found = _kept_rows.get(key)
        if found is not None and found[1] == result.winner and found[0] == h:
            made.append(found[2])
            continue
        row = _hand_row(game, result, h, side_of, marks)
        _kept_rows.put(key, (h, result.winner, row))
        made.append(row)
    return tuple(made)


def _hand_row(
    game: rules.Game,
    result: rules.GameResult,
    h: rules.HandResult,
    side_of: Mapping[str, str],
    marks: Mapping[str, str],
) -> HandRow:
    """One hand's row of the sheet: its takers, scores and words, and each side's cell."""
    sides = game.sides
    by_side = _points_by_side(h.hand.points, game.variant.point_keys, side_of, sides)
    sale_side = _sale_side(game, h)
    took = tuple(" ".join(marks[key] for key in keys) for keys in by_side)
    return HandRow(
        number=h.number,
        dealer=h.dealer,
        passed=h.passed,
        pitcher=h.pitcher,
        pitcher_side=side_of[h.pitcher] if h.pitcher else None,
        bid=h.bid,
        outcome=hand_outcome(h),
        made=h.made,
        set_back=h.set_back,
        won=h.won,
        sale=h.hand.sale.value if h.hand.sale else None,
        high_bidder=h.hand.high_bidder,
        takers=tuple(h.hand.points.items()),
        taken=tuple((h.taken or {}).get(s) for s in sides),
        deltas=tuple(h.delta[s] for s in sides),
        scores=tuple(h.scores[s] for s in sides),
        note=h.hand.note,
        points_by_side=by_side,
        seller=h.seller,
        sale_side=sale_side,
        took_marks=took,
        bid_words=bid_words(h),
        sale_words=sale_words(h),
        cells=tuple(
            SideCell(
                pitched=h.pitcher is not None and side_of[h.pitcher] == side,
                sold=sale_side == side,
                won=h.won and result.winner == side,
                score=h.scores[side],
                took=took[i],
            )
            for i, side in enumerate(sides)
        ),
        dealer_set_side=sides.index(side_of[h.dealer]) if h.passed and h.set_back else None,
        set_back_by=h.set_back_by,
    )


@dataclass(frozen=True)
class Seat:
    """One seat of the next game as the question lists it."""

    number: int
    name: str
    team: str | None
    deals: bool


def next_game_seats(game: rules.Game) -> list[Seat]:
    """The next game's seats in clockwise order, each with its team and whether it deals first."""
    team_of = {player: team for team, members in game.teams or () for player in members}
    return [
        Seat(i + 1, name, team_of.get(name), name == game.dealer_first)
        for i, name in enumerate(game.players)
    ]
