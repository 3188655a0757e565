"""The printed rules card: one page, read back, with every sentence of the card on it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper import i18n, rules
from scorekeeper.sheets.rules_card import card_lines

from .games import pdf_pages, store


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces (a PDF wraps lines, also
    after the hyphen of ``count-out``)."""
    return re.sub(r"\s+", " ", re.sub(r"(?<=\w-)\n", "", text)).strip()


def printed_card(client: Any, url: str) -> str:
    """Ask for a card's PDF, check it is one page sent as the sheet is, and return its text."""
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    assert response.headers["Cache-Control"] == "no-store"
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(
        r'inline; filename="[a-z0-9-]+-rules\.pdf"|inline; filename="rules-[a-z0-9-]+\.pdf"',
        disposition,
    )
    (page,) = pdf_pages(response.data)
    return flat(page)


def test_a_games_card_prints_on_one_page_with_every_sentence(app: Any, client: Any) -> None:
    house_rules = {
        "target": 11,
        "payout_per_setback": 1,
        "points": ["high", "low", "jack", "off_jack", "game"],
    }
    game = rules.Game.create(
        "auction-pitch", ["Ann", "Bob", "Cy", "Dee"], house_rules=house_rules, stake="0.25"
    )
    game_id = store(app, game, [])
    text = printed_card(client, f"/games/{game_id}/rules.pdf")
    lines = card_lines(game.variant, game.house_rules, stake=game.stake)
    preset = rules.VARIANTS["auction-pitch"]
    # The preset's rules, and one more point, the set-back payout and the stake.
    assert len(lines) == len(card_lines(preset, preset.preset)) + 3
    for _key, sentence in lines:
        assert flat(sentence) in text
    assert "Auction Pitch" in text and f"game {game_id}" in text


@pytest.mark.parametrize("variant_key", list(rules.VARIANTS))
def test_every_variants_card_prints_on_one_page(client: Any, variant_key: str) -> None:
    text = printed_card(client, f"/rules/{variant_key}.pdf")
    variant = rules.VARIANTS[variant_key]
    for _key, sentence in card_lines(variant, variant.preset):
        assert flat(sentence) in text


def test_the_romanian_card_prints_in_romanian_on_one_a4_page(client: Any) -> None:
    client.post("/language", data={"lang": "ro"})
    variant = rules.VARIANTS["sell-out"]  # the longest card
    text = printed_card(client, "/rules/sell-out.pdf")
    with i18n.use_locale("ro"):
        lines = card_lines(variant, variant.preset)
    for _key, sentence in lines:
        assert flat(sentence) in text
    assert "Licitația" in text and "Bids go" not in text


def test_a_card_asked_for_on_a_paper_we_do_not_print_on_is_refused(client: Any) -> None:
    response = client.get("/rules/pedro.pdf?paper=a3")
    assert response.status_code == 400
    assert "a3" in response.get_data(as_text=True)
