"""RULES.md section 5, Partnerships: sides are teams; only 2x2, 2x3 and 3x2 are allowed."""

from __future__ import annotations

import pytest
from rules_helpers import NS_EW, assert_one_line, play

from scorekeeper.rules import Game, RuleError


def _teams_error(variant: str, players: str, teams: dict) -> RuleError:
    with pytest.raises(RuleError) as caught:
        Game.create(variant, players.split(), teams=teams)
    error = caught.value
    assert error.field == "teams"
    assert error.hand is None
    assert assert_one_line(error).startswith("teams: ")
    return error


@pytest.mark.parametrize(
    ("variant", "players", "teams", "sides"),
    [
        ("auction-pitch", "A B C D", {"NS": ["A", "C"], "EW": ["B", "D"]}, ("NS", "EW")),
        (
            "pitch-six",
            "A B C D E F",
            {"Odd": ["A", "C", "E"], "Even": ["B", "D", "F"]},
            ("Odd", "Even"),
        ),
        (
            "pedro",
            "A B C D E F",
            {"X": ["A", "D"], "Y": ["B", "E"], "Z": ["C", "F"]},
            ("X", "Y", "Z"),
        ),
        ("cinch", "A B C D", {"NS": ["A", "C"], "EW": ["B", "D"]}, ("NS", "EW")),
        (
            "cinch",
            "A B C D E F",
            {"Odd": ["A", "C", "E"], "Even": ["B", "D", "F"]},
            ("Odd", "Even"),
        ),
        ("racehorse-pitch", "A B C D", {"NS": ["A", "C"], "EW": ["B", "D"]}, ("NS", "EW")),
        ("sell-out", "A B C D", {"NS": ["A", "C"], "EW": ["B", "D"]}, ("NS", "EW")),
        ("joker-pitch", "A B C D", {"NS": ["A", "C"], "EW": ["B", "D"]}, ("NS", "EW")),
    ],
)
def test_four_as_two_by_two_and_six_as_two_by_three_or_three_by_two_are_allowed(
    variant, players, teams, sides
):
    game = Game.create(variant, players.split(), teams=teams)
    assert game.sides == sides


def test_partners_need_not_sit_alternately():
    game = Game.create(
        "auction-pitch", ["A", "B", "C", "D"], teams={"AB": ["A", "B"], "CD": ["C", "D"]}
    )
    assert game.members("AB") == ("A", "B")


def test_the_sides_are_ordered_by_each_teams_first_seat():
    game = Game.create(
        "auction-pitch", ["A", "B", "C", "D"], teams={"Second": ["D", "B"], "First": ["C", "A"]}
    )
    assert game.sides == ("First", "Second")
    assert game.members("Second") == ("B", "D")


def test_partners_points_add_up_for_their_side():
    result = play("auction-pitch", "A B C D", ["B 2: B D A C"], teams=NS_EW)
    assert dict(result.hands[0].taken) == {"NS": 2, "EW": 2}
    assert dict(result.scores) == {"NS": 2, "EW": 2}


def test_a_partnership_wins_on_the_count_out_as_a_side():
    # NS at 6; EW pitch 2 and are set back; C takes Low for NS, then A the Jack.
    result = play(
        "auction-pitch",
        "A B C D",
        ["A 3: A C C A", "C 2: C A B D", "B 2: B C A -"],
        teams=NS_EW,
    )
    assert [dict(h.scores) for h in result.hands] == [
        {"NS": 4, "EW": 0},
        {"NS": 6, "EW": 2},
        {"NS": 8, "EW": 0},
    ]
    assert (result.winner, result.win_reason, result.winning_hand) == ("NS", "count-out", 3)


def test_a_pitch_six_partnership_wins_by_making_its_bid():
    result = play(
        "pitch-six",
        "A B C D",
        ["B 6: B D B D B D", "C 4: A C C A B D", "D 5: D B B B D A"],
        teams=NS_EW,
    )
    assert [dict(h.scores) for h in result.hands] == [
        {"NS": 0, "EW": 6},
        {"NS": 4, "EW": 8},
        {"NS": 5, "EW": 13},
    ]
    assert (result.winner, result.win_reason) == ("EW", "bid-out")


def test_five_players_cannot_play_in_partnerships():
    error = _teams_error("auction-pitch", "A B C D E", {"X": ["A", "B", "C"], "Y": ["D", "E"]})
    assert error.code == "teams-seat-count"
    assert str(error) == "teams: partnerships need 4 or 6 players, not 5"


@pytest.mark.parametrize("count", [2, 3, 7])
def test_partnerships_need_four_or_six_players(count):
    players = " ".join(f"P{i}" for i in range(count))
    names = players.split()
    half = len(names) // 2
    error = _teams_error("auction-pitch", players, {"X": names[:half], "Y": names[half:]})
    assert error.code == "teams-seat-count"


def test_unequal_teams_are_rejected():
    error = _teams_error(
        "auction-pitch", "A B C D E F", {"Four": ["A", "B", "C", "D"], "Two": ["E", "F"]}
    )
    assert error.code == "teams-shape"
    assert str(error) == (
        "teams: the teams must split the 6 players into equal teams of 2 or more "
        "(2 teams of 2, 2 of 3 or 3 of 2); got 2 + 4"
    )


def test_teams_of_one_are_rejected():
    error = _teams_error(
        "auction-pitch", "A B C D", {"1": ["A"], "2": ["B"], "3": ["C"], "4": ["D"]}
    )
    assert error.code == "teams-shape"


@pytest.mark.parametrize("players", ["A B C D", "A B C D E F"])
def test_one_team_of_everybody_is_not_a_partnership(players):
    # Fixed in the engine: a single team of 4 or 6 was accepted as "equal teams".
    error = _teams_error("auction-pitch", players, {"All": players.split()})
    assert error.code == "teams-shape"


def test_cinch_needs_exactly_two_teams():
    error = _teams_error(
        "cinch", "A B C D E F", {"X": ["A", "D"], "Y": ["B", "E"], "Z": ["C", "F"]}
    )
    assert error.code == "teams-cinch-two"
    assert str(error) == "teams: Cinch is played by exactly 2 teams, not 3"


def test_cinch_without_teams_is_rejected():
    with pytest.raises(RuleError) as caught:
        Game.create("cinch", ["A", "B", "C", "D"])
    assert (caught.value.code, caught.value.field) == ("teams-required", "teams")
    assert str(caught.value) == "teams: Cinch is played in partnerships: name the teams"


def test_a_player_in_two_teams_is_rejected():
    error = _teams_error("auction-pitch", "A B C D", {"X": ["A", "B"], "Y": ["B", "C", "D"]})
    assert error.code == "team-player-twice"


def test_a_seated_player_left_out_of_every_team_is_rejected():
    error = _teams_error("auction-pitch", "A B C D", {"X": ["A", "B"], "Y": ["C"]})
    assert error.code == "team-player-missing"
    assert str(error) == 'teams: "D" is not in any team'


def test_a_team_member_who_is_not_seated_is_rejected():
    error = _teams_error("auction-pitch", "A B C D", {"X": ["A", "B"], "Y": ["C", "Zed"]})
    assert error.code == "team-unknown-player"
    assert str(error) == 'teams: "Zed" is in team "Y" but is not seated in the game'


def test_a_team_name_follows_the_rules_for_names():
    error = _teams_error("auction-pitch", "A B C D", {" X": ["A", "B"], "Y": ["C", "D"]})
    assert error.code == "name-spaces"


def test_individual_play_has_one_side_per_player():
    game = Game.create("auction-pitch", ["A", "B", "C"])
    assert game.sides == ("A", "B", "C")
    assert [game.side_of(p) for p in game.players] == ["A", "B", "C"]
