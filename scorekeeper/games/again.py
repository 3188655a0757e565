"""Next game, same table: the question "Play again" asks, and the new-game form that
"Rematch with changes" opens, filled in from the game before.

Who deals first, the seats and the rules come from the engine (``rules.scoring.next_game``);
this module only says them on a page or puts them in the form's fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import i18n, operations, rules
from ..operations.errors import NotFound
from ..operations.rows import Loaded
from ..web.routing import parse_id
from .forms import NewGameForm


@dataclass(frozen=True)
class Seat:
    """One seat of the next game as the question lists it."""

    number: int
    name: str
    team: str | None
    deals: bool


def seats(game: rules.Game) -> list[Seat]:
    """The next game's seats in clockwise order, each with its team and whether it deals first."""
    team_of = {player: team for team, members in game.teams or () for player in members}
    return [
        Seat(i + 1, name, team_of.get(name), name == game.dealer_first)
        for i, name in enumerate(game.players)
    ]


def rematch_of(variant: rules.Variant, wanted: str) -> Loaded | None:
    """The game named by ``?again=<id>`` when it is a game of ``variant`` (else None: the form
    opens empty, as without the link)."""
    game_id = parse_id(wanted)
    if game_id is None:
        return None
    try:
        loaded = operations.loading.load(game_id)
    except NotFound:
        return None
    return loaded if loaded.game.variant.key == variant.key else None


def fill(form: NewGameForm, loaded: Loaded, max_seats: int) -> None:
    """Fill a new-game form's seats, teams, first dealer, stake and night from the game before
    (its house rules are the form's ``prefill``); the person may change any of them."""
    game = rules.scoring.next_game(loaded.result)
    team_of = {player: team for team, members in game.teams or () for player in members}
    for i in range(max_seats):
        name = game.players[i] if i < len(game.players) else ""
        form[f"name_{i}"].data = name
        form[f"team_{i}"].data = team_of.get(name, "")
    form.first_dealer.data = str(game.players.index(game.dealer_first))
    if game.stake is not None:
        # Written the page's way (0,25 in Romanian), which the stake field reads back.
        form.stake.data = game.stake.replace(".", i18n.decimal_sign())
    form.night.data = str(loaded.row.night_id or "")
