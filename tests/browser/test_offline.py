"""A Wi-Fi drop at the table: hands saved while the phone is offline are kept and sent once.

Real Chromium at phone size, its network cut with ``context.set_offline(True)``. Hands are
kept in the page's IndexedDB and sent, in order, each with a one-time key made on the phone,
when the server answers again. Most phones here run without a service worker (as on a
plain-http LAN address, where the browser allows none); the reload test runs with one (on
127.0.0.1 the browser allows it). Screenshots of each state go to test-artifacts/.
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
#: Three different hands, none ending the game: "Ana made 3.", Bogdan set back, Cristi made 2.
HANDS: list[dict[str, Any]] = [
    {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None, "game": "Ana"},
    {"pitcher": "Bogdan", "bid": 2, "high": "Ana", "low": "Ana", "jack": "Bogdan", "game": "Ana"},
    {
        "pitcher": "Cristi",
        "bid": 2,
        "high": "Cristi",
        "low": "Dana",
        "jack": None,
        "game": "Cristi",
    },
]
DANA_MAKES_2 = {"pitcher": "Dana", "bid": 2, "high": "Dana", "low": "Dana", "jack": None}
DANA_MAKES_2["game"] = "Bogdan"


def shoot(page: Any, artifacts: Path, name: str, *, whole: bool = False) -> None:
    """The window as the phone shows it (and with ``whole``, the whole page too)."""
    page.screenshot(path=str(artifacts / f"offline-{name}.png"))
    if whole:
        page.screenshot(path=str(artifacts / f"offline-{name}-whole.png"), full_page=True)


def indicator(page: Any) -> str:
    return " ".join(page.locator("#connection").inner_text().split())


def exported_pitchers(page: Any, game_id: int) -> list[str | None]:
    record = page.request.get(f"/games/{game_id}.json").json()
    return [hand.get("pitcher") for hand in record["hands"]]


def stored(live_server: LiveServer, game_id: int) -> tuple[list[int], int]:
    """The stored hands' numbers, in order, and how many one-time keys recorded one."""
    from sqlalchemy import func, select

    from scorekeeper.data import models
    from scorekeeper.data.extensions import db

    with live_server.app.app_context():
        numbers = (
            db.session.execute(
                select(models.Hand.number)
                .where(models.Hand.game_id == game_id)
                .order_by(models.Hand.number)
            )
            .scalars()
            .all()
        )
        keys = db.session.execute(
            select(func.count())
            .select_from(models.HandKey)
            .where(models.HandKey.game_id == game_id, models.HandKey.hand_id.is_not(None))
        ).scalar_one()
        db.session.remove()
    return list(numbers), int(keys)


def offline_phone(new_page: Callable[..., Any]) -> Any:
    """A phone with no service worker: the queue must work without one (a LAN address)."""
    return new_page(service_workers="block")


def record_offline(page: Any, hands: list[dict[str, Any]]) -> None:
    table = Table(page)
    for hand in hands:
        table.hand(**hand)
        table.save_offline()


def sheet_saved_rows(page: Any) -> Any:
    return page.locator(".sheet tbody:not(#unsaved-rows) tr")


def test_three_hands_saved_offline_are_kept_marked_and_then_saved_in_order_exactly_once(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = offline_phone(new_page)
    game_id = start_game(page, "Auction Pitch", FOUR)
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    page.context.set_offline(True)
    record_offline(page, HANDS)
    kept = page.locator("tr.unsaved")
    expect(kept).to_have_count(3)
    for i, row in enumerate(kept.all()):
        expect(row).to_contain_text("Not saved yet")
        expect(row.locator("td").first).to_have_text(str(i + 1))
    expect(kept.nth(0)).to_contain_text("Ana")
    expect(kept.nth(1)).to_contain_text("Bogdan")
    expect(page.locator("#connection")).to_have_attribute("data-state", "offline")
    assert indicator(page) == (
        "Offline: the scores may be out of date Hands waiting on this phone: 3"
    )
    expect(page.locator("#provisional-note")).to_have_text(
        "Provisional: the hands not saved yet are not counted in these scores."
    )
    # The form is ready for the next hand: hand 4, nothing tapped.
    expect(page.locator("#hand-form h2")).to_have_text("Hand 4")
    assert page.locator("#hand-form input[type=radio]:checked").count() == 0
    # The row looks different from a saved one (a dashed border), not only by its words.
    style = kept.first.locator("td").first.evaluate("td => getComputedStyle(td).borderTopStyle")
    assert style == "dashed"
    shoot(page, artifacts, "1-three-hands-waiting", whole=True)
    assert live_server.hand_count(game_id) == 0

    # Back online: sent in order, the page following the server in place as each is saved.
    page.context.set_offline(False)
    expect(page.locator("tr.unsaved")).to_have_count(0)
    expect(sheet_saved_rows(page)).to_have_count(3)
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(page.locator(".flashes .flash")).to_have_text(
        ["Ana made 3.", "Bogdan is set back 2 and is in the hole.", "Cristi made 2."]
    )
    expect(page.locator("#hand-form h2")).to_have_text("Hand 4")
    shoot(page, artifacts, "2-back-online-all-saved")
    assert stored(live_server, game_id) == ([1, 2, 3], 3)
    assert exported_pitchers(page, game_id) == ["Ana", "Bogdan", "Cristi"]
    assert page.js_errors == []


def test_hands_kept_offline_are_still_there_after_a_reload_while_offline(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = new_page()  # with a service worker: 127.0.0.1 is a secure context
    game_id = start_game(page, "Auction Pitch", FOUR)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now through the worker, which keeps a copy of the game page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    record_offline(page, HANDS[:2])
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("tr.unsaved")).to_have_count(2)
    expect(page.locator("#connection")).to_have_attribute("data-state", "offline")
    expect(page.locator("#connection")).to_contain_text("Hands waiting on this phone: 2")
    expect(page.locator("#hand-form h2")).to_have_text("Hand 3")
    shoot(page, artifacts, "3-reloaded-while-offline")
    # One more hand on the reloaded page: its key is new, and it goes after the two.
    record_offline(page, HANDS[2:])
    assert live_server.hand_count(game_id) == 0

    page.context.set_offline(False)
    expect(page.locator("tr.unsaved")).to_have_count(0)
    expect(sheet_saved_rows(page)).to_have_count(3)
    assert stored(live_server, game_id) == ([1, 2, 3], 3)
    assert exported_pitchers(page, game_id) == ["Ana", "Bogdan", "Cristi"]


def test_the_connection_dropping_after_the_first_of_three_posts_loses_and_doubles_nothing(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = offline_phone(new_page)
    game_id = start_game(page, "Auction Pitch", FOUR)
    page.context.set_offline(True)
    record_offline(page, HANDS)
    posts: list[str] = []  # the posts that reached the server
    wifi = {"down": False}

    def first_reaches_the_server_then_the_wifi_drops(route: Any) -> None:
        if not posts:
            posts.append(route.request.url)
            route.fetch()  # hand 1 reaches the server and is saved...
            page.context.set_offline(True)
            wifi["down"] = True
            route.abort("internetdisconnected")  # ...and its answer never comes back
        elif wifi["down"]:
            # Another send the page began meanwhile: the Wi-Fi is down, it reaches nothing.
            route.abort("internetdisconnected")
        else:
            posts.append(route.request.url)
            route.continue_()

    page.route("**/hands.json", first_reaches_the_server_then_the_wifi_drops)
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_have_attribute("data-state", "offline")
    page.wait_for_timeout(500)
    assert len(posts) == 1
    assert live_server.hand_count(game_id) == 1
    # The phone never heard hand 1 was saved: all three are still waiting on it.
    expect(page.locator("tr.unsaved")).to_have_count(3)
    shoot(page, artifacts, "4-dropped-mid-send")

    wifi["down"] = False
    page.context.set_offline(False)
    expect(sheet_saved_rows(page)).to_have_count(3)
    expect(page.locator("tr.unsaved")).to_have_count(0)
    assert len(posts) == 4  # hand 1 sent again (its key answers "already saved"), then 2, 3
    assert stored(live_server, game_id) == ([1, 2, 3], 3)
    assert exported_pitchers(page, game_id) == ["Ana", "Bogdan", "Cristi"]
    expect(page.locator(".flashes .flash").first).to_have_text(
        "Hand 1 was already saved: Ana made 3."
    )


def conflict_scene(new_page: Callable[..., Any]) -> tuple[Any, Any, int]:
    """Phone A keeps hand 2 offline while phone B records a different hand 2."""
    phone_a, phone_b = offline_phone(new_page), new_page()
    game_id = start_game(phone_a, "Auction Pitch", FOUR)
    assert Table(phone_a).play(**HANDS[0]) == "Ana made 3."
    phone_a.context.set_offline(True)
    record_offline(phone_a, [HANDS[1]])
    phone_b.goto(f"/games/{game_id}")
    assert Table(phone_b).play(**DANA_MAKES_2) == "Dana made 2."
    phone_a.context.set_offline(False)
    question = phone_a.locator("#offline-question")
    expect(question).to_be_visible()
    expect(question).to_contain_text(
        "Hand 2 on this phone, not saved yet: Bogdan · Bid: 2 · High: Ana · Low (holder): Ana"
    )
    expect(question).to_contain_text("Meanwhile another phone recorded hand 2: Dana made 2.")
    # Asked, not guessed: the hand is still on the phone, and nothing more was stored.
    phone_a.wait_for_timeout(500)
    expect(phone_a.locator("tr.unsaved")).to_have_count(1)
    return phone_a, phone_b, game_id


def test_a_kept_hand_another_phone_overtook_is_saved_as_the_next_hand_when_the_table_says_so(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    phone_a, _, game_id = conflict_scene(new_page)
    assert live_server.hand_count(game_id) == 2
    shoot(phone_a, artifacts, "5-conflict-asked")
    phone_a.get_by_role("button", name="It is hand 3: save it").click()
    expect(phone_a.locator("tr.unsaved")).to_have_count(0)
    assert said(phone_a) == "Bogdan is set back 2 and is in the hole."
    assert stored(live_server, game_id) == ([1, 2, 3], 3)
    assert exported_pitchers(phone_a, game_id) == ["Ana", "Dana", "Bogdan"]


def test_a_kept_hand_another_phone_overtook_is_dropped_only_when_the_table_says_so(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    phone_a, _, game_id = conflict_scene(new_page)
    phone_a.get_by_role("button", name="Drop this phone’s hand").click()  # noqa: RUF001
    expect(phone_a.locator("tr.unsaved")).to_have_count(0)
    expect(phone_a.locator("#offline")).to_be_hidden()
    shoot(phone_a, artifacts, "6-conflict-dropped")
    assert stored(live_server, game_id) == ([1, 2], 2)
    assert exported_pitchers(phone_a, game_id) == ["Ana", "Dana"]


#: Keeps every state the connection indicator shows from now on, and when the browser said
#: it went offline.
STATES_SEEN = """() => {
  const box = document.getElementById("connection");
  window.statesSeen = [];
  new MutationObserver(() => window.statesSeen.push(box.dataset.state))
    .observe(box, { attributes: true, attributeFilter: ["data-state"] });
  window.addEventListener("offline", () => { window.offlineSince = performance.now(); });
}"""


def test_the_board_says_it_is_offline_and_catches_up_when_the_connection_returns(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    phone, board = new_page(), new_page(service_workers="block")
    game_id = start_game(phone, "Auction Pitch", FOUR)
    board.goto(f"/games/{game_id}/board")
    expect(board.locator("#connection")).to_have_attribute("data-state", "connected")
    board.evaluate(STATES_SEEN)
    board.context.set_offline(True)
    expect(board.locator("#connection")).to_have_attribute("data-state", "offline")
    expect(board.locator("#connection")).to_have_text(
        re.compile(r"Offline: the scores may be out of date")
    )
    assert Table(phone).play(**HANDS[0]) == "Ana made 3."
    # The stream opened before stays open under Chromium's offline (and a beat already on
    # its way can arrive on a phone): the beats after it must not say "connected".
    beat_ms = live_server.app.config["LIVE_HEARTBEAT_SECONDS"] * 1000
    board.wait_for_function("ms => performance.now() - window.offlineSince > ms", arg=beat_ms * 1.5)
    seen = board.evaluate("window.statesSeen")
    assert set(seen) == {"offline"}, seen
    shoot(board, artifacts, "7-board-offline")
    board.context.set_offline(False)
    expect(board.locator(".last-hand")).to_contain_text("Hand 1")
    expect(board.locator("#connection")).to_have_attribute("data-state", "connected")


def test_a_hand_the_busy_server_did_not_save_is_kept_and_sent_again_when_it_says(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = offline_phone(new_page)
    game_id = start_game(page, "Auction Pitch", FOUR)
    busy = {"now": True}

    def busy_until_told(route: Any) -> None:
        # As the app answers a save that met a writer in the way (scorekeeper/web/errors.py).
        if busy["now"]:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body='{"error": "Another program is writing to the database"}',
            )
        else:
            route.continue_()

    page.route("**/hands.json", busy_until_told)
    Table(page).hand(**HANDS[0])
    page.locator("#save").click()
    # Kept, not posted as a page: the phone says the server is busy and holds the hand.
    expect(page.locator("tr.unsaved")).to_have_count(1)
    expect(page.locator("#offline-kept")).to_have_text(
        "The server is busy for a moment: the hands stay on this phone and are sent again shortly."
    )
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    expect(page.locator("#hand-form h2")).to_have_text("Hand 2")
    shoot(page, artifacts, "9-server-busy")
    # It tries again by itself after the Retry-After, and keeps the hand while still busy.
    with page.expect_request("**/hands.json"):
        pass
    expect(page.locator("tr.unsaved")).to_have_count(1)
    assert live_server.hand_count(game_id) == 0
    busy["now"] = False
    # The next try saves it, and the page follows the server in place.
    expect(sheet_saved_rows(page)).to_have_count(1, timeout=15_000)
    assert said(page) == "Ana made 3."
    assert stored(live_server, game_id) == ([1], 1)


def test_without_javascript_the_form_still_records_and_no_indicator_shows(
    new_page: Callable[..., Any], live_server: LiveServer
) -> None:
    page = new_page(java_script_enabled=False)
    game_id = start_game(page, "Auction Pitch", FOUR)
    assert Table(page).play(**HANDS[0]) == "Ana made 3."
    expect(page.locator("#connection")).to_be_hidden()
    expect(page.locator("#offline")).to_be_hidden()
    assert live_server.hand_count(game_id) == 1


def test_a_romanian_phone_says_offline_and_not_saved_yet_in_romanian(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = new_page(service_workers="block", locale="ro-RO")
    game_id = import_game(page, ap_record(FOUR, []))
    page.goto(f"/games/{game_id}")
    expect(page.locator("#connection")).to_have_text(re.compile("Conectat"))
    page.context.set_offline(True)
    Table(page).hand(**{**HANDS[0], "jack": "Bogdan"})
    page.locator("#save").click()
    expect(page.locator("tr.unsaved")).to_have_count(1)
    expect(page.locator("tr.unsaved")).to_contain_text("Încă nesalvată")
    assert indicator(page) == (
        "Fără conexiune: scorurile pot fi depășite Mâini în așteptare pe acest telefon: 1"
    )
    expect(page.locator("#offline-title")).to_have_text("Mâini încă nesalvate")
    shoot(page, artifacts, "8-romanian-waiting")
    page.context.set_offline(False)
    expect(page.locator("tr.unsaved")).to_have_count(0)
    assert stored(live_server, game_id) == ([1], 1)
