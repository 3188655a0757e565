"""The printed history's balances: the fixed games netted as their night is, worked by hand."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from scorekeeper.pdf import history

from .fixed_games import ALL, NIGHT_MONEY, NIGHT_UNITS, ap, record
from .support import import_game

# F: Auction Pitch for no stake, two newcomers.
#  1. and 2. Eve 3 takes H L J, Gus G: Eve 3, Gus 1, twice: Eve 6, Gus 2.
#  3. Eve 2 takes H L, Gus G: Eve 8, out. Gus (3) pays 1 unit: Eve +1, Gus -1, no money.
GAME_F = record(
    "auction-pitch",
    ["Eve", "Gus"],
    [
        ap("Eve", 3, "Eve", "Eve", "Eve", "Gus"),
        ap("Eve", 3, "Eve", "Eve", "Eve", "Gus"),
        ap("Eve", 2, "Eve", "Eve", None, "Gus"),
    ],
)


def balances_of(app: Any, client: Any, records: tuple[dict[str, Any], ...]) -> list[Any]:
    ids = [import_game(client, game) for game in records]
    with app.test_request_context("/"):
        views = [v for v in history.load_views(ids) if isinstance(v, history.GameView)]
    return [(b.player, b.units, b.money, b.standing) for b in history.balances(views)]


def test_the_history_nets_the_fixed_games_to_the_night_settlements_balances(
    app: Any, client: Any
) -> None:
    # Games A to E (E unfinished, so not counted): the night's balances worked by hand,
    # in order of money, Bob 3.42 first.
    assert balances_of(app, client, ALL) == [
        ("Bob", NIGHT_UNITS["Bob"], NIGHT_MONEY["Bob"], "up"),
        ("Dee", NIGHT_UNITS["Dee"], NIGHT_MONEY["Dee"], "up"),
        ("Ann", NIGHT_UNITS["Ann"], NIGHT_MONEY["Ann"], "down"),
        ("Cy", NIGHT_UNITS["Cy"], NIGHT_MONEY["Cy"], "down"),
    ]
    assert (NIGHT_UNITS["Ann"], NIGHT_MONEY["Ann"]) == (6, Decimal("-2.25"))


def test_a_player_who_played_only_for_no_stake_has_units_and_no_money(
    app: Any, client: Any
) -> None:
    found = balances_of(app, client, (*ALL, GAME_F))
    # Eve and Gus have no money: they sit between those up and down in money, by units.
    assert [row[0] for row in found] == ["Bob", "Dee", "Eve", "Gus", "Ann", "Cy"]
    assert found[2:4] == [("Eve", 1, None, "up"), ("Gus", -1, None, "down")]


def test_games_for_no_stake_alone_are_netted_and_ordered_in_units(app: Any, client: Any) -> None:
    assert balances_of(app, client, (GAME_F,)) == [
        ("Eve", 1, None, "up"),
        ("Gus", -1, None, "down"),
    ]
