"""Builders for the tests: the test app's configuration, game records, the forms a phone
posts, and the games set up through the real views, written once here (tests/web/tables.py,
tests/stats/fixed_games.py and tests/stats/support.py import and re-export them under the
names they always had).

Everything goes through the real views (or, to set up a long game quickly, the real
import): nothing here stands in for our own code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper import rules

FORMAT = rules.FORMAT


# --- the app's configuration ------------------------------------------------------------------

#: What every test app is configured with, its database apart: tests extend it with only
#: what they change (``config_for(url, ORGANISER_PASSWORD=...)``, ``{**app_config, ...}``).
CONFIG: dict[str, Any] = {
    "TESTING": True,
    "SECRET_KEY": "test-secret",
    "WTF_CSRF_ENABLED": False,
}
#: What differs in an app as ``scorekeeper serve`` runs it: errors answered by the app's own
#: pages (not raised into the test), and every form checked for its CSRF token.
SERVED: dict[str, Any] = {"TESTING": False, "WTF_CSRF_ENABLED": True}


def config_for(database_url: str, **changes: Any) -> dict[str, Any]:
    """The test configuration on the database at ``database_url``, with ``changes``."""
    return {**CONFIG, "SQLALCHEMY_DATABASE_URI": database_url, **changes}


def app_on(database_url: str, **changes: Any) -> Any:
    """A test app on the database at ``database_url`` (``config_for``'s configuration)."""
    from scorekeeper import create_app

    return create_app(config_for(database_url, **changes))


# --- records (GAME-RECORD.md) -----------------------------------------------------------------


def record(
    variant_key: str,
    players: list[str],
    hands: list[dict[str, Any]],
    **extra: Any,
) -> dict[str, Any]:
    """A game record (GAME-RECORD.md) with the given hands."""
    return {"format": FORMAT, "variant": variant_key, "players": players, "hands": hands, **extra}


def ap_two_hand_record() -> dict[str, Any]:
    """A record of four at Auction Pitch (Ann, Bob, Cy, Dee) with two hands: Bob makes his
    bid of 3, Cy is set back 2."""
    hands = [
        ap_hand("Bob", 3, "Bob", "Bob", "Cy", "Bob"),
        ap_hand("Cy", 2, "Bob", "Ann", None, "Dee"),
    ]
    return record("auction-pitch", ["Ann", "Bob", "Cy", "Dee"], hands)


def ap_hand(
    pitcher: str, bid: int, high: str, low: str, jack: str | None, game: str | None
) -> dict[str, Any]:
    """An Auction Pitch hand as the record writes it."""
    return {
        "pitcher": pitcher,
        "bid": bid,
        "points": {"high": high, "low": low, "jack": jack, "game": game},
    }


def cinch_hand(pitcher: str, bid: int, *takers: str | None) -> dict[str, Any]:
    """A Cinch hand as the record writes it: the takers of High, Low, Jack, Game, Right
    Pedro and Left Pedro, in that order."""
    keys = ("high", "low", "jack", "game", "right_pedro", "left_pedro")
    return {"pitcher": pitcher, "bid": bid, "points": dict(zip(keys, takers, strict=True))}


def taken(points: str, takers: str) -> dict[str, str | None]:
    """Who took which point, written short for a hand's keyword arguments: ``points`` and
    ``takers`` in the same order, ``-`` for nobody (``taken("high low jack", "Bob - Ann")``
    is ``{"high": "Bob", "low": None, "jack": "Ann"}``)."""
    names = [None if name == "-" else name for name in takers.split()]
    return dict(zip(points.split(), names, strict=True))


# --- forms, as a phone posts them ---------------------------------------------------------


#: The new-game form's fields after the names and teams: the first dealer and house rules.
SETUP_RULE_FIELDS = (
    "first_dealer",
    "target",
    "low_to",
    "smudge",
    "all_pass",
    "payout_in_hole",
    "payout_per_setback",
    "stake",
)


def setup_form(
    variant_key: str,
    names: Iterable[str],
    *,
    teams: Iterable[str] | None = None,
    first_dealer: int = 0,
    **changes: Any,
) -> dict[str, str]:
    """Fill the new-game form as a person would: names, teams, and the prefilled house rules."""
    variant = rules.VARIANTS[variant_key]
    preset = variant.preset.as_dict()
    data = {
        "first_dealer": str(first_dealer),
        "target": str(preset["target"]),
        "low_to": preset["low_to"],
        "all_pass": preset["all_pass"],
        "payout_in_hole": str(preset["payout_in_hole"]),
        "payout_per_setback": str(preset["payout_per_setback"]),
        "stake": "",
    }
    if variant.smudge_bid is not None:  # the page shows the smudge switch only then
        data["smudge"] = preset["smudge"]
    if not variant.shape_fixed:  # the shape of the game, as the page prefills it
        data["shape_shown"] = "1"
        for key in preset["points"]:
            data[f"in_play_{key}"] = "y"
        for name in ("min_bid", "max_bid", "win_rule", "pitcher_scores", "gap", "smudge_failed"):
            data[name] = str(preset[name])
        data["smudge_bid"] = "" if preset["smudge_bid"] is None else str(preset["smudge_bid"])
    for i, name in enumerate(names):
        data[f"name_{i}"] = name
    for i, team in enumerate(teams or ()):
        data[f"team_{i}"] = team
    data.update({key: str(value) for key, value in changes.items()})
    return data


def hand_form(
    players: list[str],
    *,
    pitcher: str | None = None,
    bid: int | None = None,
    version: int | None = None,
    token: str | None = None,
    teams: Iterable[str] | None = None,
    **points: str | None,
) -> dict[str, str]:
    """The hand form's fields as the tap buttons post them: seat numbers, 'nobody', bids.

    Points are given by key (``high="Bob"``, ``jack=None`` for nobody); ``sale`` and
    ``high_bidder`` are passed through the same way, and so are ``dealer`` (who dealt, by
    name or as posted) and ``rest`` (the side the rest goes to, by a player's name or as
    posted). In partnership play (``teams``: each seat's team, as set up) a point's button
    is the team of the player named.
    """
    seat = {name: str(i) for i, name in enumerate(players)}
    taker = dict(seat)
    if teams is not None:
        from scorekeeper.games.forms import TEAM_VALUE

        team_of = dict(zip(players, teams, strict=True))
        order = list(dict.fromkeys(team_of.values()))  # the sides, by each team's first seat
        taker = {name: TEAM_VALUE.format(order.index(team)) for name, team in team_of.items()}
    data: dict[str, str] = {}
    if pitcher is not None:
        data["pitcher"] = seat.get(pitcher, pitcher)
    if bid is not None:
        data["bid"] = str(bid)
    if version is not None:
        data["version"] = str(version)
    if token is not None:
        data["token"] = token
    for key, name in points.items():
        if key == "sale":
            data["sale"] = str(name)
        elif key == "high_bidder":
            data["high_bidder"] = seat.get(str(name), str(name))
        elif key == "dealer":
            data["dealer"] = seat.get(str(name), str(name))
        elif key == "rest":
            data["rest"] = taker.get(str(name), str(name))
        else:
            data[f"point_{key}"] = "nobody" if name is None else taker.get(name, name)
    return data


# --- games set up and hands posted through the real views -------------------------------


def create_game(client: Any, variant_key: str, names: Iterable[str], **kwargs: Any) -> int:
    """Set up a game through the new-game form and return its id."""
    response = client.post(
        f"/games/new/{variant_key}", data=setup_form(variant_key, names, **kwargs)
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.fullmatch(r"/games/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def import_game(client: Any, record: Mapping[str, Any]) -> int:
    """Create a game from a record posted as a JSON body; return its id. A record identical
    to a game kept already is asked for again (``?again=<that game>``), as a person would."""
    response = client.post("/games/import", json=record)
    if response.status_code == 409:
        response = client.post(f"/games/import?again={response.get_json()['game']}", json=record)
    assert response.status_code == 201, response.get_data(as_text=True)
    return int(response.get_json()["id"])


def ap_form(
    players: list[str],
    pitcher: str,
    bid: int,
    high: str,
    low: str,
    jack: str | None,
    game: str | None,
    version: int,
) -> dict[str, str]:
    """The Auction Pitch hand form as its tap buttons post it (seat numbers, 'nobody'), the
    hand given as ``ap_hand`` takes it."""
    for name in (pitcher, high, low, jack, game):
        assert name is None or name in players, f"{name!r} is not at the table {players}"
    return hand_form(
        players, pitcher=pitcher, bid=bid, version=version, high=high, low=low, jack=jack, game=game
    )


def post_hand(client: Any, game_id: int, players: list[str], **fields: Any) -> Any:
    """Post the hand form of a game as the page would (with the game's current version)."""
    if "version" not in fields:
        fields["version"] = version_of(client, game_id)
    return client.post(f"/games/{game_id}", data=hand_form(players, **fields))


def post_ap_hand(client: Any, game_id: int, players: list[str], *hand: Any) -> Any:
    """Post an Auction Pitch hand, given as ``ap_hand`` takes it, with the game's current
    version, as the page would."""
    return client.post(
        f"/games/{game_id}", data=ap_form(players, *hand, version=version_of(client, game_id))
    )


def version_of(client: Any, game_id: int) -> int:
    response = client.get(f"/games/{game_id}/version.json")
    assert response.status_code == 200
    return int(response.get_json()["version"])


# --- events (tournaments) ---------------------------------------------------------------------

#: Eight players: two tables of a progressive event.
EIGHT = ("Ana", "Bo", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


def started_event(
    app: Any,
    names: Iterable[str] = EIGHT,
    *,
    name: str = "Hall night",
    rounds: int = 2,
    hands: int | None = None,
) -> int:
    """A progressive Auction Pitch event on 2026-12-05 of ``names``, ``hands`` hands a game
    (or the variant's usual end), registered and its first round started, through the
    operations the director's screen calls."""
    from datetime import date

    from scorekeeper import operations
    from scorekeeper.operations.event_setup import EventSetup

    with app.app_context():
        event_id = operations.event_setup.create_event(
            EventSetup(
                name=name,
                day=date(2026, 12, 5),
                format="progressive",
                variant="auction-pitch",
                rounds=rounds,
                **({} if hands is None else {"house_rules": {"hands": hands}}),
            )
        )
        operations.event_setup.register(event_id, list(names))
        operations.rounds.start_round(event_id, version=None)
    return event_id


def table_game(app: Any, event_id: int, table: int) -> int:
    """The game at ``table`` of the event's current round (or its knockout)."""
    from scorekeeper import operations

    with app.app_context():
        found = operations.events.table_game(event_id, table)
    assert found is not None, f"table {table} of event {event_id} has no game"
    return found


def play_sweep(app: Any, game_id: int, pitcher_seat: int = 0) -> None:
    """Record a hand the way every phone's Save does (``operations.hands.record_hand``): the
    player in ``pitcher_seat`` bids 2, and the player in seat 0 takes every point."""
    from scorekeeper import operations

    with app.app_context():
        loaded = operations.loading.load(game_id)
        who = loaded.names[0]
        hand = rules.Hand(
            pitcher=loaded.names[pitcher_seat],
            bid=2,
            points=dict.fromkeys(("high", "low", "jack", "game"), who),
        )
        operations.hands.record_hand(game_id, hand, version=loaded.row.version)
