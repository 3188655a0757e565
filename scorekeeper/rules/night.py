"""Settling a game night (RULES.md section 8): net balances over several games, then payments.

A night may mix games with different stakes, or with none. A player's night
balance is the sum, over the night's finished games, of what that player won or
lost in each game: units, and money where the game had a stake (each game's
payments are already exact to the cent, so the sums are exact too).

"The fewest payments that clear every balance" is NP-hard in general (it is a
subset-sum partition). We use the standard greedy instead, with one refinement:
while any debtor owes exactly what some creditor is owed, that pair settles
first; otherwise the largest debtor pays the largest creditor as much as one of
them needs. Every payment clears at least one balance and the last clears two,
so there are never more than (players with a balance) - 1 payments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, localcontext

from .settlement import Settlement

ZERO = Decimal(0)
#: Sums of money are exact whatever their digit count (the default context keeps 28 digits).
EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


@dataclass(frozen=True)
class Share:
    """What one player won (positive) or lost in one game: units, and money if it had a stake."""

    units: int
    money: Decimal | None


@dataclass(frozen=True)
class Transfer:
    """One payment of the night: ``amount`` is money, or units when no game had a stake."""

    payer: str
    payee: str
    amount: Decimal


@dataclass(frozen=True)
class NightSettlement:
    """Net units and money per player (positive receives), and the payments that clear them.

    ``in_money`` says whether the payments are money (some game had a stake) or
    units (no game had one). Players are listed by name.
    """

    units: Mapping[str, int]
    money: Mapping[str, Decimal]
    in_money: bool
    payments: tuple[Transfer, ...]


def game_shares(settlement: Settlement) -> dict[str, Share]:
    """Turn one game's settlement into what each seated player won or lost in it."""
    staked = any(p.amount is not None for p in settlement.payments)
    money = dict.fromkeys(settlement.units, ZERO)
    with localcontext(EXACT):
        for payment in settlement.payments:
            amount = payment.amount or ZERO
            money[payment.payer] -= amount
            money[payment.payee] += amount
    return {
        player: Share(units, money[player] if staked else None)
        for player, units in settlement.units.items()
    }


def settle_night(games: Iterable[Mapping[str, Share]]) -> NightSettlement:
    """Net every player's shares over the night's games and list the payments that clear them.

    Payments are in money when any game had a stake, else in units. Raise
    ValueError if the balances do not sum to zero (a game's shares never do that).
    """
    units: dict[str, int] = {}
    money: dict[str, Decimal] = {}
    in_money = False
    with localcontext(EXACT):
        for shares in games:
            for player, share in shares.items():
                units[player] = units.get(player, 0) + share.units
                money[player] = money.get(player, ZERO) + (share.money or ZERO)
                in_money = in_money or share.money is not None
    balances = money if in_money else {p: Decimal(u) for p, u in units.items()}
    return NightSettlement(
        units=dict(sorted(units.items())),
        money=dict(sorted(money.items())),
        in_money=in_money,
        payments=clearing_payments(balances),
    )


def clearing_payments(balances: Mapping[str, Decimal]) -> tuple[Transfer, ...]:
    """List payments, each from a debtor to a creditor, that bring every balance to zero.

    A positive balance is owed to the player, a negative one is owed by them.
    Greedy, as the module says: an exact pair first, else largest pays largest.
    Ties go by name, so the same balances always give the same payments.
    """
    with localcontext(EXACT):
        return _clear(balances)


def _clear(balances: Mapping[str, Decimal]) -> tuple[Transfer, ...]:
    total = sum(balances.values(), ZERO)
    if total != 0:
        raise ValueError(f"the balances sum to {total}, not zero: someone's money is missing")
    owes = {p: -b for p, b in balances.items() if b < 0}
    owed = {p: b for p, b in balances.items() if b > 0}
    payments: list[Transfer] = []
    while owes:
        payer = min(owes, key=lambda p: (-owes[p], p))
        amount = owes[payer]
        exact = sorted(p for p, b in owed.items() if b == amount)
        payee = exact[0] if exact else min(owed, key=lambda p: (-owed[p], p))
        paid = min(amount, owed[payee])
        payments.append(Transfer(payer, payee, paid))
        for side, player in ((owes, payer), (owed, payee)):
            side[player] -= paid
            if side[player] == 0:
                del side[player]
    return tuple(payments)
