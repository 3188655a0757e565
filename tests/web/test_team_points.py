"""Partnership points by team (issue 14): the hand form's point rows offer one button per team
(plus "nobody"), the record credits one documented player of the team, and the scores are
exactly those of the same hand credited to any member of it.

The documented player (docs/RULES.md, "Partnerships"; docs/DECISIONS.md) is written out here
again on purpose, as the table's rule, so that a change of the engine's choice fails a test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest

from scorekeeper import rules

from .tables import (
    create_game,
    exported,
    hand_count,
    import_game,
    page,
    record,
    taken,
    text,
    version_of,
)

FOUR = ["Ann", "Bob", "Cy", "Dee"]
NS, EW = "North\N{EN DASH}South", "East\N{EN DASH}West"
#: Ann and Cy against Bob and Dee, partners across the table.
ACROSS = {NS: ["Ann", "Cy"], EW: ["Bob", "Dee"]}
NOBODY = "Nobody"


class Buttons(HTMLParser):
    """The tap buttons of a page as a person sees them: each row's labels, with the value a
    tap posts, the accessible name of the button, and which one is tapped."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.inputs: dict[str, dict[str, str | None]] = {}
        self.labels: dict[str, str] = {}
        self._label: str | None = None
        self._text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "input" and a.get("type") == "radio":
            self.inputs[str(a["id"])] = a
        if tag == "label" and a.get("for"):
            self._label, self._text = str(a["for"]), []

    def handle_data(self, data: str) -> None:
        if self._label is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "label" and self._label is not None:
            self.labels[self._label] = " ".join("".join(self._text).split())
            self._label = None

    def row(self, name: str) -> dict[str, str]:
        """The buttons of one row: label → the value its tap posts."""
        return {
            self.labels[i]: str(a["value"]) for i, a in self.inputs.items() if a["name"] == name
        }

    def names(self, name: str) -> dict[str, str]:
        """The buttons of one row: label → what a screen reader calls the button."""
        return {
            self.labels[i]: str(a.get("aria-label") or self.labels[i])
            for i, a in self.inputs.items()
            if a["name"] == name
        }

    def tapped(self, name: str) -> str | None:
        """The label of the button tapped in a row, if any."""
        for i, a in self.inputs.items():
            if a["name"] == name and "checked" in a:
                return self.labels[i]
        return None


def documented_taker(
    teams: dict[str, list[str]], players: list[str], side: str, pitcher: str
) -> str:
    """The player the record credits with a point the team ``side`` took: the pitcher if the
    pitcher plays for that team, else the team's first player in seat order."""
    members = sorted(teams[side], key=players.index)
    return pitcher if pitcher in members else members[0]


def team_of(teams: dict[str, list[str]], player: str) -> str:
    return next(team for team, members in teams.items() if player in members)


@dataclass
class Table:
    """A partnership game at a table: its setup, and hands as a record credits them."""

    variant: str
    players: list[str]
    teams: dict[str, list[str]]
    hands: list[dict[str, Any]]
    house_rules: dict[str, Any] = field(default_factory=dict)

    def member_record(self) -> dict[str, Any]:
        """The game record with every point credited to the member the hand names."""
        extra: dict[str, Any] = {"teams": self.teams}
        if self.house_rules:
            extra["house_rules"] = self.house_rules
        return record(self.variant, self.players, self.hands, **extra)

    def create(self, client: Any) -> int:
        return create_game(
            client,
            self.variant,
            self.players,
            teams=[team_of(self.teams, p) for p in self.players],
            **self.house_rules,
        )


def tap_hand(client: Any, game_id: int, table: Table, hand: dict[str, Any]) -> dict[str, str]:
    """The fields the game page's buttons post for ``hand``, tapped as at the table: the
    pitcher and high bidder by name, each point by the team of the member credited with it."""
    shown = client.get(f"/games/{game_id}")
    buttons = Buttons(shown.get_data(as_text=True))
    fields = {"version": str(version_of(client, game_id))}
    fields["number"] = page(shown).value("number") or ""
    fields["token"] = page(shown).value("token") or ""
    if "sale" in hand:
        fields["sale"] = hand["sale"]
    if "high_bidder" in hand:
        fields["high_bidder"] = buttons.row("high_bidder")[hand["high_bidder"]]
    if hand.get("pitcher") is not None and hand.get("sale") != "kept":
        fields["pitcher"] = buttons.row("pitcher")[hand["pitcher"]]
    fields["bid"] = buttons.row("bid")[str(hand["bid"])]
    for key, taker in hand["points"].items():
        label = NOBODY if taker is None else team_of(table.teams, taker)
        fields[f"point_{key}"] = buttons.row(f"point_{key}")[label]
    return fields


def h(
    pitcher: str,
    bid: int,
    sale: str | None = None,
    high_bidder: str | None = None,
    **points: str | None,
) -> dict[str, Any]:
    """A played hand as the record writes it (``sale`` and ``high_bidder`` in Sell-Out)."""
    hand: dict[str, Any] = {"pitcher": pitcher, "bid": bid, "points": points}
    if sale is not None:
        hand["sale"] = sale
    if high_bidder is not None:
        hand["high_bidder"] = high_bidder
    return hand


# The hands credit members on purpose: the pitcher's partner, a defending team's second seat.
TABLES = {
    "auction-pitch-low-to-taker-set-back-and-bid-out": Table(
        "auction-pitch",
        FOUR,
        ACROSS,
        [
            # Bob (East-West) makes 2 with his partner's High and Jack; Cy took Game.
            h("Bob", 2, high="Dee", low="Cy", jack="Dee", game="Cy"),
            # Cy bids 3 and takes only High (through Ann): set back into the hole.
            h("Cy", 3, high="Ann", low="Dee", jack=None, game="Dee"),
            # Dee makes 3 and East-West goes out first at 7.
            h("Dee", 3, high="Bob", low="Dee", jack="Cy", game="Dee"),
        ],
        {"low_to": "taker"},
    ),
    "joker-pitch-smudge": Table(
        "joker-pitch",
        FOUR,
        ACROSS,
        [
            h("Ann", 3, high="Cy", low="Cy", jack="Bob", joker=None, game="Cy"),
            h("Dee", 5, high="Bob", low="Dee", jack="Dee", joker="Bob", game="Bob"),
        ],
    ),
    "pedro-set-back": Table(
        "pedro",
        FOUR,
        ACROSS,
        [
            h("Bob", 6, high="Dee", low="Ann", jack="Dee", game="Cy", pedro="Dee"),
            h("Cy", 7, high="Ann", low="Ann", jack=None, game=None, pedro="Bob"),
        ],
    ),
    "cinch-made-failed-and-named-for-0": Table(
        "cinch",
        FOUR,
        {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]},
        [
            h(
                "Ann",
                6,
                **taken("high low jack game right_pedro left_pedro", "Cy Dee Cy - Cy Dee"),
            ),
            h(
                "Dee",
                8,
                **taken("high low jack game right_pedro left_pedro", "Ann Cy Dee Dee Bob Cy"),
            ),
            # Cy deals; all passed and his partner Ann names trump for 0.
            h(
                "Ann",
                0,
                **taken("high low jack game right_pedro left_pedro", "Bob Bob Dee Cy Dee -"),
            ),
        ],
    ),
    "sell-out-sold-and-kept": Table(
        "sell-out",
        FOUR,
        ACROSS,
        [
            # Ann deals, Bob sells to Cy for 2.
            h("Cy", 2, high="Ann", low="Cy", jack=None, game="Dee", sale="sold"),
            # Bob deals, Cy keeps it at Dee's 3: Cy is the pitcher, left untapped.
            h(
                "Cy",
                3,
                **taken("high low jack game", "Cy Ann Ann Bob"),
                sale="kept",
                high_bidder="Dee",
            ),
        ],
    ),
    "auction-pitch-three-teams-count-out": Table(
        "auction-pitch",
        ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
        {"Reds": ["Ann", "Dee"], "Blues": ["Bob", "Eve"], "Greens": ["Cy", "Fay"]},
        [
            h("Ann", 2, high="Eve", low="Fay", jack="Dee", game="Bob"),
            # Greens reach 3 on High before Blues are counted: a count-out win.
            h("Bob", 2, high="Fay", low="Eve", jack="Cy", game=None),
        ],
        {"target": 3},
    ),
    "ten-point": Table(
        "ten-point",
        FOUR,
        ACROSS,
        [
            h(
                "Bob",
                4,
                **taken(
                    "high low jack off_jack big_joker little_joker three game",
                    "Dee Ann Dee - Cy Bob Dee Cy",
                ),
            ),
        ],
    ),
}


def test_every_table_plays_differently_enough_to_matter() -> None:
    """The tables above reach what the issue names: Low to the taker, a set-back, Cinch,
    Pedro, a kept Sell-Out hand, a game won (bid-out, smudge, count-out, first to target)."""
    reasons = set()
    events = set()
    for table in TABLES.values():
        result = rules.parse_record(table.member_record()).score()
        reasons.add(result.win_reason)
        events |= {event for hand in result.hands for event in hand.events}
    assert {rules.WinReason.BID_OUT, rules.WinReason.SMUDGE, rules.WinReason.COUNT_OUT} <= reasons
    assert {rules.Event.SET_BACK, rules.Event.MADE, rules.Event.KEPT, rules.Event.SOLD} <= events


# --- The buttons ------------------------------------------------------------------------------


def test_partnership_point_rows_offer_one_button_per_team_and_nobody(client: Any) -> None:
    game_id = TABLES["auction-pitch-low-to-taker-set-back-and-bid-out"].create(client)
    buttons = Buttons(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert list(buttons.row("point_high")) == [NS, EW]
    assert list(buttons.row("point_low")) == [NS, EW]
    assert list(buttons.row("point_jack")) == [NS, EW, NOBODY]
    assert list(buttons.row("point_game")) == [NS, EW, NOBODY]
    # The pitcher is a player: still one button per seat.
    assert list(buttons.row("pitcher")) == FOUR
    # A screen reader hears who plays for the team.
    assert buttons.names("point_high") == {NS: f"Team {NS}: Ann, Cy", EW: f"Team {EW}: Bob, Dee"}


def test_six_players_in_three_teams_get_three_team_buttons(client: Any) -> None:
    game_id = TABLES["auction-pitch-three-teams-count-out"].create(client)
    buttons = Buttons(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert list(buttons.row("point_high")) == ["Reds", "Blues", "Greens"]
    assert list(buttons.row("point_jack")) == ["Reds", "Blues", "Greens", NOBODY]
    assert buttons.names("point_low")["Greens"] == "Team Greens: Cy, Fay"
    assert list(buttons.row("pitcher")) == ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def test_cinch_rows_name_the_two_teams_for_every_five(client: Any) -> None:
    game_id = TABLES["cinch-made-failed-and-named-for-0"].create(client)
    buttons = Buttons(client.get(f"/games/{game_id}").get_data(as_text=True))
    for key in ("high", "low", "jack", "game", "right_pedro", "left_pedro"):
        assert list(buttons.row(f"point_{key}"))[:2] == ["Us", "Them"], key


@pytest.mark.parametrize("variant", ["auction-pitch", "pedro", "ten-point"])
def test_rows_without_partnerships_still_offer_a_button_per_player(
    client: Any, variant: str
) -> None:
    game_id = create_game(client, variant, FOUR)
    buttons = Buttons(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert list(buttons.row("point_high")) == FOUR
    assert list(buttons.row("point_jack")) == [*FOUR, NOBODY]
    assert buttons.names("point_high") == {name: name for name in FOUR}


# --- The record scores as before --------------------------------------------------------------


@pytest.mark.parametrize("name", list(TABLES))
def test_a_hand_tapped_by_team_scores_as_the_same_hand_credited_to_a_member(
    client: Any, name: str
) -> None:
    table = TABLES[name]
    game_id = table.create(client)
    for hand in table.hands:
        response = client.post(f"/games/{game_id}", data=tap_hand(client, game_id, table, hand))
        assert response.status_code == 302, text(response.get_data(as_text=True))[:2000]
    saved = exported(client, game_id)
    before = rules.output_document(rules.parse_record(table.member_record()).score())
    now = rules.output_document(rules.parse_record(saved).score())
    assert now == before
    # Every point the team took is credited to the documented player of that team.
    for hand, recorded in zip(table.hands, saved["hands"], strict=True):
        pitcher = hand["pitcher"]
        assert recorded["pitcher"] == pitcher
        for key, taker in hand["points"].items():
            expected = (
                None
                if taker is None
                else documented_taker(
                    table.teams, table.players, team_of(table.teams, taker), pitcher
                )
            )
            assert recorded["points"][key] == expected, (key, recorded)


def test_the_queued_hands_post_takes_team_taps_too(client: Any) -> None:
    """The phone's script posts the form's fields as they are (static/js/offline.js): a
    hand with team taps is saved through /hands.json as through the page."""
    table = TABLES["pedro-set-back"]
    game_id = table.create(client)
    fields = tap_hand(client, game_id, table, table.hands[0])
    response = client.post(f"/games/{game_id}/hands.json", data={**fields, "save": "Save hand"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["status"] == "saved"
    assert exported(client, game_id)["hands"][0]["points"] == {
        "high": "Bob", "low": "Ann", "jack": "Bob", "game": "Ann", "pedro": "Bob"
    }  # fmt: skip


def test_game_left_for_the_count_is_credited_as_a_tap_on_the_counting_team_would_be(
    client: Any,
) -> None:
    """Game untapped with the counter filled in: the team that counted most takes it, credited
    to the same player as a tap on that team (not to whichever partner counted more)."""
    table = TABLES["auction-pitch-low-to-taker-set-back-and-bid-out"]
    game_id = table.create(client)
    hand = h("Bob", 2, high="Dee", low="Dee", jack=None, game="Ann")
    fields = tap_hand(client, game_id, table, hand)
    del fields["point_game"]
    # Cy counts most, for North-South (34 to 22); Bob, the pitcher, is on East-West.
    fields.update({"gc_0": "10", "gc_1": "12", "gc_2": "24", "gc_3": "10"})
    response = client.post(f"/games/{game_id}", data=fields)
    assert response.status_code == 302, text(response.get_data(as_text=True))[:2000]
    saved = exported(client, game_id)["hands"][0]
    assert saved["points"]["game"] == "Ann"
    assert saved["game_count"] == {"Ann": 10, "Bob": 12, "Cy": 24, "Dee": 10}


# --- Correcting a hand ------------------------------------------------------------------------


def test_correcting_a_partnership_hand_taps_the_team_of_whoever_the_record_credits(
    client: Any,
) -> None:
    """An imported record may credit any member: the correction page taps that member's team,
    and saving it unchanged scores the same and credits the documented player."""
    table = TABLES["auction-pitch-low-to-taker-set-back-and-bid-out"]
    game_id = import_game(client, table.member_record())
    before = rules.output_document(rules.parse_record(exported(client, game_id)).score())
    shown = client.get(f"/games/{game_id}/hands/2/edit")
    assert shown.status_code == 200
    buttons = Buttons(shown.get_data(as_text=True))
    # Hand 2 credits Ann with High, Dee with Low and Game, nobody with the Jack; Cy pitched.
    assert buttons.tapped("pitcher") == "Cy"
    assert buttons.tapped("point_high") == NS
    assert buttons.tapped("point_low") == EW
    assert buttons.tapped("point_jack") == NOBODY
    assert buttons.tapped("point_game") == EW
    assert list(buttons.row("point_high")) == [NS, EW]
    # Saved as it stands: the same scores; East-West's points now credited to Bob.
    response = client.post(f"/games/{game_id}/hands/2/edit", data=page(shown).submitted())
    assert response.status_code == 302, text(response.get_data(as_text=True))[:2000]
    saved = exported(client, game_id)
    assert rules.output_document(rules.parse_record(saved).score()) == before
    assert saved["hands"][1]["points"] == {"high": "Cy", "low": "Bob", "jack": None, "game": "Bob"}
    assert saved["hands"][0] == table.hands[0]  # the other hands are not touched


def test_an_imported_record_crediting_any_member_shows_its_scores(client: Any) -> None:
    table = TABLES["pedro-set-back"]
    game_id = import_game(client, table.member_record())
    result = rules.parse_record(table.member_record()).score()
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    standings = text(html.split('id="standings"', 1)[1].split("</section>", 1)[0])
    assert result.scores == {NS: -5, EW: 12}
    assert f"{NS} Ann · Cy \N{MINUS SIGN}5 in the hole · 1 set-back" in standings
    assert f"{EW} Bob · Dee 12" in standings


# --- Refused ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["team-9", "0", EW, ""])
def test_a_team_that_is_not_one_of_the_games_teams_is_refused_naming_the_row(
    client: Any, app: Any, value: str
) -> None:
    table = TABLES["auction-pitch-low-to-taker-set-back-and-bid-out"]
    game_id = table.create(client)
    fields = tap_hand(client, game_id, table, table.hands[0])
    fields["point_jack"] = value
    response = client.post(f"/games/{game_id}", data=fields)
    assert response.status_code == 400
    errors = page(response).errors["point_jack"]
    if value:
        assert errors == [f"{value!r} is not one of this game's teams: choose a team for Jack."]
    else:
        assert errors == ["Choose who took Jack."]
    assert hand_count(app, game_id) == 0
    # The phone's queue gets the same words, and nothing is saved either.
    queued = client.post(f"/games/{game_id}/hands.json", data=fields)
    assert queued.status_code == 400
    assert any("Jack" in message for message in queued.get_json()["messages"])
    assert hand_count(app, game_id) == 0


def test_a_correction_with_a_bad_team_changes_nothing(client: Any) -> None:
    table = TABLES["pedro-set-back"]
    game_id = import_game(client, table.member_record())
    shown = client.get(f"/games/{game_id}/hands/1/edit")
    fields = page(shown).submitted()
    fields["point_pedro"] = "team-2"
    response = client.post(f"/games/{game_id}/hands/1/edit", data=fields)
    assert response.status_code == 400
    assert page(response).errors["point_pedro"] == [
        "'team-2' is not one of this game's teams: choose a team for Pedro."
    ]
    assert exported(client, game_id)["hands"] == table.hands


def test_the_romanian_page_names_the_team_buttons_in_romanian(client: Any) -> None:
    table = TABLES["pedro-set-back"]
    game_id = table.create(client)
    html = client.get(f"/games/{game_id}", headers={"Accept-Language": "ro"}).get_data(as_text=True)
    buttons = Buttons(html)
    assert buttons.names("point_high")[NS] == f"Echipa {NS}: Ann, Cy"
    assert list(buttons.row("point_jack")) == [NS, EW, "Nimeni"]
