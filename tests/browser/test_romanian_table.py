"""A Romanian table plays a game through to the settlement, and prints it, in Romanian."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from scorekeeper import i18n

from .ui import Table, said

pytestmark = pytest.mark.browser


def ro(message: str, **variables: Any) -> str:
    """The Romanian of ``message``, as the catalogue has it (and a miss fails the test)."""
    text = i18n.translations_for("ro").gettext(message)
    assert text != message or not re.search(r"[a-z]{3}", message), f"untranslated: {message}"
    return text % variables if variables else text


def test_a_romanian_browser_plays_settles_and_prints_in_romanian(new_page: Any) -> None:
    page = new_page(locale="ro-RO")  # Chromium asks for Romanian in Accept-Language
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ro")
    page.get_by_role("link", name="Începeți o partidă nouă").click()
    page.get_by_role("link", name=re.compile("^Pitch cu licitație ")).click()
    for seat, name in enumerate(["Ana", "Bogdan", "Cristi"], start=1):
        page.get_by_label(ro("Name in seat %(number)s", number=seat), exact=True).fill(name)
    page.get_by_label("Miza pe unitate (bani, opțional)").fill("0.50")
    page.get_by_role("button", name="Începeți partida").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))

    table = Table(page)
    table.hand("Bogdan", 2, high="Bogdan", low="Ana", jack="Cristi", game="Bogdan")
    page.get_by_role("button", name="Salvați mâna").click()
    assert said(page) == "Bogdan a făcut 2."
    table.hand("Cristi", 4, high="Cristi", low="Cristi", jack="Cristi", game="Cristi")
    page.get_by_role("button", name="Salvați mâna").click()

    over = page.locator(".game-over")
    expect(over.get_by_role("heading", name="Cristi a câștigat!")).to_be_visible()
    payments = [
        " ".join(r.split()) for r in over.locator("table.payments tbody tr").all_inner_texts()
    ]
    # Cristi smudges; Ana and Bogdan, above 0, pay a unit each at 0,50 (a decimal comma).
    assert sorted(payments) == ["Ana Cristi 1 0,50", "Bogdan Cristi 1 0,50"]

    # The switch at the foot of the page turns it English, and it stays English.
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="Cristi won!")).to_be_visible()
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("button", name="Română").click()
    expect(page.get_by_role("heading", name="Cristi a câștigat!")).to_be_visible()

    # The sheet printed from the Romanian page is Romanian.
    link = page.get_by_role("link", name=re.compile("Tipăriți"))
    pdf = page.request.get(link.first.get_attribute("href") or "")
    assert pdf.headers["content-type"] == "application/pdf"
    text = " ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(pdf.body())).pages)
    assert "Pitch cu licitație" in text and "Auction Pitch" not in text
    assert page.js_errors == []
