"""The rules card: one sentence per rule of the game's own data, for every variant and house
rule, in English and Romanian, as a page (``/rules/<variant>``, ``/games/<id>/rules``).

The rules a card must say are worked out here from the engine's data (its points, its
switches, its variant's fields), so a rule added to the data without a sentence fails.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest

from scorekeeper import i18n, rules
from scorekeeper.rules.game import Sale
from scorekeeper.rules.variants import SWITCH_CHOICES, SWITCH_NAMES, Scoring, low_to_applies
from scorekeeper.sheets.rules_card import card_lines, game_card, variant_card
from tests.i18n.test_romanian_pages import english_words

from .tables import import_game, record

#: Where each house-rule switch is said on the card (the key of its line; ``point:`` is one
#: line per point in play). A switch added to HouseRules and missing here fails the test below.
SWITCH_LINES: dict[str, str] = {
    "target": "target",
    "low_to": "low_to",
    "smudge": "smudge",
    "all_pass": "all_pass",
    "game_tie": "game_tie",
    "payout_in_hole": "payout_in_hole",
    "payout_per_setback": "payout_per_setback",
    "min_bid": "bids",
    "smudge_failed": "smudge_failed",
    "points": "point:",
    "max_bid": "bids",
    "smudge_bid": "smudge",
    "win_rule": "win_rule",
    "pitcher_scores": "made",
    "gap": "gap",
    "hands": "hands",
}
#: The same for the variant's own fields; the others say what the variant is or who sits,
#: not how it is played and scored (the setup form asks for seats and teams).
VARIANT_LINES: dict[str, str] = {
    "points": "point:",
    "min_bid": "bids",
    "max_bid": "bids",
    "smudge_bid": "smudge",
    "smudge_name": "smudge",
    "pitcher_scores_bid": "made",
    "win_rule": "win_rule",
    "gap": "gap",
    "scoring": "set_back",
    "sales": "sale:",
}
NOT_TABLE_RULES = {
    "key",
    "name",
    "description",
    "min_seats",
    "max_seats",
    "house",
    "teams_required",
    "shape_fixed",
    "base",
}


def expected_keys(
    variant: rules.Variant, house: rules.HouseRules, stake: str | None = None
) -> list[str]:
    """The rules a card of this game says, in order, read from the engine's data."""
    smudge_on = variant.smudge_bid is not None and house.smudge is not rules.Smudge.OFF
    scoring = (
        ["made", "set_back"]
        if variant.scoring is Scoring.CINCH
        else ["made", "set_back", "defenders"]
    )
    return [
        "bids",
        "smudge",
        *(["smudge_failed"] if smudge_on else []),
        "all_pass",
        *([f"sale:{sale}" for sale in Sale] if variant.sales else []),
        *(["sale_limits"] if variant.sales and house.target is not None else []),
        *(f"point:{point.key}" for point in variant.points),
        *(["low_to"] if any(low_to_applies(p) for p in variant.points) else []),
        *(["game_tie"] if variant.counts_game else []),
        *scoring,
        "target",
        *(["hands"] if house.hands is not None else []),
        *(["win_rule"] + (["gap"] if variant.gap else []) if house.target is not None else []),
        "payout_in_hole",
        *(["payout_per_setback"] if house.payout_per_setback else []),
        *(["stake"] if stake else []),
    ]


def house_rule_options() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(variant, label, switches) for every variant: its preset, each value the setup form
    offers of each switch the variant takes, and the numeric switches changed."""
    numeric: dict[str, Any] = {
        "target": 11,
        "payout_in_hole": 3,
        "payout_per_setback": 1,
        "gap": 5,
        "min_bid": 1,
        "hands": 10,
    }
    for key, variant in rules.VARIANTS.items():
        yield key, "preset", {}
        options = [
            {switch: str(value)} for switch, choices in SWITCH_CHOICES.items() for value in choices
        ]
        options += [{name: value} for name, value in numeric.items()]
        options.append({"points": ["high", "low", "jack", "off_jack", "game"]})
        options.append({"smudge_bid": None})
        for switches in options:
            try:
                variant.house_rules(switches)
            except rules.RuleError:
                continue  # not a switch this variant takes (Cinch's shape, a smudge in Pedro)
            label = ",".join(f"{k}={v}" for k, v in switches.items())
            yield key, label, switches


OPTIONS = list(house_rule_options())


def played(variant_key: str, switches: dict[str, Any]) -> tuple[rules.Variant, rules.HouseRules]:
    variant = rules.VARIANTS[variant_key]
    house = variant.house_rules(switches)
    return variant.shaped(house), house


def test_every_switch_and_every_field_of_a_variant_is_said_somewhere_on_the_card() -> None:
    assert set(SWITCH_LINES) == set(SWITCH_NAMES), "a new switch needs its line on the card"
    variant_fields = {f.name for f in fields(rules.Variant)}
    assert set(VARIANT_LINES) | NOT_TABLE_RULES == variant_fields, "a new rule needs its line"
    said = {key for v, _label, on in OPTIONS for key, _ in card_lines(*played(v, on))}
    for line in {*SWITCH_LINES.values(), *VARIANT_LINES.values()}:
        assert any(key == line or key.startswith(line) for key in said), line


@pytest.mark.parametrize(("variant_key", "label", "switches"), OPTIONS)
def test_the_card_has_one_sentence_per_rule_of_the_games_data(
    variant_key: str, label: str, switches: dict[str, Any]
) -> None:
    variant, house = played(variant_key, switches)
    lines = card_lines(variant, house, stake="0.25")
    keys = [key for key, _ in lines]
    assert keys == expected_keys(variant, house, stake="0.25")
    sentences = [sentence for _, sentence in lines]
    assert all(s.strip() and s[0].isupper() and s.endswith(".") for s in sentences), sentences
    assert len(set(sentences)) == len(sentences), "two rules said in the same words"
    # The points, one each, in count-out order, with their worth.
    points = [sentence for key, sentence in lines if key.startswith("point:")]
    assert len(points) == len(variant.points)
    for point, sentence in zip(variant.points, points, strict=True):
        assert sentence.startswith(f"{point.name}, worth {point.value}: {point.help}")


@pytest.mark.parametrize("variant_key", list(rules.VARIANTS))
def test_a_card_says_the_numbers_of_the_variants_data(variant_key: str) -> None:
    variant = rules.VARIANTS[variant_key]
    said = dict(variant_card(variant).lines)
    assert str(variant.max_bid) in said["bids"]
    if variant.min_bid:
        assert str(variant.min_bid) in said["bids"]
    if variant.smudge_bid is not None:
        assert variant.smudge_name in said["smudge"] and str(variant.smudge_bid) in said["smudge"]
    assert str(variant.house.target) in said["target"]
    assert str(variant.house.payout_in_hole) in said["payout_in_hole"]
    if variant.win_rule is rules.WinRule.COUNT_OUT:
        assert ", ".join(p.name for p in variant.points) in said["win_rule"]
    if variant.scoring is Scoring.CINCH:
        assert str(variant.points_in_play) in said["set_back"]


@pytest.mark.parametrize(("variant_key", "label", "switches"), OPTIONS)
def test_a_house_rule_changed_changes_the_sentence_that_says_it(
    variant_key: str, label: str, switches: dict[str, Any]
) -> None:
    preset_variant = rules.VARIANTS[variant_key]
    before = dict(card_lines(preset_variant, preset_variant.preset))
    variant, house = played(variant_key, switches)
    after = dict(card_lines(variant, house))
    ((switch, value),) = switches.items() if switches else (("", None),)
    if not switch or getattr(house, switch) == getattr(preset_variant.preset, switch):
        assert after == before  # the preset's own value: the same card
        return
    line = SWITCH_LINES[switch]
    if line == "point:":
        assert [k for k in after if k.startswith(line)] != [k for k in before if k.startswith(line)]
    else:
        assert after.get(line) != before.get(line), (switch, value)


@pytest.mark.parametrize("variant_key", ["auction-pitch", "sell-out", "pitch-six"])
def test_a_card_of_a_game_without_a_target_says_only_its_hands_end_it(variant_key: str) -> None:
    variant, house = played(variant_key, {"hands": 12, "target": None})
    lines = card_lines(variant, house)
    assert [key for key, _ in lines] == expected_keys(variant, house)
    said = dict(lines)
    assert "12" in said["hands"] and "None" not in " ".join(said.values())


def test_a_point_whose_data_changes_is_said_anew() -> None:
    variant = rules.VARIANTS["auction-pitch"]
    worth_two = replace(variant.points[0], value=2)
    changed = replace(variant, points=(worth_two, *variant.points[1:]))
    before, after = (dict(card_lines(v, v.preset)) for v in (variant, changed))
    key = f"point:{worth_two.key}"
    assert f"worth {worth_two.value}" in after[key] and after[key] != before[key]
    assert {k: s for k, s in after.items() if k != key} == {
        k: s for k, s in before.items() if k != key
    }


@pytest.fixture
def misses() -> Iterator[list[str]]:
    """Messages sent to gettext with no Romanian translation while the test runs."""
    found: list[str] = []
    romanian = i18n.translations_for("ro")
    assert isinstance(romanian, i18n.CheckedTranslations)
    romanian.on_miss = lambda _locale, message: found.append(message)
    yield found
    romanian.on_miss = None


@pytest.mark.parametrize(("variant_key", "label", "switches"), OPTIONS)
def test_the_romanian_card_has_the_same_rules_and_no_english(
    variant_key: str, label: str, switches: dict[str, Any], misses: list[str]
) -> None:
    variant, house = played(variant_key, switches)
    english = card_lines(variant, house, stake="0.25")
    with i18n.use_locale("ro"):
        romanian = card_lines(variant, house, stake="0.25")
    assert [k for k, _ in romanian] == [k for k, _ in english]
    for (key, theirs), (_, ours) in zip(english, romanian, strict=True):
        assert ours != theirs, key
        assert english_words(ours, set()) == [], (key, ours)
    assert misses == []


# --- The pages -------------------------------------------------------------------------------


def card_on_page(page: str) -> list[tuple[str, str]]:
    """The (rule, sentence) lines of the card on a page, in order."""
    found = re.findall(r'<li data-rule="([^"]+)"[^>]*>(.*?)</li>', page, re.S)
    return [(key, html.unescape(text)) for key, text in found]


@pytest.mark.parametrize("variant_key", list(rules.VARIANTS))
def test_the_variants_card_page_shows_every_sentence_and_links_its_pdf(
    app: Any, client: Any, variant_key: str
) -> None:
    response = client.get(f"/rules/{variant_key}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    variant = rules.VARIANTS[variant_key]
    assert card_on_page(page) == card_lines(variant, variant.preset)
    assert f'href="/rules/{variant_key}.pdf"' in page


def test_the_variant_chooser_links_every_variants_card(client: Any) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    for key in rules.VARIANTS:
        assert f'href="/rules/{key}"' in page


def test_a_games_card_says_its_house_rules_and_stake_and_the_game_page_links_it(
    client: Any,
) -> None:
    house_rules = {"target": 11, "low_to": "taker", "smudge": "always", "payout_per_setback": 1}
    game_id = import_game(
        client,
        record("auction-pitch", ["Ann", "Bob", "Cy"], [], house_rules=house_rules, stake="0.25"),
    )
    assert f'href="/games/{game_id}/rules"' in client.get(f"/games/{game_id}").get_data(
        as_text=True
    )
    page = client.get(f"/games/{game_id}/rules").get_data(as_text=True)
    variant = rules.VARIANTS["auction-pitch"]
    house = variant.house_rules(house_rules)
    shown = card_on_page(page)
    assert shown == card_lines(variant, house, stake="0.25")
    said = dict(shown)
    assert said["target"] == "A game is won at 11."
    assert said["low_to"] == "Low scores for the player who wins it in a trick."
    assert "even from the hole" in said["smudge"]
    assert said["stake"] == "A unit is worth 0.25."
    assert "1 more" in said["payout_per_setback"]
    assert f'href="/games/{game_id}/rules.pdf"' in page


def test_a_partnership_cinch_games_card_is_the_cinch_card(client: Any) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    teams = {"North-South": ["Ann", "Cy"], "East-West": ["Bob", "Dee"]}
    game_id = import_game(client, record("cinch", players, [], teams=teams))
    page = client.get(f"/games/{game_id}/rules").get_data(as_text=True)
    card = game_card(rules.Game.create("cinch", players, teams=teams), game_id)
    assert card_on_page(page) == list(card.lines)


def test_the_romanian_card_page_reads_in_romanian(client: Any, misses: list[str]) -> None:
    client.post("/language", data={"lang": "ro"})
    for key, variant in rules.VARIANTS.items():
        page = client.get(f"/rules/{key}").get_data(as_text=True)
        with i18n.use_locale("ro"):
            expected = card_lines(variant, variant.preset)
        assert card_on_page(page) == expected
        text = html.unescape(re.sub(r"<[^>]+>", " ", page.split('<main id="main">', 1)[1]))
        assert english_words(text, set()) == [], key
    assert misses == []


@pytest.mark.parametrize(
    "url",
    ["/rules/no-such-game", "/rules/no-such-game.pdf", "/games/999/rules", "/games/999/rules.pdf"],
)
def test_a_card_of_nothing_is_a_404_that_says_so(client: Any, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert "no-such-game" in page or "999" in page
