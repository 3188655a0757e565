"""An event's money: the pool, its split by place, and who pays whom.

The pool is the entry fee times the entrants. Each paid place gets its percentage of the
pool, in cents rounded down, and the cents left over go one at a time to the best places
first, so the places add up to exactly the percentages' share of the pool (what is not
paid out, the rest of 100%, is ``kept`` by the organiser, and so is the share of a place
nobody reached). Players level on a place share the money of the places they cover
equally (two tied for second share the second's and the third's), a leftover cent going
to the first of them in the order the places were given.

The payments are netted by the night's settlement (``night.clearing_payments``): with the
fees paid at the door the organiser pays each prize; without, every entrant's fee and prize
are netted, so the losers pay the winners directly, in the fewest payments it finds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .seating import Player


@dataclass(frozen=True)
class Prize:
    """What one player wins: their place (shared or not) and the amount."""

    player: Player
    place: int
    amount: Decimal


@dataclass(frozen=True)
class PrizeSplit:
    """The pool and where it goes."""

    pool: Decimal
    #: Each paid place's amount before ties share them (first place first).
    places: tuple[Decimal, ...]
    #: The players paid, best place first (a player's place, then the order given).
    prizes: tuple[Prize, ...]
    #: What the organiser keeps: the share not paid out, and unreached places.
    kept: Decimal


@dataclass(frozen=True)
class Payout:
    """One payment: ``payer`` to ``payee``; None is the organiser (who holds the fees)."""

    payer: Player | None
    payee: Player | None
    amount: Decimal


def prize_pool(entry_fee: Decimal, entrants: int) -> Decimal:
    """The entry fee times the entrants, exact (a fee in whole cents, 0 or more)."""
    raise NotImplementedError


def split_prizes(
    pool: Decimal, percentages: Sequence[Decimal], places: Mapping[Player, int]
) -> PrizeSplit:
    """Split ``pool`` by place: ``percentages[0]`` of it to first place, and so on, among the
    players' ``places`` (1 for the first; level players give the same place)."""
    raise NotImplementedError


def payouts(
    split: PrizeSplit,
    entry_fee: Decimal,
    entrants: Sequence[Player],
    *,
    paid_at_the_door: bool = True,
) -> tuple[Payout, ...]:
    """Who pays whom so that every prize is paid and every fee is in, fewest payments first
    found (night.clearing_payments; the organiser is None)."""
    raise NotImplementedError
