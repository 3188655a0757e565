"""The wider family in Chromium at phone size (390x844): every ready-made rule set started
from the chooser, a 13-Point Pitch hand, a dealer set when all pass, and time called with
the winner named at the hand (RULES.md 11)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from builders import taken
from playwright.sync_api import expect

from scorekeeper import rules

from .ui import Table, answered, dealer_line, hole, said, standings, start_game

pytestmark = pytest.mark.browser

FOUR = ["Ann", "Bob", "Cy", "Dee"]
THREE = ["Ann", "Bob", "Cy"]


def bids_offered(page: Any) -> list[str]:
    return page.locator("fieldset#bid label").all_inner_texts()


def point_rows(page: Any) -> list[str]:
    ids = page.locator("#hand-form fieldset.taps").evaluate_all("els => els.map(e => e.id)")
    return [i.removeprefix("point_") for i in ids if i.startswith("point_")]


def test_every_ready_made_set_starts_from_the_chooser_with_its_points_and_bids(
    page: Any, artifacts: Path
) -> None:
    page.goto("/games/new")
    ready = page.locator("#ready-made")
    ready.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "ready-made-chooser.png"))
    for rule_set in rules.RULE_SETS.values():
        played = rule_set.played
        start_game(page, rule_set.name, FOUR)
        assert point_rows(page) == list(played.point_keys), rule_set.key
        assert bids_offered(page) == [str(b) for b in range(played.min_bid, played.max_bid + 1)], (
            rule_set.key
        )
        house = page.locator(".game-actions .hint", has_text="House rules:")
        expect(house).to_contain_text("points in play:")


def test_the_form_of_a_ready_made_set_says_its_summary_and_opens_its_house_rules(
    page: Any, artifacts: Path
) -> None:
    thirteen = rules.RULE_SETS["thirteen-point"]
    page.goto("/games/new")
    page.locator("a.variant", has_text=thirteen.summary).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New game of 13-Point Pitch")
    expect(page.locator(".ready-said")).to_contain_text(thirteen.summary)
    expect(page.locator("details.house-rules")).to_have_attribute("open", "")
    expect(page.locator("#points-total")).to_have_text("13")
    expect(page.get_by_label("Lowest bid", exact=True)).to_have_value("5")
    expect(page.get_by_label("Highest bid", exact=True)).to_have_value("13")
    page.screenshot(path=str(artifacts / "ready-made-thirteen-form.png"), full_page=True)


def test_a_thirteen_point_hand_scores_the_off_three_and_the_ten(page: Any, artifacts: Path) -> None:
    start_game(page, "13-Point Pitch", FOUR)
    table = Table(page)
    # Bob bids 7 and takes High, Low, Jack, the Three and the Off-Three: 1+1+1+3+3 = 9, made.
    # Cy takes the Off-Jack, Dee the Big Joker, Ann the Ten; the Little Joker was not dealt.
    told = table.play(
        "Bob",
        7,
        **taken(
            "high low jack off_jack big_joker little_joker ten three off_three",
            "Bob Bob Bob Cy Dee - Ann Bob Bob",
        ),
    )
    assert told.startswith("Bob made 7.")
    assert standings(page) == {"Ann": "1", "Bob": "9", "Cy": "1", "Dee": "1"}
    row = page.locator("tr#hand-1")
    expect(row.locator(".side-cell.pitched .took")).to_have_text("H L J 3 O3")
    page.locator("#sheet-title").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "thirteen-point-hand.png"))


def test_a_dealer_set_pass_is_one_tap_and_struck_on_the_sheet(page: Any, artifacts: Path) -> None:
    start_game(page, "5-Point Smear", THREE)
    passed = page.get_by_role("button", name="All passed: the dealer is set")
    answered(page, passed.click)
    assert said(page) == "Everyone passed: Ann is set back 2. Bob deals."
    assert standings(page) == {"Ann": hole(2), "Bob": "0", "Cy": "0"}
    struck = page.locator("tr#hand-1 .side-cell.dealer-set .bid.set s")
    expect(struck).to_have_text("2")
    # Struck through, as a set-back's bid is.
    assert "line-through" in struck.evaluate("el => getComputedStyle(el).textDecorationLine")
    expect(page.locator("#standings .side").first).to_contain_text("1 set-back")
    page.locator("tr#hand-1").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "smear-dealer-set.png"))


def test_time_called_asks_once_and_the_winner_is_named_at_the_hand(
    page: Any, artifacts: Path
) -> None:
    game_id = start_game(page, "Auction Pitch", THREE)
    table = Table(page)
    table.play("Ann", 2, high="Ann", low="Ann", jack="Bob", game="Cy")
    page.get_by_role("link", name="Call time after this hand").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Call time after hand 2?")
    page.screenshot(path=str(artifacts / "call-time-question.png"))
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, call time after hand 2").click()
    line = "Time called: the highest score after hand 2 wins; a tie plays on."
    assert said(page) == line
    assert line in dealer_line(page)
    expect(page.get_by_role("link", name="Call time after this hand")).to_have_count(0)
    page.screenshot(path=str(artifacts / "call-time-called.png"))
    # The board says it too.
    board = page.context.new_page()
    board.goto(f"/games/{game_id}/board")
    expect(board.locator(".dealer-line")).to_contain_text(line)
    # Hand 2: Bob makes 2 with High and Low; Ann takes Jack and Game: Ann 4, Bob 3, Cy 1.
    told = table.play("Bob", 2, high="Bob", low="Bob", jack="Ann", game="Ann")
    assert told.endswith("Ann wins!"), told
    over = page.locator(".game-over")
    expect(over).to_contain_text("Ann won with the most points at hand 2.")
    expect(over).to_contain_text("Time was called after hand 2.")
    assert standings(page) == {"Ann": "4", "Bob": "3", "Cy": "1"}
    expect(board.locator(".dealer-line")).to_contain_text(
        re.compile(r"Ann won with the most points at hand 2\.")
    )
    page.screenshot(path=str(artifacts / "call-time-won.png"))
    board.close()
