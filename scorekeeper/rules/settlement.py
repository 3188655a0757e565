"""Settling up (RULES.md section 8): who pays whom, in units and exact money."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, ROUND_HALF_UP, Decimal, localcontext
from typing import TYPE_CHECKING

from .errors import N_

if TYPE_CHECKING:
    from .game import Game

CENT = Decimal("0.01")
#: Units a losing player out of the hole (a final score of 1 or more) pays (RULES.md 8).
PAYOUT_OUT_OF_HOLE = 1

#: How a rules card says the settlement, a sentence each (N_; ``%(name)s`` from the game).
PAYOUT_SENTENCES: dict[str, str] = {
    "payout_in_hole": N_(
        "Each loser pays each winner, in units: %(base)s from a final score above 0, "
        "%(units)s from 0 or less."
    ),
    "payout_per_setback": N_(
        "For every time its side was set back, a losing player pays %(units)s more."
    ),
    "stake": N_("A unit is worth %(stake)s."),
}


def money(units: int, stake: Decimal) -> Decimal:
    """Return units times stake in exact decimals, rounded half-up to cents."""
    # The default context keeps 28 digits: a longer stake would be rounded, and
    # quantize would raise InvalidOperation. Any digit count is exact here.
    with localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = MAX_PREC, MAX_EMAX, MIN_EMIN
        return (stake * units).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Payment:
    """One loser paying one winner. ``amount`` is None when the game has no stake."""

    payer: str
    payee: str
    units: int
    amount: Decimal | None


@dataclass(frozen=True)
class Settlement:
    """Net units per player (positive receives) and the payments, loser by loser in seat order."""

    units: Mapping[str, int]
    payments: tuple[Payment, ...]


def loser_pays(score: int, setbacks: int, payout_in_hole: int, payout_per_setback: int) -> int:
    """Units one losing player pays each winning player.

    1 unit from a final score of 1 or more, ``payout_in_hole`` from 0 or less,
    plus ``payout_per_setback`` for each time the loser's side was set back.
    """
    base = PAYOUT_OUT_OF_HOLE if score >= 1 else payout_in_hole
    return base + payout_per_setback * setbacks


def settle(
    game: Game, winner: str, scores: Mapping[str, int], setbacks: Mapping[str, int]
) -> Settlement:
    """Settle a finished game: each losing player pays each player of the winning side."""
    rules = game.house_rules
    stake = game.stake_amount
    winners = game.members(winner)
    units = dict.fromkeys(game.players, 0)
    payments: list[Payment] = []
    for loser in game.players:
        side = game.side_of(loser)
        if side == winner:
            continue
        owed = loser_pays(
            scores[side], setbacks[side], rules.payout_in_hole, rules.payout_per_setback
        )
        if owed == 0:
            continue
        for payee in winners:
            units[loser] -= owed
            units[payee] += owed
            payments.append(Payment(loser, payee, owed, money(owed, stake) if stake > 0 else None))
    return Settlement(units=units, payments=tuple(payments))
