"""The tables of cases the engine and the scripts share (tests/cases/), checked on the engine.

tests/cases/game_count.json is the Game counter worked by hand (RULES.md section 10),
tests/cases/highest_bid.json the shape of the game's highest bid and smudge bid; the
script's tests (tests/js/) read the same files, so a rule the page works out as it is
typed is held against the engine's, case by case. The engine is never asked for an
expected value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import rules

CASES = Path(__file__).resolve().parents[1] / "cases"
GAME_COUNT = json.loads((CASES / "game_count.json").read_text(encoding="utf-8"))
HIGHEST_BID = json.loads((CASES / "highest_bid.json").read_text(encoding="utf-8"))


def _named(cases: list[dict[str, Any]]) -> Any:
    return pytest.mark.parametrize("case", cases, ids=[case["says"] for case in cases])


def _game(case: dict[str, Any]) -> rules.Game:
    return rules.Game.create("auction-pitch", case["players"], teams=case["teams"])


def test_the_counter_table_counts_the_cards_as_the_engine_does() -> None:
    assert GAME_COUNT["worths"] == dict(rules.GAME_COUNT_CARDS)
    assert GAME_COUNT["most"] == rules.variants.GAME_COUNT_MAX


@_named(GAME_COUNT["cases"])
def test_each_players_count_in_the_table_is_their_cards_or_what_was_typed(
    case: dict[str, Any],
) -> None:
    # The table's own sums, with the engine's worths: a case worked wrong fails here first.
    worths = dict(rules.GAME_COUNT_CARDS)
    for name in case["players"]:
        typed = case["typed"][name]
        cards = typed.get("cards")
        expected = (
            sum(worths[card] * n for card, n in cards.items()) if cards else typed.get("count", 0)
        )
        assert case["counted"][name] == expected, name


@_named(GAME_COUNT["cases"])
def test_the_engine_adds_each_sides_count_as_the_table_says(case: dict[str, Any]) -> None:
    assert rules.counts_by_side(_game(case), case["counted"]) == case["sides"]


@_named([case for case in GAME_COUNT["cases"] if "refused" not in case])
def test_the_engine_credits_game_as_the_table_says(case: dict[str, Any]) -> None:
    game = _game(case)
    assert rules.game_by_count(game, case["counted"]) == case["game"]
    # And a hand that credits Game so, with these counts, is one the engine scores.
    first = case["players"][0]
    hand = rules.Hand(
        pitcher=first,
        bid=2,
        points={"high": first, "low": first, "jack": None, "game": case["game"]},
        game_count=case["counted"],
    )
    assert len(rules.score_game(game, [hand]).hands) == 1


@_named([case for case in GAME_COUNT["cases"] if "refused" in case])
def test_the_engine_refuses_a_count_the_table_refuses(case: dict[str, Any]) -> None:
    first = case["players"][0]
    hand = rules.Hand(
        pitcher=first,
        bid=2,
        points={"high": first, "low": first, "jack": None, "game": None},
        game_count=case["counted"],
    )
    with pytest.raises(rules.RuleError) as refused:
        rules.score_game(_game(case), [hand])
    assert refused.value.code == case["refused"]


@pytest.mark.parametrize("key", sorted(HIGHEST_BID["presets"]))
def test_the_bid_tables_presets_are_the_engines(key: str) -> None:
    preset = HIGHEST_BID["presets"][key]
    variant = rules.find_variant(key)
    assert variant.point_keys == tuple(preset["points"])
    assert {p.key: p.value for p in variant.points} == preset["points"]
    assert variant.points_in_play == preset["total"]
    assert variant.preset.max_bid == preset["max_bid"]
    assert variant.preset.smudge_bid == preset["smudge_bid"]


@_named(HIGHEST_BID["cases"])
def test_the_points_worths_in_the_bid_table_are_the_engines(case: dict[str, Any]) -> None:
    assert {key: rules.POINTS[key].value for key in case["points"]} == case["points"]
    assert sum(case["points"].values()) == case["total"]


@_named([case for case in HIGHEST_BID["cases"] if "refused" not in case])
def test_the_engine_sets_the_highest_bid_and_smudge_bid_as_the_table_says(
    case: dict[str, Any],
) -> None:
    variant = rules.find_variant(case["variant"])
    house = variant.house_rules({"points": list(case["points"]), **case["typed"]})
    assert house.max_bid == case["max_bid"]
    assert house.smudge_bid == case["smudge_bid"]
    assert variant.shaped(house).points_in_play == case["total"]


@_named([case for case in HIGHEST_BID["cases"] if "refused" in case])
def test_the_engine_refuses_the_bids_the_table_refuses(case: dict[str, Any]) -> None:
    variant = rules.find_variant(case["variant"])
    with pytest.raises(rules.RuleError) as refused:
        variant.house_rules({"points": list(case["points"]), **case["typed"]})
    assert refused.value.code == case["refused"]
