"""One hand, one glance: a hand fits the phone's screen, and every disagreement between phones
is shown, never hidden.

Real Chromium at the two phone sizes a tester used (360x740, 390x844). "In view" is measured
with bounding boxes against the window as it is, with no scrolling by the test. Screenshots
of the hand screen, the conflict view and the correction that moves the win go to
test-artifacts/, in English and Romanian.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer
from .ui import Table, answered, ap_record, dealer_line, import_game, said, standings

pytestmark = pytest.mark.browser

FOUR = ["Ana", "Bogdan", "Cristi", "Dana"]
PHONES = [(360, 740), (390, 844)]
PHONE_IDS = ["360x740", "390x844"]
#: The rows of a four-player Auction Pitch hand.
HAND_ROWS = ("pitcher", "bid", "point_high", "point_low", "point_jack", "point_game")
ANA_MAKES_3 = {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None, "game": "Ana"}
#: The same hand as another phone tapped it, one point apart: Jack to Dana.
JACK_TO_DANA = {**ANA_MAKES_3, "jack": "Dana"}
SAVE = {"en": "Save hand", "ro": "Salvați mâna"}
NOBODY = {"en": "Nobody", "ro": "Nimeni"}
LOCALES = {"en": "en-GB", "ro": "ro-RO"}

#: Every control of the hand's rows, the score line and Save, as boxes in the window.
BOXES = """
(rows) => {
  const box = (el, name) => { const r = el.getBoundingClientRect();
    return { name, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const found = rows.flatMap((row) => [...document.querySelectorAll(`fieldset#${row} .tap label`)]
    .map((el) => box(el, row + ": " + el.textContent.trim())));
  found.push(box(document.querySelector("#save"), "Save"));
  found.push(box(document.querySelector("#standings"), "the score line"));
  return found;
}
"""
#: What is drawn at the middle of Save: Save itself, or whatever covers it.
ON_SAVE = """() => { const r = document.querySelector("#save").getBoundingClientRect();
  const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el ? el.id || el.className || el.tagName : null; }"""
#: Elements that reach past the right edge of the window (a scroller's own content aside).
WIDER = """() => ({scroll: document.documentElement.scrollWidth, width: window.innerWidth,
  wide: [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1
                    && !el.closest(".table-wrap"))
    .map((el) => el.tagName + "." + el.className + " " + el.textContent.trim().slice(0, 30))})"""
#: Each standings card's score that reaches outside its card.
SPILLED = """() => [...document.querySelectorAll("#standings .side")].filter((card) => {
  const c = card.getBoundingClientRect(), s = card.querySelector(".score").getBoundingClientRect();
  return s.left < c.left - 1 || s.right > c.right + 1; }).map((card) => card.textContent.trim())"""


def shoot(page: Any, artifacts: Path, name: str) -> None:
    """The window as the phone shows it."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    page.screenshot(path=str(artifacts / f"one-hand-{name}-{width}x{height}.png"))


def outside_the_window(page: Any, rows: tuple[str, ...] = HAND_ROWS) -> list[dict[str, Any]]:
    height, width = page.viewport_size["height"], page.viewport_size["width"]
    boxes = page.evaluate(BOXES, list(rows))
    assert len(boxes) > len(rows) + 2, boxes
    return [
        b
        for b in boxes
        if b["top"] < -1 or b["bottom"] > height + 1 or b["left"] < -1 or b["right"] > width + 1
    ]


def score_line_above_the_hand(page: Any) -> None:
    line = page.locator("#standings").bounding_box()
    form = page.locator("#hand-form").bounding_box()
    assert line is not None and form is not None
    assert line["y"] + line["height"] <= form["y"]


def tap_in(page: Any, hand: dict[str, Any], language: str = "en") -> Table:
    table = Table(page, nobody=NOBODY[language])
    table.hand(**hand)
    return table


# --- A hand fits one screen -------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), PHONES, ids=PHONE_IDS)
@pytest.mark.parametrize("language", ["en", "ro"])
def test_a_four_player_hand_and_save_are_in_view_before_and_after_save(
    new_page: Callable[..., Any],
    live_server: LiveServer,
    artifacts: Path,
    width: int,
    height: int,
    language: str,
) -> None:
    page = new_page(width, height, locale=LOCALES[language])
    game_id = import_game(page, ap_record(FOUR, [("Bogdan", 2, "Bogdan", "Ana", None, "Bogdan")]))
    page.goto(f"/games/{game_id}")
    shoot(page, artifacts, f"hand-{language}")
    assert outside_the_window(page) == []
    score_line_above_the_hand(page)
    assert page.evaluate(ON_SAVE) == "save"
    tap_in(page, ANA_MAKES_3, language)
    shoot(page, artifacts, f"hand-tapped-{language}")
    answered(page, lambda: page.get_by_role("button", name=SAVE[language]).click())
    # The next hand's form, in view, with the sentence of the hand just saved above it.
    expect(page.locator("#hand-form h2")).to_contain_text("3")
    assert page.locator("#hand-form input[type=radio]:checked").count() == 0
    sentence = page.locator("#flashes .flash")
    expect(sentence).to_have_count(1)
    box = sentence.bounding_box()
    assert box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height
    assert outside_the_window(page) == []
    score_line_above_the_hand(page)
    assert page.evaluate(ON_SAVE) == "save"
    shoot(page, artifacts, f"after-save-{language}")
    assert live_server.hand_count(game_id) == 2
    assert page.js_errors == []


@pytest.mark.parametrize(("width", "height"), PHONES, ids=PHONE_IDS)
def test_a_ten_point_pitch_hand_of_two_teams_needs_at_most_one_short_scroll(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, width: int, height: int
) -> None:
    page = new_page(width, height)
    record = {
        "format": "pitch-scorekeeper/1",
        "variant": "ten-point",
        "players": FOUR,
        "teams": {"Us": ["Ana", "Cristi"], "Them": ["Bogdan", "Dana"]},
        "hands": [],
    }
    game_id = import_game(page, record)
    page.goto(f"/games/{game_id}")
    save = page.locator("#save").bounding_box()
    assert save is not None and save["y"] + save["height"] <= 1.5 * height, save
    assert page.evaluate(WIDER)["wide"] == []
    shoot(page, artifacts, "ten-point")


@pytest.mark.parametrize(("width", "height"), PHONES, ids=PHONE_IDS)
def test_nothing_reaches_past_the_screen_at_twice_the_text_size(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, width: int, height: int
) -> None:
    page = new_page(width, height)
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        " document.documentElement.style.fontSize = '200%'; });"
    )
    hands = [("Ana", 3, "Ana", "Ana", "Ana", "Bogdan"), ("Bogdan", 4, "Ana", "Ana", "Ana", "Ana")]
    # Bogdan at -4: a ringed score in the hole, the widest a card shows.
    game_id = import_game(page, ap_record(FOUR, hands, house_rules={"target": 11}))
    for url in (f"/games/{game_id}", f"/games/{game_id}/hands/1/edit"):
        page.goto(url)
        fit = page.evaluate(WIDER)
        assert fit["scroll"] <= fit["width"] and fit["wide"] == [], (url, fit)
    page.goto(f"/games/{game_id}")
    assert page.evaluate(SPILLED) == []
    shoot(page, artifacts, "text-200")


@pytest.mark.parametrize(("width", "height"), PHONES, ids=PHONE_IDS)
def test_a_hand_recorded_on_another_phone_is_said_without_covering_save(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, width: int, height: int
) -> None:
    mine, other = new_page(width, height), new_page()
    game_id = import_game(mine, ap_record(FOUR, []))
    mine.goto(f"/games/{game_id}")
    tap_in(mine, {"pitcher": "Cristi", "bid": 2})
    other.goto(f"/games/{game_id}")
    Table(other).play(**ANA_MAKES_3)
    notice = mine.locator("#flashes .flash-live")
    expect(notice).to_have_text("Hand 1 was recorded on another phone.")
    note, save = notice.bounding_box(), mine.locator("#save").bounding_box()
    assert note is not None and save is not None
    assert note["y"] + note["height"] <= save["y"] or note["y"] >= save["y"] + save["height"]
    assert mine.evaluate(ON_SAVE) == "save"
    shoot(mine, artifacts, "notice")


# --- Every disagreement shown, point by point --------------------------------------------------


def two_phones_one_point_apart(new_page: Callable[..., Any], width: int, height: int) -> Any:
    """Phones A and B tap hand 1 alike but for Jack; B saves, and A 0.3 s later."""
    phone_a, phone_b = new_page(width, height), new_page()
    game_id = import_game(phone_a, ap_record(FOUR, []))
    phone_a.goto(f"/games/{game_id}")
    phone_b.goto(f"/games/{game_id}")
    table_a = tap_in(phone_a, ANA_MAKES_3)
    Table(phone_b).play(**JACK_TO_DANA)
    phone_a.wait_for_timeout(300)
    table_a.save()
    return phone_a, game_id


def jacks(page: Any, game_id: int) -> list[str | None]:
    record = page.request.get(f"/games/{game_id}.json").json()
    return [hand["points"]["jack"] for hand in record["hands"]]


@pytest.mark.parametrize("choice", ["next", "correct", "drop"])
def test_the_phone_that_lost_sees_both_hands_the_point_marked_and_each_choice_does_it(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, choice: str
) -> None:
    phone_a, game_id = two_phones_one_point_apart(new_page, 360, 740)
    asked = phone_a.locator("#disagreement")
    expect(asked).to_contain_text("Another phone recorded hand 1: Ana made 3.")
    # Both hands, every choice with its taker; only Jack differs, and it is marked.
    rows = asked.locator("table.compare tbody tr")
    expect(rows).to_have_count(6)
    differs = asked.locator("tr.differs")
    expect(differs).to_have_count(1)
    expect(differs.locator("th")).to_have_text("Jack")
    expect(differs.locator("td").nth(0)).to_have_text("Nobody")
    expect(differs.locator("td").nth(1)).to_contain_text("Dana")
    expect(differs).to_contain_text("≠")
    # This phone's taps are kept.
    expect(phone_a.locator("#point_jack input:checked")).to_have_value("nobody")
    if choice == "next":
        shoot(phone_a, artifacts, "conflict")
        answered(phone_a, lambda: asked.get_by_role("button", name="It is hand 2: save it").click())
        assert said(phone_a) == "Ana made 3."
        assert jacks(phone_a, game_id) == ["Dana", None]
    elif choice == "correct":
        answered(
            phone_a, lambda: asked.get_by_role("button", name="Correct hand 1 to this").click()
        )
        review = phone_a.locator("#review")
        expect(review).to_contain_text("Correct hand 1 to this phone’s hand?")  # noqa: RUF001
        expect(review.locator("tr.differs th")).to_have_text("Jack")
        assert jacks(phone_a, game_id) == ["Dana"]  # nothing saved until the correction is
        answered(phone_a, lambda: phone_a.get_by_role("button", name="Save hand").click())
        assert said(phone_a) == "Hand 1 corrected; every later score was worked out again."
        assert jacks(phone_a, game_id) == [None]
    else:
        answered(phone_a, lambda: asked.get_by_role("link", name="Drop this phone’s hand").click())  # noqa: RUF001
        expect(phone_a.locator("#hand-form h2")).to_have_text("Hand 2")
        assert phone_a.locator("#hand-form input[type=radio]:checked").count() == 0
        assert jacks(phone_a, game_id) == ["Dana"]
    assert phone_a.js_errors == []


@pytest.mark.parametrize(("width", "height"), PHONES, ids=PHONE_IDS)
def test_screenshots_of_the_conflict_view_in_romanian(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, width: int, height: int
) -> None:
    phone_a, phone_b = new_page(width, height, locale="ro-RO"), new_page()
    game_id = import_game(phone_a, ap_record(FOUR, []))
    phone_a.goto(f"/games/{game_id}")
    tap_in(phone_a, ANA_MAKES_3, "ro")
    phone_b.goto(f"/games/{game_id}")
    Table(phone_b).play(**JACK_TO_DANA)
    answered(phone_a, lambda: phone_a.get_by_role("button", name=SAVE["ro"]).click())
    asked = phone_a.locator("#disagreement")
    expect(asked.locator("tr.differs")).to_have_count(1)
    expect(asked).to_contain_text("Ana")
    shoot(phone_a, artifacts, "conflict-ro")
    # And in English, at this size too.
    phone_en = new_page(width, height)
    phone_en.goto(f"/games/{game_id}")
    tap_in(phone_en, {**ANA_MAKES_3, "game": "Cristi"})
    Table(phone_b).play(**{**ANA_MAKES_3, "pitcher": "Bogdan", "high": "Bogdan"})
    Table(phone_en).save()
    expect(phone_en.locator("#disagreement tr.differs").first).to_be_visible()
    shoot(phone_en, artifacts, "conflict-en")


def test_a_page_brought_back_from_the_cache_asks_and_correct_changes_the_recorded_hand(
    new_cached_page: Callable[..., Any],
    new_page: Callable[..., Any],
    live_server: LiveServer,
    artifacts: Path,
) -> None:
    page, other = new_cached_page(360, 740), new_page()
    game_id = import_game(page, ap_record(FOUR, []))
    page.goto(f"/games/{game_id}")
    page.evaluate("() => { window.__kept = true; }")
    table = tap_in(page, ANA_MAKES_3)
    # Hand 1 tapped in, then a look at the rules card (a link: the page goes to the cache)...
    page.get_by_role("link", name="Rules card").click()
    page.wait_for_url(re.compile(r"/rules$"))
    # ...while the other phone records hand 1, Jack to Dana.
    other.goto(f"/games/{game_id}")
    Table(other).play(**JACK_TO_DANA)
    # Back: the very page, as it was, from the cache; it knows hand 1 was saved meanwhile.
    page.go_back(wait_until="commit")
    question = page.locator("#offline-question")
    expect(question).to_contain_text("Hand 1 was saved since this page was shown.")
    assert page.evaluate("() => window.__kept === true")  # the very page, not loaded again
    expect(question.get_by_role("button", name="It is hand 2: save it")).to_be_visible()
    expect(question.get_by_role("button", name="Correct hand 1 to this")).to_be_visible()
    expect(question.get_by_role("button", name="Drop this phone’s hand")).to_be_visible()  # noqa: RUF001
    expect(page.locator("#hand-form h2")).to_have_text("Hand 1")
    shoot(page, artifacts, "back-asked")
    # A change, then Save: nothing saved as something it is not; both hands, the three choices.
    table.tap("game", "Cristi")
    table.save()
    asked = page.locator("#disagreement")
    expect(asked).to_contain_text("Another phone recorded hand 1: Ana made 3.")
    expect(asked.locator("tr.differs th")).to_have_text(["Jack", "Game"])
    shoot(page, artifacts, "back-then-save")
    answered(page, lambda: asked.get_by_role("button", name="Correct hand 1 to this").click())
    answered(page, lambda: page.get_by_role("button", name="Save hand").click())
    record = page.request.get(f"/games/{game_id}.json").json()
    assert [(h["points"]["jack"], h["points"]["game"]) for h in record["hands"]] == [
        (None, "Cristi")
    ]
    assert live_server.hand_count(game_id) == 1


# --- A correction that changes the winner goes through -------------------------------------------

#: To 7: Ana makes 3 twice (6), Bogdan, Cristi and Ana's set-back, then Ana makes 4 and wins
#: at hand 6. Hand 3 corrected (Ana took Jack and Game) makes her 8 at hand 3.
SIX_HANDS = [
    ("Ana", 3, "Ana", "Ana", None, "Ana"),
    ("Ana", 3, "Ana", "Ana", None, "Ana"),
    ("Bogdan", 2, "Bogdan", "Bogdan", None, "Cristi"),
    ("Cristi", 2, "Cristi", "Cristi", None, "Dana"),
    ("Ana", 3, "Ana", "Bogdan", None, "Cristi"),
    ("Ana", 4, "Ana", "Ana", "Ana", "Ana"),
]


@pytest.mark.parametrize(("width", "height"), PHONES, ids=PHONE_IDS)
@pytest.mark.parametrize("language", ["en", "ro"])
def test_a_correction_that_moves_the_win_lists_the_hands_and_yes_removes_them(
    new_page: Callable[..., Any],
    live_server: LiveServer,
    artifacts: Path,
    width: int,
    height: int,
    language: str,
) -> None:
    page = new_page(width, height, locale=LOCALES[language])
    game_id = import_game(page, ap_record(FOUR, SIX_HANDS, stake="0.50"))
    page.goto(f"/games/{game_id}/hands/3/edit")
    table = Table(page)
    table.tap("jack", "Ana")
    table.tap("game", "Ana")
    answered(page, lambda: page.locator("#save").click())
    asked = page.locator("#win-moves")
    expect(asked.locator("ul.removed li")).to_have_count(3)
    if language == "en":
        expect(asked).to_contain_text(
            "Ana now wins at hand 3; hands 4, 5, 6 would be played after the win."
        )
        expect(asked.locator("ul.removed li")).to_have_text(
            [
                "Hand 4: Cristi bid 2, made it",
                "Hand 5: Ana bid 3, set back",
                "Hand 6: Ana bid 4, made it",
            ]
        )
    in_view = asked.bounding_box()
    assert in_view is not None and in_view["y"] >= -1
    shoot(page, artifacts, f"win-moves-{language}")
    assert live_server.hand_count(game_id) == 6
    answered(page, lambda: asked.get_by_role("button").click())
    assert live_server.hand_count(game_id) == 3
    record = page.request.get(f"/games/{game_id}.json").json()
    assert record["hands"][2]["points"]["jack"] == "Ana"
    if language == "en":
        words = " ".join(page.locator("main").inner_text().split())
        # Worked by hand: Ana 8, Bogdan 2, Cristi 0, Dana 0; a loser at 1 or more pays 1
        # unit, at 0 or less 2 (RULES.md section 8); at 0.50 a unit.
        assert "Ana won on the count-out at hand 3." in words
        assert standings(page) == {"Ana": "8", "Bogdan": "2", "Cristi": "0", "Dana": "0"}
        payments = [
            " ".join(row.split())
            for row in page.locator(".game-over .payments tbody tr").all_inner_texts()
        ]
        assert payments == ["Bogdan Ana 1 0.50", "Cristi Ana 2 1.00", "Dana Ana 2 1.00"]


def test_no_to_a_correction_that_moves_the_win_changes_nothing(
    page: Any, live_server: LiveServer
) -> None:
    game_id = import_game(page, ap_record(FOUR, SIX_HANDS))
    before = page.request.get(f"/games/{game_id}.json").json()
    page.goto(f"/games/{game_id}/hands/3/edit")
    Table(page).tap("jack", "Ana")
    Table(page).tap("game", "Ana")
    answered(page, lambda: page.locator("#save").click())
    answered(page, lambda: page.get_by_role("link", name="No, change nothing").click())
    assert re.search(rf"/games/{game_id}/hands/3/edit$", page.url)
    assert page.request.get(f"/games/{game_id}.json").json() == before
    assert live_server.hand_count(game_id) == 6


# --- The page tells the truth after reconnect -----------------------------------------------------


def test_a_winning_hand_kept_offline_shows_the_win_while_the_next_kept_hand_is_asked_about(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = new_page(390, 844, service_workers="block")
    # Ana at 4 of 7: her made 3 wins; a hand kept after it cannot be recorded.
    game_id = import_game(page, ap_record(FOUR, [("Ana", 2, "Ana", "Ana", "Ana", "Ana")]))
    page.goto(f"/games/{game_id}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    page.context.set_offline(True)
    table = Table(page)
    for hand in (ANA_MAKES_3, {**ANA_MAKES_3, "pitcher": "Bogdan", "high": "Bogdan"}):
        table.hand(**hand)
        table.save_offline()
    expect(page.locator("tr.unsaved")).to_have_count(2)
    page.context.set_offline(False)
    question = page.locator("#offline-question")
    expect(question).to_contain_text("Hand 3 on this phone, not saved yet")
    # While it is asked, the page already says what the server has: Ana won.
    expect(page.locator("#standings .side.winner")).to_have_count(1, timeout=1000)
    expect(page.locator(".dealer-line")).to_contain_text("Ana won", timeout=1000)
    expect(page.locator("#hand-form")).to_be_hidden(timeout=1000)
    expect(question).to_be_visible()
    shoot(page, artifacts, "reconnected-won")
    assert live_server.hand_count(game_id) == 2


def test_after_reconnect_the_dealer_line_and_the_form_agree_with_the_server_at_once(
    new_page: Callable[..., Any], live_server: LiveServer
) -> None:
    page = new_page(390, 844, service_workers="block")
    game_id = import_game(page, ap_record(FOUR, []))
    page.goto(f"/games/{game_id}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    page.context.set_offline(True)
    table = Table(page)
    hands = [
        ANA_MAKES_3,
        {"pitcher": "Bogdan", "bid": 2, "high": "Bogdan", "low": "Bogdan", "jack": None},
        {"pitcher": "Cristi", "bid": 2, "high": "Cristi", "low": "Cristi", "jack": None},
    ]
    hands[1]["game"] = "Dana"
    hands[2]["game"] = "Dana"
    for hand in hands:
        table.hand(**hand)
        table.save_offline()
    # Kept: the form is at hand 4, and the dealer line does not claim the server's hand 1.
    expect(page.locator("#hand-form h2")).to_have_text("Hand 4")
    assert "deals hand 1" not in dealer_line(page)
    page.context.set_offline(False)
    expect(page.locator("tr.unsaved")).to_have_count(0)
    expect(page.locator(".dealer-line")).to_contain_text("Dana deals hand 4.", timeout=1000)
    expect(page.locator("#hand-form h2")).to_have_text("Hand 4", timeout=1000)


# --- Who dealt ---------------------------------------------------------------------------------


def test_a_hand_dealt_out_of_turn_moves_the_deal_and_its_record_round_trips(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = new_page(360, 740)
    game_id = import_game(page, ap_record(FOUR, []))
    page.goto(f"/games/{game_id}")
    assert dealer_line(page) == "First to 7. Ana deals hand 1."
    page.get_by_text("Dealt out of turn?").click()
    page.get_by_label("Who dealt").select_option(label="Cristi")
    assert Table(page).play(**ANA_MAKES_3) == "Ana made 3."
    # The deal goes on to the left of whoever dealt: Dana, not Bogdan.
    assert dealer_line(page) == "First to 7. Dana deals hand 2."
    expect(page.locator("#dealer option:checked")).to_have_text("Dana (in turn)")
    record = page.request.get(f"/games/{game_id}.json").json()
    assert record["hands"][0]["dealer"] == "Cristi"
    again = import_game(page, record)
    page.goto(f"/games/{again}")
    assert dealer_line(page) == "First to 7. Dana deals hand 2."
    assert page.request.get(f"/games/{again}.json").json()["hands"] == record["hands"]


# --- Taps per variant ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "teams", "hand", "most"),
    [
        # Pitcher, bid, High, Low, Jack, Game, Save.
        (
            "Auction Pitch",
            None,
            {
                "pitcher": "Ana",
                "bid": 3,
                **{"high": "Ana", "low": "Bogdan", "jack": "Ana", "game": "Ana"},
            },
            7,
        ),
        # Pitcher, bid, the rest to Us, Low and Three to Them, Save.
        (
            "10-Point Pitch",
            ["Us", "Them", "Us", "Them"],
            {"pitcher": "Ana", "bid": 6, "rest": "Us", "low": "Them", "three": "Them"},
            6,
        ),
        # Pitcher, bid, the rest to Us, Game and Left Pedro to Them, Save.
        (
            "Cinch",
            ["Us", "Them", "Us", "Them"],
            {"pitcher": "Ana", "bid": 7, "rest": "Us", "game": "Them", "left_pedro": "Them"},
            6,
        ),
        # Pitcher, bid, the rest to Us, Low to Them, Save.
        (
            "Pitch Six",
            ["Us", "Them", "Us", "Them"],
            {"pitcher": "Ana", "bid": 4, "rest": "Us", "low": "Them"},
            5,
        ),
    ],
    ids=["auction-pitch", "ten-point", "cinch", "pitch-six"],
)
def test_a_typical_hand_takes_few_taps_where_sides_are_few(
    page: Any,
    live_server: LiveServer,
    variant: str,
    teams: list[str] | None,
    hand: dict[str, Any],
    most: int,
) -> None:
    from .ui import start_game

    game_id = start_game(page, variant, FOUR, teams=teams)
    table = Table(page)
    taps = dict(hand)
    pitcher, bid, rest = taps.pop("pitcher"), taps.pop("bid"), taps.pop("rest", None)
    table.tap("pitcher", pitcher)
    table.tap("bid", str(bid))
    if rest is not None:
        table.tap("rest", rest)
    for key, side in taps.items():
        table.tap(key, side)
    table.save()
    assert page.locator("#flashes .flash").count() == 1, page.locator("main").inner_text()
    assert table.taps == most
    assert live_server.hand_count(game_id) == 1
