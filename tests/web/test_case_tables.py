"""The hand form's Game counter against the table of cases the engine and the script share
(tests/cases/game_count.json): the server adds up a player's cards as the page does while
they are typed. The engine's side is tests/rules/test_rules_case_tables.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import rules
from scorekeeper.games import form_class, forms

CASES = json.loads(
    (Path(__file__).resolve().parents[1] / "cases" / "game_count.json").read_text(encoding="utf-8")
)["cases"]


def _posted(case: dict[str, Any]) -> dict[str, str]:
    """The counter's boxes as a phone posts them: what was typed, by each box's name."""
    data: dict[str, str] = {}
    for seat, name in enumerate(case["players"]):
        typed = case["typed"][name]
        if "count" in typed:
            data[forms.count_field_name(seat)] = str(typed["count"])
        for card, n in typed.get("cards", {}).items():
            data[forms.count_field_name(seat, card)] = str(n)
    return data


@pytest.mark.parametrize("case", CASES, ids=[case["says"] for case in CASES])
def test_the_hand_form_adds_up_the_counter_as_the_table_says(
    app: Any, case: dict[str, Any]
) -> None:
    game = rules.Game.create("auction-pitch", case["players"], teams=case["teams"])
    with app.test_request_context(method="POST", data=_posted(case)):
        form = form_class.hand_form(game)
        assert form.side_counts() == case["sides"]  # the sums so far, as the page shows them
        if "not_counted" in case:  # every player's count or none: nothing to save yet
            assert form.not_counted() == case["not_counted"]
            assert form.game_counts() is None
        else:
            assert form.not_counted() == []
            assert form.game_counts() == case["counted"]
