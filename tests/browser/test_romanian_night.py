"""A Romanian table starts its night, then a game at it, on a phone: the night's default
name, the tick box that says which night the game joins, and a stake typed as 0,25."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

from babel.dates import format_date
from playwright.sync_api import expect

from .conftest import LiveServer


def _night_of(live_server: LiveServer, game_id: int) -> int | None:
    from scorekeeper.data import models
    from scorekeeper.data.extensions import db

    with live_server.app.app_context():
        night = db.session.get(models.Game, game_id).night_id
        db.session.remove()
    return night


def _start_game(page: Any, names: list[str], stake: str, *, join: bool) -> int:
    page.goto("/")
    page.get_by_role("link", name="Începeți o partidă nouă").click()
    page.get_by_role("link", name=re.compile("^Pitch cu licitație ")).click()
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Numele de pe locul {seat}", exact=True).fill(name)
    page.get_by_label("Miza pe unitate (bani, opțional)").fill(stake)
    box = page.get_by_label(re.compile("^Se alătură serii de joc de diseară: "))
    expect(box).to_be_checked()  # on by default
    if not join:
        box.uncheck()
    return box


def test_a_romanian_phone_starts_a_night_and_a_game_that_joins_it_or_not(
    new_page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    page = new_page(width=360, height=740, locale="ro-RO")
    page.goto("/nights")
    name = page.get_by_label("Nume", exact=True)
    today = format_date(date.today(), format="medium", locale="ro")
    expect(name).to_have_value(f"Seară de joc {today}")  # the default name, in Romanian
    name.fill("Vineri la Ana")
    page.get_by_role("button", name="Începeți seara").click()
    night_url = page.url
    try:
        box = _start_game(page, ["Ana", "Bogdan"], "0,25", join=False)
        expect(box).not_to_be_checked()
        page.screenshot(path=str(artifacts / "romanian-new-game-night-box-360.png"), full_page=True)
        page.get_by_role("button", name="Începeți partida").click()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        alone = int(page.url.rsplit("/", 1)[1])
        expect(page.get_by_text("Miza 0,25 pe unitate.")).to_be_visible()
        assert _night_of(live_server, alone) is None

        _start_game(page, ["Ana", "Cristi"], "1,5", join=True)
        expect(
            page.get_by_text("Se alătură serii de joc de diseară: Vineri la Ana")
        ).to_be_visible()
        page.screenshot(path=str(artifacts / "romanian-new-game-night-box-ticked-360.png"))
        page.get_by_role("button", name="Începeți partida").click()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        joined = int(page.url.rsplit("/", 1)[1])
        expect(page.get_by_text("Jucată la Vineri la Ana.")).to_be_visible()
        assert _night_of(live_server, joined) == int(night_url.rsplit("/", 1)[1])
        assert page.js_errors == []
    finally:
        # The server is shared by the session's browser tests: end the night for the others.
        page.goto(night_url)
        page.get_by_role("button", name="Încheiați seara").click()
