"""At the table: every hand is recorded once, and whoever saved it sees what was saved.

Real Chromium at phone size. Two phones are two browser contexts (their own cookies);
"in view" is measured with bounding boxes against the 390x844 window, with no scrolling
by the test. Each state is saved as a screenshot in test-artifacts/ (the window only:
what the phone shows without scrolling).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer
from .ui import Table, ap_record, import_game, said, start_game

pytestmark = pytest.mark.browser

FOUR = ["Ana", "Bogdan", "Cristi", "Dana"]
#: Ana bids 3 and takes High, Low and Game: "Ana made 3."
ANA_MAKES_3 = {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None}
ANA_MAKES_3["game"] = "Ana"


def in_view(page: Any, selector: str) -> dict[str, float]:
    """The element's box, asserted to lie inside the window as it is now (no scrolling)."""
    element = page.locator(selector).first
    expect(element).to_be_visible()
    box = element.bounding_box()
    assert box is not None, selector
    height = page.viewport_size["height"]
    # A pixel's rounding aside: an anchor may leave an element a fraction above the top.
    assert box["y"] >= -1 and box["y"] + box["height"] <= height, (selector, box, height)
    return box


def shoot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"once-{name}.png"))


def taps_on(page: Any) -> int:
    """How many choices are tapped on the hand form."""
    return int(page.locator("#hand-form input[type=radio]:checked").count())


def test_two_phones_recording_the_same_hand_save_it_once_and_the_second_sees_the_first(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    phone_a, phone_b = new_page(), new_page()
    game_id = start_game(phone_a, "Auction Pitch", FOUR)
    phone_b.goto(f"/games/{game_id}")
    # Both tap hand 1 in; phone B's differs (a slip), phone A saves first.
    Table(phone_b).hand("Bogdan", 2, high="Bogdan", low="Dana", jack=None, game="Bogdan")
    table_a = Table(phone_a)
    table_a.hand(**ANA_MAKES_3)  # type: ignore[arg-type]
    table_a.save()
    assert said(phone_a) == "Ana made 3."
    Table(phone_b).save()
    asked = phone_b.locator("#disagreement")
    expect(asked).to_contain_text("Another phone recorded hand 1: Ana made 3.")
    expect(asked).to_contain_text("Nothing was saved from this form.")
    in_view(phone_b, "#disagreement")
    # Its own taps are kept, beside the hand recorded; Save again records nothing twice.
    expect(phone_b.locator("#hand-form h2")).to_have_text("Hand 1")
    assert taps_on(phone_b) == 6
    shoot(phone_b, artifacts, "1-second-phone-told-what-the-first-saved")
    Table(phone_b).save()
    expect(phone_b.locator("#disagreement")).to_be_visible()
    assert live_server.hand_count(game_id) == 1


def test_back_after_a_save_then_save_again_adds_nothing(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    # Without the page's script every save is a page of its own, and Back goes to the last.
    # (With it the page follows the server in place: tests/browser/test_one_hand.py.)
    page = new_page(java_script_enabled=False)
    game_id = start_game(page, "Auction Pitch", FOUR)
    table = Table(page)
    table.hand(**ANA_MAKES_3)  # type: ignore[arg-type]
    table.save()
    assert said(page) == "Ana made 3."
    page.go_back()
    page.wait_for_load_state("load")
    shoot(page, artifacts, "2-after-back")
    table.save()
    # Whatever the browser brought back, the hand is there once: the page answers with the
    # hand already saved, asks "same as hand 1?", shows it beside the hand saved, or asks
    # for the taps of a new hand.
    words = " ".join(page.locator("main").inner_text().split())
    assert (
        "Hand 1 was already saved: Ana made 3." in words
        or "Same as hand 1 — record it again?" in words
        or "was saved from this page before" in words
        or "needs attention" in words
        or "need attention" in words
    ), words
    shoot(page, artifacts, "3-back-then-save")
    assert live_server.hand_count(game_id) == 1


def test_back_to_the_very_form_that_saved_then_save_answers_with_the_saved_hand(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    """The page as it was when saved (the browser's back-forward cache keeps it so): its
    key already recorded hand 1, so Save answers with that hand."""
    game_id = start_game(page, "Auction Pitch", FOUR)
    table = Table(page)
    table.hand(**ANA_MAKES_3)  # type: ignore[arg-type]
    kept = page.content()
    table.save()
    assert said(page) == "Ana made 3."
    # The saved page's own form (its key, its number), the same taps, saved again.
    key = re.search(r'name="token" type="hidden" value="([^"]+)"', kept)
    assert key is not None
    page.evaluate("key => { document.querySelector('#token').value = key; }", key[1])
    page.evaluate("() => { document.querySelector('#number').value = '1'; }")
    table.hand(**ANA_MAKES_3)  # type: ignore[arg-type]
    table.save()
    assert said(page) == "Hand 1 was already saved: Ana made 3."
    in_view(page, ".flashes .flash")
    shoot(page, artifacts, "4-old-form-answers-with-the-saved-hand")
    assert live_server.hand_count(game_id) == 1


def test_the_same_hand_again_asks_first_and_each_answer_does_what_it_says(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    game_id = start_game(page, "Auction Pitch", FOUR)
    table = Table(page)
    table.hand(**ANA_MAKES_3)  # type: ignore[arg-type]
    table.save()
    # The same taps for hand 2: asked, nothing saved yet.
    table.hand(**ANA_MAKES_3)  # type: ignore[arg-type]
    table.save()
    expect(page.locator("#same-as")).to_contain_text("Same as hand 1 — record it again?")
    in_view(page, "#same-as")
    shoot(page, artifacts, "5-same-hand-asked")
    assert live_server.hand_count(game_id) == 1
    # No: nothing is saved, and the form is empty for hand 2.
    page.get_by_role("link", name="No, leave it out").click()
    page.wait_for_load_state("load")
    expect(page.locator("#hand-form h2")).to_have_text("Hand 2")
    assert taps_on(page) == 0
    assert live_server.hand_count(game_id) == 1
    # Asked again, Yes: saved as hand 2.
    table.hand(**ANA_MAKES_3)  # type: ignore[arg-type]
    table.save()
    page.get_by_role("button", name="Yes, record it again").click()
    page.wait_for_load_state("load")
    assert said(page) == "Ana made 3."
    expect(page.locator("#hand-form h2")).to_have_text("Hand 3")
    assert live_server.hand_count(game_id) == 2


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_after_a_save_the_sentence_the_new_scores_and_the_next_dealer_are_in_view(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, javascript: bool
) -> None:
    page = new_page(java_script_enabled=javascript)
    # Seven players: the tallest standings a game without teams has.
    players = ["Ana", "Bogdan", "Cristi", "Dana", "Elena", "Florin", "Gabi"]
    game_id = import_game(page, ap_record(players, [("Ana", 3, "Ana", "Ana", "Bogdan", "Ana")]))
    page.goto(f"/games/{game_id}")
    table = Table(page)
    table.hand("Cristi", 2, high="Bogdan", low="Ana", jack=None, game="Dana")
    table.save()
    assert said(page) == "Cristi is set back 2 and is in the hole."
    in_view(page, ".flashes .flash")
    for card in page.locator("#standings .side").all():
        box = card.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    line = in_view(page, ".dealer-line")
    assert "Cristi deals hand 3." in " ".join(page.locator(".dealer-line").inner_text().split())
    assert line["y"] + line["height"] <= 844
    shoot(page, artifacts, f"6-after-a-save-{'js' if javascript else 'no-js'}")


def test_after_the_winning_hand_the_game_over_sentence_and_the_settlement_are_in_view(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    game_id = import_game(
        page,
        ap_record(
            FOUR,
            [("Ana", 3, "Ana", "Ana", "Bogdan", "Ana"), ("Ana", 3, "Ana", "Ana", "Ana", "Bogdan")],
            stake="0.50",
        ),
    )
    page.goto(f"/games/{game_id}")
    table = Table(page)
    table.hand("Ana", 2, high="Ana", low="Ana", jack=None, game="Cristi")
    table.save()
    assert said(page) == "Ana made 2. Ana wins!"
    in_view(page, ".flashes .flash")
    in_view(page, ".game-over h2")
    in_view(page, ".game-over .payments")
    shoot(page, artifacts, "7-game-over")


def test_a_save_missing_low_keeps_the_taps_and_shows_the_summary_in_view(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    game_id = import_game(page, ap_record(FOUR, [("Ana", 3, "Ana", "Ana", "Bogdan", "Ana")]))
    page.goto(f"/games/{game_id}")
    table = Table(page)
    table.hand("Bogdan", 2, high="Bogdan", jack="Bogdan", game="Cristi")
    table.save()
    summary = page.locator("#attention")
    expect(summary).to_contain_text("Choose who took Low.")
    in_view(page, "#attention")
    assert taps_on(page) == 5  # pitcher, bid, High, Jack, Game
    shoot(page, artifacts, "8-missing-low")
    # The summary's line leads to the row that needs the tap.
    summary.get_by_role("link", name="Choose who took Low.").click()
    in_view(page, "fieldset#point_low")
    table.tap("low", "Dana")
    table.save()
    assert said(page) == "Bogdan made 2."
    assert live_server.hand_count(game_id) == 2


def test_undo_names_the_hand_and_asks_once(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    game_id = import_game(
        page,
        ap_record(
            FOUR,
            [
                ("Ana", 3, "Ana", "Ana", "Bogdan", "Ana"),
                ("Bogdan", 3, "Ana", "Ana", "Bogdan", "Ana"),
            ],
        ),
    )
    page.goto(f"/games/{game_id}")
    page.get_by_role("link", name="Undo hand 2").click()
    expect(page.locator("h1")).to_have_text("Remove hand 2: Bogdan bid 3, set back?")
    shoot(page, artifacts, "9-undo-asks")
    assert live_server.hand_count(game_id) == 2
    page.get_by_role("button", name="Yes, remove hand 2").click()
    assert said(page) == "Hand 2 was undone."
    in_view(page, ".flashes .flash")
    assert live_server.hand_count(game_id) == 1


def test_only_seated_players_are_offered_as_first_dealer(page: Any, artifacts: Path) -> None:
    page.goto("/games/new/auction-pitch")
    dealers = page.locator(".seat-row .tap.small label")
    expect(dealers.first).to_be_hidden()
    for i, name in enumerate(["Ana", "Bogdan", "Cristi"]):
        page.get_by_label(f"Name in seat {i + 1}", exact=True).fill(name)
    visible = [label for label in dealers.all() if label.is_visible()]
    assert [" ".join(label.inner_text().split()) for label in visible] == [
        f"deals first (seat {n})" for n in (1, 2, 3)
    ]
    shoot(page, artifacts, "10-dealer-choices")
