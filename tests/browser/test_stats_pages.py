"""The player, game and night pages in a real Chromium: charts drawn, forms work, no errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from builders import ap_hand, record

from scorekeeper import operations, rules
from scorekeeper.data.extensions import db

from .conftest import LiveServer


def _record(variant: str, players: list[str], hands: list[Any], **extra: Any) -> str:
    return json.dumps(record(variant, players, hands, **extra))


#: Ada smudges in an Auction Pitch game for money; Ada and Cal win a Cinch game to 20
#: (Ben and Dot, at 0, owe each winner 2 units); a third game is still being played.
GAMES = (
    _record(
        "auction-pitch",
        ["Ada", "Ben", "Cal"],
        [
            ap_hand("Ben", 3, "Ben", "Ben", "Ada", "Ben"),
            ap_hand("Cal", 2, "Ada", "Ben", None, "Ada"),
            ap_hand("Ada", 4, "Ada", "Ada", "Ada", "Ada"),
        ],
        stake="0.25",
    ),
    _record(
        "cinch",
        ["Ada", "Ben", "Cal", "Dot"],
        [
            {
                "pitcher": "Ada",
                "bid": 7,
                "points": {
                    "high": "Ada",
                    "low": "Cal",
                    "jack": "Ben",
                    "game": "Ada",
                    "right_pedro": "Cal",
                    "left_pedro": "Ben",
                },
            },
            {
                "pitcher": "Ben",
                "bid": 9,
                "points": {
                    "high": "Ben",
                    "low": "Ada",
                    "jack": "Dot",
                    "game": "Cal",
                    "right_pedro": "Ben",
                    "left_pedro": "Ada",
                },
            },
            {
                "pitcher": "Cal",
                "bid": 6,
                "points": {
                    "high": "Cal",
                    "low": "Cal",
                    "jack": "Cal",
                    "game": "Dot",
                    "right_pedro": "Ada",
                    "left_pedro": "Dot",
                },
            },
        ],
        teams={"Reds": ["Ada", "Cal"], "Blues": ["Ben", "Dot"]},
        house_rules={"target": 20},
    ),
    _record("auction-pitch", ["Ben", "Cal"], [ap_hand("Ben", 2, "Ben", "Ben", "Cal", None)]),
)


@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> list[int]:
    with live_server.app.app_context():
        ids = [operations.games.import_record(rules.loads_record(text)) for text in GAMES]
        db.session.remove()
    return ids


def test_the_statistics_pages_draw_their_charts_and_settle_a_night(
    new_page: Any, games: list[int], artifacts: Any
) -> None:
    page = new_page(width=1000, height=900)
    blocked: list[str] = []
    page.on(
        "console",
        lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto("/players")
    page.get_by_role("link", name="Ada", exact=True).click()
    chart = page.locator("svg.chart")
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    assert page.get_by_text("Net money").is_visible()
    page.screenshot(path=str(artifacts / "stats-player.png"), full_page=True)
    page.goto(f"/games/{games[0]}")
    box = page.locator("svg.chart").bounding_box()
    assert box is not None and box["height"] > 100
    page.goto("/nights")
    page.get_by_role("button", name="Start the night").click()
    page.get_by_label("Game number").fill(str(games[1]))
    page.get_by_role("button", name="Add the game").click()
    assert page.get_by_text(f"Game {games[1]} is now part of this night.").is_visible()
    page.get_by_role("button", name=f"Add game {games[2]}").click()  # a latest game, in no night
    assert page.get_by_text(f"Game {games[2]} is now part of this night.").is_visible()
    assert page.get_by_text("Ben pays Ada 4 units").is_visible()
    assert page.get_by_text("Dot pays Cal 4 units").is_visible()
    page.screenshot(path=str(artifacts / "stats-night.png"), full_page=True)
    page.get_by_role("button", name="End the night").click()  # later tests' games join no night
    assert blocked == []
    assert page.js_errors == []
