"""What a person does with the pages: start a game, tap a hand in, read the standings.

Every step clicks or types into what is on screen (labels, buttons, links), so a
test fails when a person could not do the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from playwright.sync_api import expect


def start_game(
    page: Any,
    variant_name: str,
    names: Iterable[str],
    *,
    teams: Iterable[str] | None = None,
    stake: str | None = None,
    house_rules: Mapping[str, str] | None = None,
) -> int:
    """Set up a game from the home page and return its id (from the game page's URL)."""
    page.goto("/")
    page.get_by_role("link", name="Start a new game").click()
    page.get_by_role("link", name=re.compile("^" + re.escape(variant_name) + " ")).click()
    for i, name in enumerate(names):
        page.get_by_label(f"Name in seat {i + 1}", exact=True).fill(name)
    for i, team in enumerate(teams or ()):
        page.get_by_label(f"Team of seat {i + 1}", exact=True).fill(team)
    if house_rules:
        page.locator("details.house-rules > summary").click()
        for label, value in house_rules.items():
            control = page.get_by_label(label, exact=True)
            if control.evaluate("el => el.tagName") == "SELECT":
                control.select_option(label=value)
            else:
                control.fill(value)
    if stake is not None:
        page.get_by_label("Stake per unit (money, optional)").fill(stake)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    match = re.search(r"/games/(\d+)$", page.url)
    assert match, (page.url, page.locator(".errors").all_inner_texts())
    return int(match.group(1))


def import_game(page: Any, record: Mapping[str, Any]) -> int:
    """Create a game from a record over HTTP (POST /games/import), to set a scene quickly."""
    response = page.request.post("/games/import", data=dict(record))
    if response.status == 409:  # the same game kept already (the session's server): again
        again = response.json()["game"]
        response = page.request.post(f"/games/import?again={again}", data=dict(record))
    assert response.status == 201, response.text()
    return int(response.json()["id"])


def ap_record(players: list[str], hands: list[tuple[Any, ...]], **extra: Any) -> dict[str, Any]:
    """An Auction Pitch record; each hand is (pitcher, bid, high, low, jack, game)."""
    return {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "players": players,
        "hands": [
            {"pitcher": p, "bid": b, "points": {"high": h, "low": lo, "jack": j, "game": g}}
            for p, b, h, lo, j, g in hands
        ],
        **extra,
    }


class Table:
    """The hand form on a game page, tapped as at the table; it counts the taps."""

    def __init__(self, page: Any, nobody: str = "Nobody") -> None:
        self.page = page
        self.taps = 0
        #: The words of the "nobody" button (the page's language).
        self.nobody = nobody

    def tap(self, field: str, choice: str) -> None:
        """Tap the button ``choice`` in the row ``field`` (pitcher, bid, sale, or a point key)."""
        row = (
            field
            if field in ("pitcher", "bid", "sale", "high_bidder", "rest")
            else f"point_{field}"
        )
        self.page.locator(f"fieldset#{row}").get_by_text(choice, exact=True).click()
        self.taps += 1

    def hand(self, pitcher: str | None = None, bid: int | None = None, **taps: str | None) -> None:
        """Tap a whole hand: the sale first (Sell-Out), pitcher, bid, then each point's taker."""
        if "sale" in taps:
            self.tap("sale", str(taps.pop("sale")))
        if pitcher is not None:
            self.tap("pitcher", pitcher)
        if bid is not None:
            self.tap("bid", str(bid))
        if "high_bidder" in taps:
            self.tap("high_bidder", str(taps.pop("high_bidder")))
        for key, name in taps.items():
            self.tap(key, self.nobody if name is None else name)

    def save(self) -> None:
        """Press Save and wait for the answer: the next hand's form put in place (the page's
        script, which follows the server without a reload), or the next page (without the
        script, or when the page says more: a refusal, a question, a game won)."""
        answered(self.page, lambda: self.page.get_by_role("button", name="Save hand").click())
        self.taps += 1

    def save_offline(self) -> None:
        """Save with no connection: the hand stays on the page, kept on the phone."""
        kept = self.page.locator("tr.unsaved")
        before = kept.count()
        self.page.get_by_role("button", name="Save hand").click()
        expect(kept).to_have_count(before + 1)
        self.taps += 1

    def play(self, pitcher: str | None = None, bid: int | None = None, **taps: str | None) -> str:
        """Tap a hand in, save it, and return what the page then says happened."""
        self.hand(pitcher, bid, **taps)
        self.save()
        return said(self.page)


#: Whether the page has answered what was pressed: a new page (the marker set before the
#: press is gone) that has loaded, or the next hand's form put in place by the script and
#: the page then brought up to date with the server (the scores, the sheet, who deals).
ANSWERED = """() => document.readyState === "complete" && (window.__pressed !== true
    || document.querySelector("#hand-form[data-ready][data-followed]") !== null)"""


def answered(page: Any, press: Any, timeout: float = 10.0) -> None:
    """Do ``press`` (a Save, a choice) and wait until the page has answered it, whether by
    a navigation or in place. Asked of the page as it is each time (not with
    ``wait_for_function``, which loses a page the back-forward cache brought back)."""
    import time

    from playwright.sync_api import Error

    page.evaluate("""() => {
        window.__pressed = true;
        const form = document.querySelector("#hand-form");
        if (form) { delete form.dataset.ready; delete form.dataset.followed; }
    }""")
    press()
    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(ANSWERED):
                break
        except Error as error:  # the page navigated while it was asked: ask the new one
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
        if time.monotonic() > deadline:
            raise AssertionError("the page did not answer: " + page.url)
        page.wait_for_timeout(25)
    # A page loaded: its stylesheet may still be on its way (a busy machine showed unstyled
    # white-on-white scores).
    page.wait_for_load_state("load")


def said(page: Any) -> str:
    """The message the page shows after a save (the flash), as one line."""
    flash = page.locator(".flashes .flash").first
    expect(flash).to_be_visible()
    return " ".join(flash.inner_text().split())


def standings(page: Any) -> dict[str, str]:
    """Each side's score as shown on the standings cards (a score in the hole: see ``hole``)."""
    out: dict[str, str] = {}
    for card in page.locator("#standings .side").all():
        name = card.locator(".side-name").inner_text().replace("★", "").strip()
        out[name] = card.locator(".score").inner_text().strip()
    return out


def hole(points: int) -> str:
    """A score ``points`` in the hole as the pages print it: with a real minus sign."""
    return "\N{MINUS SIGN}" + str(points)


def dealer_line(page: Any) -> str:
    return " ".join(page.locator(".dealer-line").inner_text().split())


def errors_next_to(page: Any, field: str) -> list[str]:
    """The error messages shown inside a field's own row (its fieldset)."""
    row = field if field in ("pitcher", "bid", "sale", "high_bidder") else f"point_{field}"
    return [
        " ".join(t.split()) for t in page.locator(f"fieldset#{row} .errors li").all_inner_texts()
    ]
