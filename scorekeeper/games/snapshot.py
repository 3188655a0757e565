"""A game as plain values for templates: the HTML page, the board and the PDF sheet share it.

Templates never see ORM rows or engine internals, only these frozen values.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from .. import rules
from ..operations import Loaded
from ..sheet import WIN_WORDS, hand_outcome


@dataclass(frozen=True)
class SideView:
    name: str
    members: tuple[str, ...]
    score: int
    setbacks: int
    in_hole: bool
    is_winner: bool
    deals_next: bool


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
    target: int
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
    house_rules_changed: tuple[tuple[str, str], ...]
    created_at: datetime
    finished_at: datetime | None


def game_snapshot(loaded: Loaded) -> GameView:
    """Take the plain values a page or sheet shows from a loaded, replayed game."""
    game, result, row = loaded.game, loaded.result, loaded.row
    sides = game.sides
    next_dealer = result.next_dealer
    side_views = tuple(
        SideView(
            name=side,
            members=game.members(side),
            score=result.scores[side],
            setbacks=result.setbacks[side],
            in_hole=result.scores[side] < 0,
            is_winner=result.winner == side,
            deals_next=next_dealer is not None and game.side_of(next_dealer) == side
            and game.teams is None,
        )
        for side in sides
    )
    rows = tuple(
        HandRow(
            number=h.number,
            dealer=h.dealer,
            passed=h.passed,
            pitcher=h.pitcher,
            pitcher_side=game.side_of(h.pitcher) if h.pitcher else None,
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
        )
        for h in result.hands
    )
    settlement = result.settlement
    preset = game.variant.preset.as_dict()
    changed = tuple(
        (name, str(value))
        for name, value in game.house_rules.as_dict().items()
        if value != preset[name]
    )
    stake = game.stake_amount if game.stake_amount > 0 else None
    return GameView(
        id=row.id,
        version=row.version,
        variant_key=game.variant.key,
        variant_name=game.variant.name,
        target=game.house_rules.target,
        players=game.players,
        is_partnership=game.teams is not None,
        sides=side_views,
        rows=rows,
        point_names=tuple((p.key, p.name) for p in game.variant.points),
        finished=result.finished,
        winner=result.winner,
        win_reason=result.win_reason.value if result.win_reason else None,
        win_words=WIN_WORDS[result.win_reason.value] if result.win_reason else None,
        winning_hand=result.winning_hand,
        next_dealer=next_dealer,
        seller=game.left_of(next_dealer) if (next_dealer and game.variant.sales) else None,
        passing_allowed=game.house_rules.all_pass is not rules.AllPass.DEALER_TAKES,
        stake=stake,
        units=tuple(settlement.units.items()) if settlement else (),
        payments=tuple(
            PaymentView(p.payer, p.payee, p.units, p.amount) for p in settlement.payments
        ) if settlement else (),
        house_rules_changed=changed,
        created_at=row.created_at,
        finished_at=row.finished_at,
    )
