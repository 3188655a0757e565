"""Games to print, built through the real engine and stored through ``operations``; PDF reading."""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import system_parts
from PIL import Image
from pypdf import PdfReader

from scorekeeper import operations, rules

MINUS = "\u2212"


def store(app: Any, game: rules.Game, hands: Sequence[rules.Hand]) -> int:
    """Store a game with its hands (as an import would) and return its id; the same game
    again is stored again (as an import asked twice does): a history may hold it twice."""
    with app.app_context():
        record = rules.parse_record(rules.record_to_json(game, hands))
        try:
            return operations.games.import_record(record)
        except operations.errors.AlreadyKept as same:
            return operations.games.import_record(record, again=same.params["id"])


def result_of(app: Any, game_id: int) -> rules.GameResult:
    with app.app_context():
        return operations.loading.load(game_id).result


def hand(pitcher: str, bid: int, **points: str | None) -> rules.Hand:
    return rules.Hand(pitcher=pitcher, bid=bid, points=points)


def eventful_game() -> tuple[rules.Game, list[rules.Hand]]:
    """Auction Pitch with a set-back into the hole, a passed hand, a note and a smudge to win."""
    game = rules.Game.create(
        "auction-pitch",
        ["Ann", "Bob", "Cy", "Dee"],
        house_rules={"all_pass": "redeal-next-dealer", "payout_per_setback": 1},
        stake="0.25",
    )
    hands = [
        hand("Bob", 3, high="Bob", low="Cy", jack=None, game="Dee"),
        rules.Hand.passed_out(note="Nobody liked their cards"),
        hand("Dee", 2, high="Dee", low="Dee", jack="Ann", game="Dee"),
        hand("Ann", 4, high="Ann", low="Ann", jack="Ann", game="Ann"),
    ]
    return game, hands


def play_out(
    variant_key: str,
    players: Sequence[str],
    *,
    teams: Mapping[str, Sequence[str]] | None = None,
    house_rules: Mapping[str, Any] | None = None,
    stake: str | None = None,
) -> tuple[rules.Game, list[rules.Hand]]:
    """Play a game of any variant to its end: the player left of the dealer bids and takes all.

    In Sell-Out the seller pitches. The engine says who deals and when the game is won.
    """
    game = rules.Game.create(
        variant_key, players, teams=teams, house_rules=house_rules or {}, stake=stake
    )
    variant = game.variant
    hands: list[rules.Hand] = []
    while not (result := rules.score_game(game, hands)).finished:
        assert len(hands) < 100, "the game should have ended"
        pitcher = game.left_of(result.next_dealer or "")
        if variant.sales:
            hands.append(
                rules.Hand(
                    pitcher=pitcher,
                    bid=4,
                    sale=rules.Sale.PITCHED,
                    points=dict.fromkeys(variant.point_keys, pitcher),
                )
            )
            continue
        bid = max(variant.min_bid, 1 if variant.scoring is rules.variants.Scoring.CINCH else 2)
        hands.append(
            rules.Hand(pitcher=pitcher, bid=bid, points=dict.fromkeys(variant.point_keys, pitcher))
        )
    return game, hands


def pdf_pages(data: bytes) -> list[str]:
    """Read a PDF back: the text of each page (no-break and thin spaces read as spaces)."""
    assert data.startswith(b"%PDF-"), data[:200]
    return [
        page.extract_text().replace("\u00a0", " ").replace("\u2009", " ")
        for page in PdfReader(io.BytesIO(data)).pages
    ]


def score_words(score: int) -> str:
    """A score as the sheet prints it (a true minus sign in the hole)."""
    return f"{MINUS}{-score}" if score < 0 else str(score)


def row_line(page_text: str, number: int, dealer: str) -> str:
    """The line of the sheet's table that shows hand ``number``."""
    pattern = re.compile(rf"^{number}\*? {re.escape(dealer)} .*$", re.M)
    found = pattern.search(page_text)
    assert found is not None, f"no row for hand {number} dealt by {dealer}:\n{page_text}"
    return found.group(0)


def ink_on_page(pdf: Path, page: int, dpi: int = 40) -> tuple[tuple[int, int], float]:
    """Draw one page with pdftoppm (poppler): its size in pixels, and the share of it inked."""
    pdftoppm = system_parts.require("poppler-utils")
    out = pdf.with_name(f"{pdf.stem}-page{page}")
    subprocess.run(
        [
            pdftoppm,
            "-r",
            str(dpi),
            "-png",
            "-singlefile",
            "-f",
            str(page),
            "-l",
            str(page),
            str(pdf),
            str(out),
        ],
        check=True,
        timeout=60,
    )
    with Image.open(out.with_suffix(".png")) as picture:
        histogram = picture.convert("L").histogram()
        size = picture.size
    return size, sum(histogram[:128]) / (size[0] * size[1])
