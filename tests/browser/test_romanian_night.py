"""A Romanian table starts its night, then games on a phone: one set up from the games list
joins no night (another table's night is on too, perhaps), one started from the night's
page joins it, the form saying which; and a stake typed as 0,25."""

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


def _seat_and_stake(page: Any, names: list[str], stake: str) -> Any:
    """Type the names and the stake on the open form; return its night choice."""
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Numele de pe locul {seat}", exact=True).fill(name)
    page.get_by_label("Miza pe unitate (bani, opțional)").fill(stake)
    return page.get_by_label("Seară de joc", exact=True)


def test_a_romanian_phone_starts_a_night_and_a_game_joins_it_only_from_it(
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
    night_id = int(night_url.rsplit("/", 1)[1])
    try:
        # From the games list: the night is offered, not chosen.
        page.goto("/")
        page.get_by_role("link", name="Începeți o partidă nouă").click()
        page.get_by_role("link", name=re.compile("^Pitch cu licitație ")).click()
        night = _seat_and_stake(page, ["Ana", "Bogdan"], "0,25")
        expect(night).to_have_value("")
        expect(night.locator("option", has_text="Vineri la Ana")).to_have_count(1)
        page.screenshot(path=str(artifacts / "romanian-new-game-no-night-360.png"), full_page=True)
        page.get_by_role("button", name="Începeți partida").click()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        alone = int(page.url.rsplit("/", 1)[1])
        expect(page.get_by_text("Miza 0,25 pe unitate.")).to_be_visible()
        assert _night_of(live_server, alone) is None

        # From the night's page: the form chooses that night.
        page.goto(night_url)
        page.get_by_role("link", name="Începeți o partidă în această seară de joc").click()
        page.get_by_role("link", name=re.compile("^Pitch cu licitație ")).click()
        night = _seat_and_stake(page, ["Ana", "Cristi"], "1,5")
        expect(night).to_have_value(str(night_id))
        page.screenshot(path=str(artifacts / "romanian-new-game-in-the-night-360.png"))
        page.get_by_role("button", name="Începeți partida").click()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        joined = int(page.url.rsplit("/", 1)[1])
        expect(page.get_by_text("Jucată la Vineri la Ana.")).to_be_visible()
        assert _night_of(live_server, joined) == night_id
        assert page.js_errors == []
    finally:
        # The server is shared by the session's browser tests: end the night for the others.
        page.goto(night_url)
        page.get_by_role("button", name="Încheiați seara").click()
