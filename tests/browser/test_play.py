"""Whole games played through the pages in Chromium, as a table would play them."""

from __future__ import annotations

from typing import Any

import pytest
from builders import taken
from playwright.sync_api import expect

from .conftest import LiveServer
from .ui import Table, answered, dealer_line, errors_next_to, hole, said, standings, start_game

pytestmark = pytest.mark.browser


def test_an_auction_pitch_game_is_played_through_to_a_smudge_win(page: Any) -> None:
    start_game(page, "Auction Pitch", ["Ann", "Bob", "Cy", "Dee"], stake="0.50")
    table = Table(page)
    assert dealer_line(page) == "First to 7. Ann deals hand 1."

    assert table.play("Bob", 3, high="Bob", low="Bob", jack="Cy", game="Bob") == "Bob made 3."
    assert standings(page) == {"Ann": "0", "Bob": "3", "Cy": "1", "Dee": "0"}
    assert dealer_line(page) == "First to 7. Bob deals hand 2."

    said_2 = table.play("Cy", 2, high="Bob", low="Ann", jack=None, game="Dee")
    assert said_2 == "Cy is set back 2 and is in the hole."
    assert standings(page) == {"Ann": "1", "Bob": "4", "Cy": hole(1), "Dee": "1"}
    expect(page.locator("#standings .side.in-hole .ring")).to_have_text(hole(1))

    assert (
        table.play("Dee", 4, high="Dee", low="Dee", jack="Dee", game="Dee")
        == "Dee smudges and wins!"
    )
    over = page.locator(".game-over")
    expect(over.get_by_role("heading", name="Dee won!")).to_be_visible()
    expect(over).to_contain_text("Dee won by a smudge at hand 3.")
    expect(over.locator(".finals")).to_contain_text(f"Cy: {hole(1)} (1 set-back)")
    payments = [
        " ".join(r.split()) for r in over.locator("table.payments tbody tr").all_inner_texts()
    ]
    # Ann and Bob end above 0 and pay 1 unit; Cy in the hole pays 2; 0.50 a unit.
    assert sorted(payments) == ["Ann Dee 1 0.50", "Bob Dee 1 0.50", "Cy Dee 2 1.00"]
    expect(page.locator("#hand-form")).to_have_count(0)
    assert page.js_errors == []


def test_a_pitch_six_defender_passes_twelve_and_later_wins_on_a_bid(page: Any) -> None:
    start_game(page, "Pitch Six", ["Ann", "Bob", "Cy"])
    table = Table(page)
    assert table.play(
        "Bob", 3, high="Bob", low="Bob", jack="Bob", six="Cy", last_trick="Cy", game="Cy"
    ) == ("Bob made 3.")
    assert table.play(
        "Ann", 6, high="Cy", low="Cy", jack="Cy", six="Cy", last_trick="Cy", game="Cy"
    ) == ("Ann is set back 6 and is in the hole.")
    assert table.play(
        "Ann", 3, high="Ann", low="Ann", jack="Ann", six="Cy", last_trick="Cy", game="Cy"
    ) == ("Ann made 3.")
    # Cy, a defender, is past 12 but has not won: only a made bid ends a Pitch Six game.
    assert standings(page) == {"Ann": hole(3), "Bob": "3", "Cy": "12"}
    assert dealer_line(page) == "First to 12. Ann deals hand 4."
    expect(page.locator("#hand-form")).to_be_visible()

    assert table.play(
        "Cy", 3, high="Cy", low="Cy", jack="Cy", six="Bob", last_trick="Bob", game="Bob"
    ) == ("Cy made 3. Cy wins!")
    expect(page.locator(".game-over")).to_contain_text(
        "Cy won by making the bid (pitcher first) at hand 4."
    )
    assert standings(page)["Cy"] == "15"


def test_a_partnership_cinch_game_is_scored_by_team(page: Any) -> None:
    # The Cinch form comes with the teams filled in: Us (seats 1 and 3), Them (2 and 4).
    start_game(page, "Cinch", ["Ann", "Bob", "Cy", "Dee"])
    table = Table(page)
    expect(page.locator("#standings .members")).to_have_text(["Ann · Cy", "Bob · Dee"])
    # Every point to Us, tapped by team (issue 14).
    points = ("high", "low", "jack", "game", "right_pedro", "left_pedro")
    everything_to = dict.fromkeys(points, "Us")
    assert table.play("Ann", 7, **everything_to) == "Ann (Us) made 7. Us score 14."
    # Them bid 14 and take nothing: Us score 14 + 14.
    assert table.play("Bob", 14, **everything_to) == "Bob (Them) failed the bid of 14. Us score 28."
    assert standings(page) == {"Us": "42", "Them": "0"}
    assert table.play("Cy", 9, **everything_to) == "Cy (Us) made 9. Us score 14. Us wins!"
    over = page.locator(".game-over")
    expect(over).to_contain_text("Us won first to the target at hand 3.")
    # Each losing player pays each winning player; Them at 0 pay the in-the-hole rate.
    payments = [
        " ".join(r.split()) for r in over.locator("table.payments tbody tr").all_inner_texts()
    ]
    assert sorted(payments) == ["Bob Ann 2", "Bob Cy 2", "Dee Ann 2", "Dee Cy 2"]


def test_a_sell_out_sale_scores_the_bid_for_the_seller(page: Any) -> None:
    start_game(page, "Sell-Out", ["Ann", "Bob", "Cy"])
    table = Table(page)
    expect(page.get_by_text("Bob is the seller.")).to_be_visible()
    assert table.play(
        "Cy", 2, sale="Sold (seller scores the bid)", high="Cy", low="Ann", jack="Cy", game="Bob"
    ) == ("Bob sold the bid to Cy for 2. Cy made 2.")
    assert standings(page) == {"Ann": "1", "Bob": "3", "Cy": "2"}
    # Hand 2: Bob deals, Cy sells; Cy keeps Ann's bid of 3, so Ann scores 3.
    expect(page.get_by_text("Cy is the seller.")).to_be_visible()
    assert (
        table.play(
            None,
            3,
            sale="Kept (high bidder scores the bid)",
            high_bidder="Ann",
            **taken("high low jack game", "Cy Cy Cy Bob"),
        )
        == "Cy kept the bid at 3; Ann scores 3. Cy made 3."
    )
    assert standings(page) == {"Ann": "4", "Bob": "4", "Cy": "5"}
    # Hand 3: the seller (Ann) pitches at once: no pitcher or bid to tap.
    assert (
        table.play(
            None,
            None,
            sale="Pitched (seller plays 4)",
            **taken("high low jack game", "Ann Ann Bob Ann"),
        )
        == "Ann pitched. Ann is set back 4."
    )
    assert standings(page) == {"Ann": "0", "Bob": "5", "Cy": "5"}
    # Hand 4: everyone passes, and the same dealer (Ann) deals again.
    answered(page, lambda: page.get_by_role("button", name="Everyone passed").click())
    assert said(page) == "Everyone passed. Ann deals."
    assert dealer_line(page) == "First to 7. Ann deals hand 5; Bob sells."


def test_a_bad_entry_is_refused_next_to_its_field_and_then_corrected(
    page: Any, live_server: LiveServer
) -> None:
    game_id = start_game(page, "Auction Pitch", ["Ann", "Bob", "Cy"])
    table = Table(page)
    table.hand("Bob", 3, high="Bob", jack="Bob", game="Bob")  # Low forgotten
    table.save()
    assert errors_next_to(page, "low") == ["Choose who took Low."]
    expect(page.locator("fieldset#point_low")).to_have_class("taps row players has-error")
    assert live_server.hand_count(game_id) == 0
    # The taps already made are kept: only Low is needed.
    expect(page.locator("fieldset#pitcher input:checked + label")).to_have_text("Bob")
    table.tap("low", "Ann")
    table.save()
    assert said(page) == "Bob made 3."
    assert live_server.hand_count(game_id) == 1


def test_an_entry_the_rules_refuse_shows_the_engines_message_by_the_field(
    page: Any, live_server: LiveServer
) -> None:
    game_id = start_game(page, "Sell-Out", ["Ann", "Bob", "Cy"])
    table = Table(page)
    # Bob is the seller: he cannot buy his own bid.
    table.hand(
        "Bob", 2, sale="Sold (seller scores the bid)", high="Cy", low="Ann", jack=None, game="Cy"
    )
    table.save()
    assert errors_next_to(page, "pitcher") == [
        'hand 1: in a sold hand the buyer cannot be the seller "Bob"'
    ]
    assert live_server.hand_count(game_id) == 0
    table.tap("pitcher", "Cy")
    table.save()
    assert said(page) == "Bob sold the bid to Cy for 2. Cy made 2."
    assert live_server.hand_count(game_id) == 1


def test_editing_an_earlier_hand_changes_the_winner(page: Any) -> None:
    start_game(page, "Auction Pitch", ["Ann", "Bob"])
    table = Table(page)
    table.play("Bob", 3, high="Bob", low="Bob", jack="Ann", game="Bob")
    table.play("Ann", 2, high="Ann", low="Ann", jack="Bob", game="Bob")
    assert (
        table.play("Bob", 2, high="Bob", low="Bob", jack="Ann", game="Ann")
        == "Bob made 2. Bob wins!"
    )
    expect(page.locator(".game-over h2")).to_have_text("Bob won!")

    # On a phone a hand is corrected from its own page: tap its row, then "Correct this hand".
    page.get_by_role("link", name="Hand 1", exact=True).click()
    page.get_by_role("link", name="Correct this hand").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    # The form shows the hand as it was recorded.
    expect(page.locator("fieldset#point_low input:checked + label")).to_have_text("Bob")
    table.tap("low", "Ann")
    table.tap("game", "Ann")
    table.save()
    assert said(page) == "Hand 1 corrected; every later score was worked out again."
    expect(page.locator(".game-over h2")).to_have_text("Ann won!")
    expect(page.locator(".game-over")).to_contain_text("Ann won on the count-out at hand 3.")
    assert standings(page) == {"Ann": "7", "Bob": "1"}

    # Undo the last hand (it asks once, naming the hand): nobody has won any more, and
    # the hand form is back.
    page.get_by_role("link", name="Undo hand 3").click()
    expect(page.locator("h1")).to_have_text("Remove hand 3: Bob bid 2, made it?")
    page.get_by_role("button", name="Yes, remove hand 3").click()
    assert said(page) == "Hand 3 was undone."
    expect(page.locator(".game-over")).to_have_count(0)
    expect(page.locator("#hand-form h2")).to_have_text("Hand 3")


def test_deleting_a_game_asks_first(page: Any, live_server: LiveServer) -> None:
    game_id = start_game(page, "Auction Pitch", ["Ann", "Bob"])
    page.get_by_role("link", name="Delete game").click()
    expect(page.get_by_role("heading", name="Delete this game?")).to_be_visible()
    page.get_by_role("link", name="No, keep it").click()
    assert page.url.endswith(f"/games/{game_id}")
    page.get_by_role("link", name="Delete game").click()
    page.get_by_role("button", name="Yes, delete the game").click()
    assert said(page) == f"Game {game_id} was deleted."
    assert page.goto(f"/games/{game_id}").status == 404
