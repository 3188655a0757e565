"""Who a point taken by a team is credited to (``Game.point_taker``, issue 14): the pitcher if
the pitcher plays for that team, else the team's first player in seat order. Whichever member
a record names, the hand scores the same (RULES.md section 1: points belong to sides)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from scorekeeper.rules import Game, loads_record, output_document, score_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: Partners not in alternate seats: the first seated of "Left" is Bo, of "Right" is Al.
SIDE_BY_SIDE = Game.create(
    "auction-pitch", ["Al", "Bo", "Cy", "Di"], teams={"Left": ["Bo", "Cy"], "Right": ["Di", "Al"]}
)


@pytest.mark.parametrize(
    ("side", "pitcher", "credited"),
    [
        ("Left", "Cy", "Cy"),  # the pitcher's own team: the pitcher
        ("Left", "Bo", "Bo"),
        ("Left", "Al", "Bo"),  # the other team: its first player in seat order
        ("Right", "Cy", "Al"),  # Al sits first though the record named Di first
        ("Right", "Di", "Di"),
        ("Right", None, "Al"),  # no pitcher known: the first seat
    ],
)
def test_a_teams_point_goes_to_the_pitcher_on_it_or_else_its_first_seat(
    side: str, pitcher: str | None, credited: str
) -> None:
    assert SIDE_BY_SIDE.point_taker(side, pitcher) == credited


def test_in_individual_play_the_side_is_the_player() -> None:
    game = Game.create("auction-pitch", ["Al", "Bo", "Cy"])
    assert game.point_taker("Bo", "Al") == "Bo"
    assert game.point_taker("Al", "Al") == "Al"


@pytest.mark.parametrize(
    ("game", "side"),
    [
        (SIDE_BY_SIDE, "Nobody"),
        (SIDE_BY_SIDE, "Al"),  # a player, not a team
        (SIDE_BY_SIDE, ""),
        (Game.create("auction-pitch", ["Al", "Bo", "Cy"]), "Di"),
    ],
)
def test_a_side_that_is_not_in_the_game_is_an_error(game: Game, side: str) -> None:
    with pytest.raises(ValueError, match="unknown side"):
        game.point_taker(side, "Al")


#: The worked examples with teams that score (each has its ``.out.json``).
PARTNERSHIP_EXAMPLES = sorted(
    p.name
    for p in EXAMPLES.glob("*.json")
    if p.with_suffix(".out.json").exists() and '"teams"' in p.read_text(encoding="utf-8")
)


def test_the_partnership_examples_are_found() -> None:
    assert len(PARTNERSHIP_EXAMPLES) >= 4, PARTNERSHIP_EXAMPLES


@pytest.mark.parametrize("name", PARTNERSHIP_EXAMPLES)
def test_crediting_every_point_to_the_teams_player_scores_every_partnership_example_the_same(
    name: str,
) -> None:
    """The worked examples with teams (partnership Auction Pitch, Cinch, 10-Point Pitch with
    counted Game...), every point moved to the player the team buttons credit: same output."""
    record = loads_record((EXAMPLES / name).read_bytes())
    game = record.game
    moved = tuple(
        hand
        if hand.passed
        else replace(
            hand,
            points={
                key: None if who is None else game.point_taker(game.side_of(who), hand.pitcher)
                for key, who in hand.points.items()
            },
        )
        for hand in record.hands
    )
    assert moved != record.hands  # the examples credit other members too: a real move
    assert output_document(score_game(game, moved)) == output_document(record.score())
