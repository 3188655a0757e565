"""Fixed teams' knockout on a phone-sized director's screen (360x740) in a real Chromium:
after the round robin, "Start the knockout" is tapped, the bracket of four teams is drawn
with its tables and seeds, a best-of-3 semi-final goes to three games while the page
follows, and the champion is named; nothing is wider than the screen. Screenshots are
saved to look at. The games are played through ``operations.hands.record_hand``, the path
every phone takes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import operations, rules

from .conftest import LiveServer

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 360, 740
#: The director's screen asks every few seconds, then draws itself again (ms).
FOLLOWED_MS = 30_000
TEAMS = {
    "The Grange Aces": ["Ana", "Bogdan"],
    "Kings of Calhoun County": ["Cristi", "Dana"],
    "Queens": ["Elena", "Florin"],
    "Jacks": ["Gabi", "Horia"],
}
STRENGTH = list(TEAMS)


def _win(game_id: int, team: str) -> None:
    """``team`` takes every point of both hands (the game ends after 2 hands)."""
    for _ in range(2):
        loaded = operations.loading.load(game_id)
        who = next(name for name in loaded.names if name in TEAMS[team])
        hand = rules.Hand(
            pitcher=who, bid=2, points={"high": who, "low": who, "jack": who, "game": who}
        )
        operations.hands.record_hand(game_id, hand, version=loaded.row.version)


def _round_robin(event_id: int) -> None:
    for _ in range(3):
        version = operations.events.event_version(event_id)
        operations.rounds.start_round(event_id, version=version)
        state = operations.events.load_event(event_id)
        team_of = {p.player_id: p.team for p in state.players}
        assert state.current is not None
        for table in state.current.tables:
            assert table.game_id is not None
            stronger = min({team_of[p] for p in table.seats}, key=STRENGTH.index)
            _win(table.game_id, str(stronger))


#: The words of the standings' team names that a line break cuts in two (each word's text
#: measured as a range: a word cut at the end of a line has two boxes).
CUT_WORDS = """() => [...document.querySelectorAll('.event-standings th.who')].flatMap((cell) => {
  const cut = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      if (range.getClientRects().length > 1) cut.push(word[0]);
    }
  }
  return cut;
})"""


def _fits(page: Any, name: str, artifacts: Path) -> None:
    page.screenshot(path=str(artifacts / f"knockout-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, name
    assert page.evaluate(CUT_WORDS) == [], name


def test_the_bracket_on_a_phone_sized_directors_screen(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    app = live_server.app
    with app.app_context():
        event_id = operations.event_setup.create_event(
            operations.event_setup.EventSetup(
                name="Grange teams night",
                day=date(2026, 12, 5),
                format="teams",
                variant="auction-pitch",
                house_rules={"hands": 2},
                rounds=3,
                knockout_size=4,
                best_of=3,
            )
        )
        for team, names in TEAMS.items():
            operations.event_setup.register(event_id, names, team=team)
        _round_robin(event_id)

    page = new_page(WIDTH, HEIGHT)
    page.goto(f"/events/{event_id}")
    knockout = page.locator("section.knockout")
    expect(knockout).to_contain_text("Seeded by the standings:")
    expect(page.locator("details.knockout-setup summary")).to_have_text("Change the knockout")
    _fits(page, "seeds", artifacts)
    with page.expect_navigation():
        page.locator("#start-knockout").click()
    expect(page.locator(".flash, .flashes, [role=status]").first).to_contain_text(
        "The knockout has started"
    )
    expect(knockout.locator(".bracket-round h3")).to_have_text(["Semi-finals", "Final"])
    expect(knockout.locator(".bracket-match")).to_have_count(3)
    # The bracket comes first; the round robin's last round is folded below it.
    folded = page.locator("details#last-round")
    expect(folded.locator("summary")).to_contain_text("the round robin's last")
    expect(folded).not_to_have_attribute("open", "")
    expect(folded.locator(".event-table").first).to_be_hidden()
    assert knockout.bounding_box()["y"] < folded.bounding_box()["y"]
    assert knockout.locator(".bracket-match").first.bounding_box()["y"] < HEIGHT
    expect(knockout.locator("#call-time-knockout")).to_be_visible()  # its games in play
    _fits(page, "drawn", artifacts)
    folded.locator("summary").click()
    expect(folded.locator(".event-table").first).to_be_visible()
    _fits(page, "last-round", artifacts)
    folded.locator("summary").click()

    with app.app_context():
        semi_one = operations.events.table_game(event_id, 1)
        semi_two = operations.events.table_game(event_id, 2)
        assert semi_one is not None and semi_two is not None
        _win(semi_one, "Jacks")
        second = operations.events.table_game(event_id, 1)
        assert second is not None and second != semi_one
        _win(second, "The Grange Aces")
        _win(semi_two, "Kings of Calhoun County")
    # The screen follows the tables: the series stands at one game each.
    first_match = knockout.locator(".bracket-match").first
    expect(first_match).to_contain_text("game 2", timeout=FOLLOWED_MS)
    expect(first_match.locator(".wins")).to_have_text(["1", "1"], timeout=FOLLOWED_MS)
    _fits(page, "series", artifacts)

    with app.app_context():
        third = operations.events.table_game(event_id, 1)
        assert third is not None
        _win(third, "The Grange Aces")
        _win(operations.events.table_game(event_id, 2) or 0, "Kings of Calhoun County")
        final = operations.events.table_game(event_id, 1)
        assert final is not None
        for winner in ("Kings of Calhoun County", "The Grange Aces", "Kings of Calhoun County"):
            _win(operations.events.table_game(event_id, 1) or 0, winner)
    page.reload()
    expect(page.locator("#champion")).to_contain_text("Champion: Kings of Calhoun County")
    expect(knockout.locator(".bracket-match.decided")).to_have_count(3)
    expect(knockout.locator("#close-event")).to_be_visible()
    expect(knockout.locator("#call-time-knockout")).to_have_count(0)
    _fits(page, "champion", artifacts)
    assert page.js_errors == []
