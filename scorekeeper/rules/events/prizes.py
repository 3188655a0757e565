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
from decimal import ROUND_DOWN, Decimal, localcontext

from ..night import EXACT, clearing_payments
from .errors import EventError
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


CENT = Decimal("0.01")
HUNDRED = Decimal(100)
#: The organiser's name in the night's settlement (a player's is their id as text).
_ORGANISER = ""


def _amount(value: object, code: str) -> Decimal:
    """A sum of money: a Decimal of 0 or more in whole cents (EventError ``code`` if not)."""
    if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
        raise EventError(code, value=value)
    with localcontext(EXACT):
        if value != value.quantize(CENT):
            raise EventError(code, value=value)
    return value


def prize_pool(entry_fee: Decimal, entrants: int) -> Decimal:
    """The entry fee times the entrants, exact (a fee in whole cents, 0 or more)."""
    fee = _amount(entry_fee, "fee-value")
    if isinstance(entrants, bool) or not isinstance(entrants, int) or entrants < 0:
        raise EventError("entrants-value", count=entrants)
    with localcontext(EXACT):
        return fee * entrants


def _cents_down(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_DOWN)


def _share(total: Decimal, ways: int) -> list[Decimal]:
    """``total`` (whole cents) split ``ways`` ways: equal cents, the left-over cents one each
    to the first (in whole cents: a third of a cent is never written down)."""
    each, left = divmod(int(total / CENT), ways)
    return [(each + (i < left)) * CENT for i in range(ways)]


def split_prizes(
    pool: Decimal, percentages: Sequence[Decimal], places: Mapping[Player, int]
) -> PrizeSplit:
    """Split ``pool`` by place: ``percentages[0]`` (a Decimal or a whole number) of it to
    first place, and so on, among the
    players' ``places`` (1 for the first; level players give the same place). Players level
    cover as many places as they are: two level at the top share the first and second
    places' money, and the next player is third, whatever number their place is given."""
    money = _amount(pool, "pool-value")
    percentages = [
        Decimal(p) if isinstance(p, int) and not isinstance(p, bool) else p for p in percentages
    ]
    for value in percentages:
        if not isinstance(value, Decimal) or not value.is_finite() or not 0 <= value <= HUNDRED:
            raise EventError("percent-value", value=value)
    for player, place in places.items():
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise EventError("place-value", player=player, place=place)
    with localcontext(EXACT):
        total = sum(percentages, Decimal(0))
        if total > HUNDRED:
            raise EventError("percent-sum", total=total)
        shares = [_cents_down(money * p / HUNDRED) for p in percentages]
        left = int((_cents_down(money * total / HUNDRED) - sum(shares, Decimal(0))) / CENT)
        for i in range(left):
            shares[i] += CENT
        given = {player: i for i, player in enumerate(places)}
        ranked = sorted(places, key=lambda p: (places[p], given[p]))
        prizes: list[Prize] = []
        start = 0
        while start < len(ranked):
            level = [p for p in ranked[start:] if places[p] == places[ranked[start]]]
            covered = sum(shares[start : start + len(level)], Decimal(0))
            for player, amount in zip(level, _share(covered, len(level)), strict=True):
                if amount > 0:
                    prizes.append(Prize(player, start + 1, amount))
            start += len(level)
        paid = sum((p.amount for p in prizes), Decimal(0))
        return PrizeSplit(money, tuple(shares), tuple(prizes), money - paid)


def payouts(
    split: PrizeSplit,
    entry_fee: Decimal,
    entrants: Sequence[Player],
    *,
    paid_at_the_door: bool = True,
) -> tuple[Payout, ...]:
    """Who pays whom so that every prize is paid and every fee is in, netted by the night's
    settlement (night.clearing_payments; the organiser is None). With the fees paid at the
    door the organiser pays each prize. Without, each entrant owes the fee and is owed their
    prize, the organiser is owed what is kept, and the fewest payments found clear it all
    (the pool must then be the fee times the entrants)."""
    fee = _amount(entry_fee, "fee-value")
    with localcontext(EXACT):
        balances: dict[str, Decimal] = {}
        names: dict[str, Player | None] = {_ORGANISER: None}
        for prize in split.prizes:
            names[str(prize.player)] = prize.player
            balances[str(prize.player)] = balances.get(str(prize.player), Decimal(0)) + prize.amount
        if paid_at_the_door:
            balances[_ORGANISER] = -sum(balances.values(), Decimal(0))
        else:
            if fee * len(entrants) != split.pool:
                raise EventError("pool-mismatch", pool=split.pool, fee=fee, count=len(entrants))
            for player in entrants:
                names[str(player)] = player
                balances[str(player)] = balances.get(str(player), Decimal(0)) - fee
            balances[_ORGANISER] = split.kept
        transfers = clearing_payments(balances)
    return tuple(Payout(names[t.payer], names[t.payee], t.amount) for t in transfers)
