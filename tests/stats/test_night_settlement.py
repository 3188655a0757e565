"""The night settlement (scorekeeper.rules.night): balances net to zero, few payments clear them."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.rules.night import Share, Transfer, clearing_payments, game_shares, settle_night

from .fixed_games import FINISHED, NIGHT_MONEY, NIGHT_PAYMENTS, NIGHT_UNITS, ap, record


def _shares(game: dict) -> dict[str, Share]:
    result = rules.loads_record(json.dumps(game)).score()
    assert result.settlement is not None
    return game_shares(result.settlement)


def _apply(balances: dict[str, Decimal], payments: tuple[Transfer, ...]) -> dict[str, Decimal]:
    left = dict(balances)
    for p in payments:
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    return left


def test_the_fixed_night_settles_as_worked_out_by_hand() -> None:
    night = settle_night(_shares(g) for g in FINISHED)
    assert night.in_money
    assert dict(night.money) == NIGHT_MONEY
    assert dict(night.units) == NIGHT_UNITS
    assert [(p.payer, p.payee, p.amount) for p in night.payments] == NIGHT_PAYMENTS


def test_a_night_s_balances_sum_to_zero_and_its_payments_clear_every_one() -> None:
    night = settle_night(_shares(g) for g in FINISHED)
    assert sum(night.money.values()) == 0
    assert sum(night.units.values()) == 0
    assert set(_apply(dict(night.money), night.payments).values()) == {Decimal(0)}


def test_a_night_with_no_stake_settles_in_units() -> None:
    unstaked = [{**g, "stake": None} for g in FINISHED]
    for g in unstaked:
        del g["stake"]
    night = settle_night(_shares(g) for g in unstaked)
    assert not night.in_money
    assert set(night.money.values()) == {Decimal(0)}
    units = {p: Decimal(u) for p, u in night.units.items()}
    assert set(_apply(units, night.payments).values()) == {Decimal(0)}
    # Ann +6 against Bob, Cy and Dee at -2 each: three payments of 2 units.
    assert sorted((p.payer, p.payee, p.amount) for p in night.payments) == [
        ("Bob", "Ann", 2),
        ("Cy", "Ann", 2),
        ("Dee", "Ann", 2),
    ]


def test_games_without_a_stake_count_in_units_only_on_a_night_played_for_money() -> None:
    staked = record(
        "auction-pitch", ["Ann", "Bob"], [ap("Ann", 4, "Ann", "Ann", "Ann", "Ann")], stake="0.5"
    )
    free = record("auction-pitch", ["Ann", "Bob"], [ap("Bob", 4, "Bob", "Bob", "Bob", "Bob")])
    night = settle_night([_shares(staked), _shares(free)])
    # Each game: the loser at 0 pays 2 units. Ann +2 -2 units; money +1.00 only.
    assert dict(night.units) == {"Ann": 0, "Bob": 0}
    assert dict(night.money) == {"Ann": Decimal("1.00"), "Bob": Decimal("-1.00")}
    assert night.payments == (Transfer("Bob", "Ann", Decimal("1.00")),)


@pytest.mark.parametrize(
    ("stake", "one_unit", "two_units"),
    [
        ("0.333", "0.33", "0.67"),
        ("0.125", "0.13", "0.25"),
        ("0.005", "0.01", "0.01"),
        ("1.115", "1.12", "2.23"),
    ],
)
def test_odd_stakes_are_rounded_per_payment_and_summed_exactly_to_the_cent(
    stake: str, one_unit: str, two_units: str
) -> None:
    # Cy bids 2 and takes only High: set back to -2. Ann smudges from 1 and wins.
    # Bob (at 0) and Cy (at -2) each pay the in-the-hole 2 units.
    game = record(
        "auction-pitch",
        ["Ann", "Bob", "Cy"],
        [
            ap("Cy", 2, "Cy", "Ann", None, None),
            ap("Ann", 4, "Ann", "Ann", "Ann", "Ann"),
        ],
        stake=stake,
    )
    shares = _shares(game)
    assert shares["Bob"].money == -Decimal(two_units)
    assert shares["Cy"].money == -Decimal(two_units)
    three = settle_night([shares, shares, shares])
    assert three.money["Ann"] == 6 * Decimal(two_units)
    assert str(three.money["Ann"]) == str((6 * Decimal(two_units)).quantize(Decimal("0.01")))
    assert all(p.amount == p.amount.quantize(Decimal("0.01")) for p in three.payments)
    assert rules.money(1, Decimal(stake)) == Decimal(one_unit)  # half up, to the cent


def test_huge_stakes_stay_exact_beyond_the_default_28_digits() -> None:
    # 32 digits, written out: Decimal arithmetic outside the engine would round them.
    payments = clearing_payments(
        {
            "Ann": Decimal("123456789012345678901234567890.03"),
            "Bob": Decimal("-123456789012345678901234567890.01"),
            "Cy": Decimal("-0.02"),
        }
    )
    assert payments == (
        Transfer("Bob", "Ann", Decimal("123456789012345678901234567890.01")),
        Transfer("Cy", "Ann", Decimal("0.02")),
    )


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ValueError, match=r"sum to 0\.01, not zero"):
        clearing_payments({"Ann": Decimal("1.00"), "Bob": Decimal("-0.99")})


def test_an_exact_match_is_paid_directly() -> None:
    # Largest-first alone would make Ann pay Cy 5 then Dee 1, and Bob pay Dee 3: the same
    # count here, but the exact pair (Bob 4, Dee 4) settles in one payment first.
    payments = clearing_payments(
        {"Ann": Decimal(-6), "Bob": Decimal(-4), "Cy": Decimal(6), "Dee": Decimal(4)}
    )
    assert payments == (Transfer("Ann", "Cy", Decimal(6)), Transfer("Bob", "Dee", Decimal(4)))


def test_the_same_balances_always_give_the_same_payments() -> None:
    balances = {"Ann": Decimal(-3), "Bob": Decimal(-3), "Cy": Decimal(3), "Dee": Decimal(3)}
    first = clearing_payments(balances)
    assert all(clearing_payments(dict(reversed(balances.items()))) == first for _ in range(3))


names = st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Earl", "Fay", "Gus", "Hal"])
cents = st.integers(min_value=1, max_value=10**9).map(lambda c: Decimal(c).scaleb(-2))


@given(st.lists(st.tuples(names, names, cents), max_size=30))
def test_any_night_s_payments_clear_it_in_at_most_players_minus_one(
    games: list[tuple[str, str, Decimal]],
) -> None:
    """Each (loser, winner, amount) is one game's payment; the night nets them all."""
    balances: dict[str, Decimal] = {}
    for loser, winner, amount in games:
        balances[loser] = balances.get(loser, Decimal(0)) - amount
        balances[winner] = balances.get(winner, Decimal(0)) + amount
    payments = clearing_payments(balances)
    assert sum(balances.values()) == 0
    assert set(_apply(balances, payments).values()) <= {Decimal(0)}
    players = sum(1 for b in balances.values() if b != 0)
    assert len(payments) <= max(players - 1, 0)
    for p in payments:
        assert p.amount > 0 and balances[p.payer] < 0 < balances[p.payee]
        assert p.amount == p.amount.quantize(Decimal("0.01"))


def test_the_night_settlement_imports_only_the_standard_library() -> None:
    code = (
        "import sys; import scorekeeper.rules.night; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'flask', 'sqlalchemy', 'wtforms', 'weasyprint', 'jinja2', 'markupsafe'}); print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
