"""The engine's words for its switches (rules/switch_words.py) name only values the engine has.

The words are declared as text, one record per value, away from the switches' enums; these
tests hold the two together, so a value renamed or added in variants.py without its words
fails here rather than on a page.
"""

from __future__ import annotations

from collections import Counter

import pytest

from scorekeeper.rules import variants
from scorekeeper.rules.switch_words import (
    SCORING_SENTENCES,
    SWITCH_CHOICES,
    SWITCH_SENTENCES,
    SWITCH_VALUES,
    SWITCH_WORDS,
)
from scorekeeper.rules.variants import _ENUM_SWITCHES, SWITCH_NAMES, Scoring

#: The switches whose values a setup form offers as choices (the others are numbers, or
#: have one value only).
OFFERED = ("low_to", "smudge", "all_pass", "win_rule", "pitcher_scores", "smudge_failed")


def test_every_value_with_words_is_a_value_of_its_switch() -> None:
    for said in SWITCH_VALUES:
        assert said.switch in SWITCH_NAMES, said
        if said.switch in _ENUM_SWITCHES:
            enum, _allowed = _ENUM_SWITCHES[said.switch]
            assert said.value in {str(v) for v in enum}, said


def test_each_value_of_a_switch_is_one_record() -> None:
    counted = Counter((said.switch, said.value) for said in SWITCH_VALUES)
    assert [key for key, count in counted.items() if count > 1] == []


@pytest.mark.parametrize("switch", OFFERED)
def test_the_setup_form_offers_every_value_a_table_may_choose_in_order(switch: str) -> None:
    _enum, allowed = _ENUM_SWITCHES[switch]
    assert sorted(SWITCH_CHOICES[switch]) == sorted(str(v) for v in allowed)


@pytest.mark.parametrize("switch", sorted(_ENUM_SWITCHES))
def test_every_value_a_table_may_choose_is_said_on_a_sheet_and_a_rules_card(switch: str) -> None:
    _enum, allowed = _ENUM_SWITCHES[switch]
    for value in allowed:
        assert (switch, str(value)) in SWITCH_WORDS
        assert (switch, str(value)) in SWITCH_SENTENCES


def test_every_scoring_has_its_sentences() -> None:
    assert sorted(SCORING_SENTENCES) == sorted(str(s) for s in Scoring)


def test_the_words_are_still_found_where_the_app_has_always_read_them() -> None:
    assert variants.SWITCH_CHOICES is SWITCH_CHOICES
    assert variants.SWITCH_WORDS is SWITCH_WORDS
    assert variants.SWITCH_SENTENCES is SWITCH_SENTENCES
