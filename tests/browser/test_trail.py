"""A money game in which the other side confirms every hand and both sides sign, in Chromium at
390x844, in English and in Romanian: each phone names itself once; a hand confirmed from a
second phone (its own browser context) and one confirmed by a name tapped on the recording
phone; a hand disputed, corrected and confirmed; the result signed by a player of each side,
and the game locked; the hand's trail said in words. Screenshots of a waiting hand, a
disputed one, a signed game and a hand's trail go to test-artifacts/trail-*-{en,ro}.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import i18n, operations
from scorekeeper.data.extensions import db

from .conftest import LiveServer
from .ui import Table, answered

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Bogdan", "Cristi", "Dana"]
NS, EW = "North-South", "East-West"
TEAMS = [NS, EW, NS, EW]


def words(lang: str) -> Callable[..., str]:
    """The page's words in ``lang``, as the catalogue has them (a miss fails the test)."""

    def said(message: str, **variables: Any) -> str:
        text = message
        if lang == "ro":
            text = i18n.translations_for("ro").gettext(message)
            assert text != message, f"untranslated: {message}"
        return text % variables if variables else text

    return said


def _entries(server: LiveServer, game_id: int) -> list[Any]:
    with server.app.app_context():
        found = operations.trail.entries(operations.loading.load(game_id).row)
        db.session.remove()
    return found


def _name_phone(page: Any, t: Callable[..., str], label: str) -> None:
    box = page.locator("#device-label")
    expect(box).to_be_visible()
    box.get_by_role("textbox").fill(label)
    box.get_by_role("button", name=t("Keep")).click()
    expect(box.locator("[data-device-shown]")).to_have_text(label)


def _answer(page: Any, t: Callable[..., str], number: int, name: str, answer: str) -> None:
    form = page.locator(f"form.answer[action$='/hands/{number}/answer']")
    form.get_by_label(name, exact=True).check()
    with page.expect_navigation():
        form.get_by_role("button", name=t(answer), exact=True).click()
    page.wait_for_load_state("load")


def _shot(page: Any, locator: Any, path: Path) -> None:
    locator.scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, -8)")
    page.screenshot(path=str(path))


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_every_hand_confirmed_by_the_other_side_and_the_result_signed(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, lang: str
) -> None:
    t = words(lang)
    locale = {"en": "en-GB", "ro": "ro-RO"}[lang]
    recorder = new_page(390, 844, locale=locale)
    recorder.goto("/")
    recorder.get_by_role("link", name=t("Start a new game")).click()
    recorder.get_by_role("link", name=re.compile("^" + re.escape(t("Auction Pitch")) + " ")).click()
    for seat, (name, team) in enumerate(zip(PLAYERS, TEAMS, strict=True), start=1):
        recorder.get_by_label(t("Name in seat %(number)s", number=seat), exact=True).fill(name)
        recorder.get_by_label(t("Team of seat %(number)s", number=seat), exact=True).fill(team)
    recorder.locator("details.house-rules > summary").click()
    recorder.get_by_label(t("Target score"), exact=True).fill("7")
    recorder.get_by_label(t("Stake per unit (money, optional)")).fill("0.25")
    recorder.get_by_label(t("The other side confirms each hand")).check()
    recorder.get_by_role("button", name=t("Start the game")).click()
    recorder.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(recorder.url.rsplit("/", 1)[1])
    _name_phone(recorder, t, "Ana's phone")

    table = Table(recorder)
    table.tap = lambda field, choice: _tap(recorder, field, choice, t)  # type: ignore[method-assign]
    table.hand("Ana", 2, high=NS, low=NS, jack=EW, game=NS)
    _save(recorder, t)
    waiting = recorder.locator("#waiting")
    expect(waiting).to_contain_text(
        t("Hand %(number)s waits for %(side)s: confirm or dispute", number=1, side=EW)
    )
    expect(recorder.locator("#hand-1 .hand-mark.waiting")).to_be_visible()
    _shot(recorder, waiting, artifacts / f"trail-waiting-{lang}.png")

    # Dana confirms hand 1 on her own phone: another browser, its own label.
    other = new_page(390, 844, locale=locale)
    other.goto(f"/games/{game_id}")
    _name_phone(other, t, "Dana's phone")
    expect(other.locator("#waiting")).to_contain_text(
        t("Hand %(number)s waits for %(side)s: confirm or dispute", number=1, side=EW)
    )
    before = recorder.locator(".standings").inner_text()
    _answer(other, t, 1, "Dana", "Confirm")
    expect(other.locator(".flashes")).to_contain_text(
        t("Hand %(number)s confirmed by %(name)s.", number=1, name="Dana")
    )
    expect(other.locator("#waiting")).to_have_count(0)
    last = _entries(live_server, game_id)[-1]
    assert (last.kind, last.who, last.detail) == (
        "confirmed",
        "player:Dana",
        {"device": "Dana's phone"},
    )
    # The recording phone hears of it without a reload, and no score moved.
    expect(recorder.locator("#waiting")).to_have_count(0)
    assert recorder.locator(".standings").inner_text() == before

    # Hand 2, confirmed on the recording phone by tapping a name of the other side.
    table.hand("Bogdan", 2, high=EW, low=EW, jack=NS, game=EW)
    _save(recorder, t)
    _answer(recorder, t, 2, "Cristi", "Confirm")
    last = _entries(live_server, game_id)[-1]
    assert (last.kind, last.who, last.detail) == (
        "confirmed",
        "player:Cristi",
        {"device": "Ana's phone"},
    )
    first = _entries(live_server, game_id)[0]
    assert (first.kind, first.who) == ("recorded", "device:Ana's phone")

    # Hand 3 wins the game for North-South; Dana disputes it.
    table.hand("Ana", 2, high=NS, low=NS, jack=NS, game=EW)
    _save(recorder, t)
    # Dana's phone hears of hand 3 by itself (the live page), as the recorder hears of her
    # dispute: neither reloads.
    expect(other.locator("form.answer[action$='/hands/3/answer']")).to_be_visible()
    _answer(other, t, 3, "Dana", "Dispute")
    disputed = t(
        "Hand %(number)s was disputed by %(name)s: correct it, or a player of %(side)s "
        "confirms it.",
        number=3,
        name="Dana",
        side=EW,
    )
    expect(recorder.locator("#waiting")).to_contain_text(disputed)
    expect(recorder.locator("#hand-3 .hand-mark.disputed")).to_be_visible()
    _shot(recorder, recorder.locator("#waiting"), artifacts / f"trail-disputed-{lang}.png")
    board = new_page(390, 844, locale=locale)
    board.goto(f"/games/{game_id}/board")
    expect(board.locator(".board-marks li.disputed")).to_contain_text(
        t("Hand %(number)s was disputed by %(name)s", number=3, name="Dana")
    )

    # The table agrees Game went to North-South after all: corrected, then confirmed.
    recorder.goto(f"/games/{game_id}/hands/3/edit")
    _tap(recorder, "game", NS, t)
    _save(recorder, t)
    expect(recorder.locator("#hand-3 .hand-mark.corrected")).to_be_visible()
    _answer(recorder, t, 3, "Bogdan", "Confirm")
    expect(recorder.locator("#waiting")).to_have_count(0)

    # A player of each side signs; the game is locked.
    trail = recorder.locator("#trail")
    with recorder.expect_navigation():
        trail.get_by_role("button", name=t("Sign as %(name)s", name="Ana")).click()
    expect(other.locator("#trail fieldset.sign")).to_have_count(1)  # only East-West is left
    with other.expect_navigation():
        other.locator("#trail").get_by_role(
            "button", name=t("Sign as %(name)s", name="Dana")
        ).click()
    expect(other.locator(".flashes")).to_contain_text(
        t("Signed by every side: the game is locked.")
    )
    expect(recorder.locator("#trail .signed")).to_be_visible()
    _shot(recorder, recorder.locator("#trail"), artifacts / f"trail-signed-{lang}.png")
    assert [e.kind for e in _entries(live_server, game_id)][-3:] == ["signed", "signed", "locked"]

    # A table phone's correction is refused in words, and nothing changes.
    recorder.goto(f"/games/{game_id}/hands/1/edit")
    _tap(recorder, "jack", NS, t)
    recorder.get_by_role("button", name=t("Save hand")).click()
    refused = t(
        "Game %(game)s was signed by every side at %(at)s, so it is locked: only the "
        "organiser can correct, undo or delete it now (log in as the organiser; without a "
        "password set, set one first with scorekeeper set-password). Nothing was changed.",
        game=game_id,
        at="AT",
    )
    first_part, rest = refused.split("AT", 1)
    expect(recorder.locator("body")).to_contain_text(
        re.compile(re.escape(first_part) + r"\S+( [AP]M)?" + re.escape(rest[:40]))
    )
    assert _entries(live_server, game_id)[-1].kind == "locked"

    # Hand 3's page tells its story.
    recorder.goto(f"/games/{game_id}/hands/3")
    story = recorder.locator("#hand-trail")
    expect(story.locator("li")).to_have_count(4)
    said = [" ".join(item.split()) for item in story.locator("li").all_inner_texts()]
    moment = r"\S+( [AP]M)?"

    def entry(message: str, who: str) -> Any:
        pattern = re.escape(t(message, at="AT", who=who)).replace("AT", moment)
        return re.compile("^" + pattern)

    assert entry("recorded at %(at)s by %(who)s", "Ana's phone").match(said[0]), said
    assert entry("disputed at %(at)s by %(who)s", "Dana").match(said[1]), said
    assert entry("corrected at %(at)s by %(who)s", "Ana's phone").match(said[2]), said
    assert f"{t('Game')} {EW} → {NS}" in said[2], said
    assert entry("confirmed at %(at)s by %(who)s", "Bogdan").match(said[3]), said
    assert said[3].endswith(t("(on %(device)s)", device="Ana's phone")), said
    _shot(recorder, story, artifacts / f"trail-hand-{lang}.png")
    assert recorder.js_errors == [] and other.js_errors == []


def _tap(page: Any, field: str, choice: str, t: Callable[..., str]) -> None:
    row = field if field in ("pitcher", "bid") else f"point_{field}"
    label = choice if choice not in ("Nobody",) else t("Nobody")
    page.locator(f"fieldset#{row}").get_by_text(label, exact=True).click()


def _save(page: Any, t: Callable[..., str]) -> None:
    # Answered in place by the page's script (the next hand's form), or by the next page.
    answered(page, lambda: page.get_by_role("button", name=t("Save hand")).click())
