"""The phone's score sheet and a hand's own page: marks under the side that took them, the
bid beside the pitcher, set-backs struck, the hole ringed, each row a link to its hand in words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from i18n.catalogue import WORD
from i18n.test_romanian_pages import _Page, english_words

from scorekeeper import rules
from scorekeeper.sheets.names import short_names

from .tables import ap_hand, import_game, record, text

FOUR = ["Ann", "Bob", "Cy", "Dee"]
#: Hand 1: Bob makes 3 (High, Low, Game; Cy took the Jack). Hand 2: Cy bids 2, takes only
#: the Low and is set back into the hole; Jack not dealt. Hand 3: Dee makes 2.
HANDS = [
    ap_hand("Bob", 3, "Bob", "Bob", "Cy", "Bob"),
    ap_hand("Cy", 2, "Bob", "Cy", None, "Ann"),
    ap_hand("Dee", 2, "Dee", "Dee", "Ann", "Dee"),
]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MINUS = "\N{MINUS SIGN}"


def sheet_row(html: str, number: int) -> str:
    """The HTML of hand ``number``'s row of the score sheet."""
    found = re.search(rf'<tr id="hand-{number}"[^>]*>.*?</tr>', html, re.S)
    assert found, number
    return found.group(0)


def side_cells(row: str) -> list[str]:
    """The cells of a sheet row under the sides' columns, in the sides' order."""
    return re.findall(r'<td class="side-cell[^"]*">(.*?)</td>', row, re.S)


def marks(cell: str) -> str:
    """The marks written under a side's score in a cell ("" for none)."""
    found = re.search(r'<span class="took">([^<]*)</span>', cell)
    return found.group(1) if found else ""


@pytest.fixture
def four(client: Any) -> int:
    return import_game(client, record("auction-pitch", FOUR, HANDS))


def test_the_marks_of_a_hand_are_written_under_the_side_that_took_them(
    client: Any, four: int
) -> None:
    html = client.get(f"/games/{four}").get_data(as_text=True)
    first = side_cells(sheet_row(html, 1))
    assert [marks(cell) for cell in first] == ["", "H L G", "J", ""]
    second = side_cells(sheet_row(html, 2))
    assert [marks(cell) for cell in second] == ["G", "H", "L", ""]
    # The marks are the engine's own, in the variant's count-out order.
    point_marks = [p.mark for p in rules.VARIANTS["auction-pitch"].points]
    assert point_marks == ["H", "L", "J", "G"]


def test_the_bid_is_written_beside_the_pitcher_only(client: Any, four: int) -> None:
    html = client.get(f"/games/{four}").get_data(as_text=True)
    cells = side_cells(sheet_row(html, 1))
    with_bid = [i for i, cell in enumerate(cells) if 'class="bid' in cell]
    assert with_bid == [1]  # Bob's column
    assert re.search(r'<span class="bid" title="Bob bid 3, made it">3</span>', cells[1])


def test_a_set_back_is_struck_through_and_a_score_in_the_hole_is_ringed(
    client: Any, four: int
) -> None:
    html = client.get(f"/games/{four}").get_data(as_text=True)
    row = sheet_row(html, 2)
    assert re.match(r'<tr id="hand-2" class="hand[^"]* set-back', row)
    cy = side_cells(row)[2]
    assert '<span class="bid set" title="Cy bid 2, set back"><s>2</s></span>' in cy
    assert '<span class="ring" title="in the hole">&minus;1</span>' in cy
    # Nobody else is struck or ringed.
    others = [cell for i, cell in enumerate(side_cells(row)) if i != 2]
    assert not any("<s>" in cell or 'class="ring"' in cell for cell in others)
    assert "<s>" not in sheet_row(html, 1)


def test_only_the_latest_hand_is_highlighted(client: Any, four: int) -> None:
    html = client.get(f"/games/{four}").get_data(as_text=True)
    assert re.findall(r'<tr id="hand-(\d+)" class="[^"]*\blatest\b', html) == ["3"]


def test_each_row_links_to_its_hand_and_each_side_header_names_the_side_in_full(
    client: Any,
) -> None:
    names = ["Margareta", "Marian", "Bogdan", "Cristi", "Dana", "Ioana Maria"]
    hands = [ap_hand("Marian", 2, "Marian", "Bogdan", None, "Dana")]
    game_id = import_game(client, record("auction-pitch", names, hands))
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    link = f'<a class="hand-link" href="/games/{game_id}/hands/1" aria-label="Hand 1">1</a>'
    assert link in sheet_row(html, 1)
    headers = re.findall(
        r'<th scope="col" class="side-col" aria-label="([^"]*)" title="\1"><bdi>([^<]+)', html
    )
    # Six sides: three letters each, more where two would read alike.
    assert headers == [
        ("Margareta", "Marg"),
        ("Marian", "Mari"),
        ("Bogdan", "Bog"),
        ("Cristi", "Cri"),
        ("Dana", "Dan"),
        ("Ioana Maria", "Ioa"),
    ]


def test_fewer_sides_keep_more_of_their_names(client: Any) -> None:
    names = ["Ana", "Bogdan", "Cristina", "Dana"]
    game_id = import_game(client, record("auction-pitch", names, []))
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    shown = re.findall(r'<th scope="col" class="side-col"[^>]*><bdi>([^<]+)', html)
    assert shown == ["Ana", "Bogdan", "Cristi", "Dana"]


def test_the_hand_page_says_the_hand_in_words(client: Any, four: int) -> None:
    response = client.get(f"/games/{four}/hands/2")
    assert response.status_code == 200
    words = text(response.get_data(as_text=True).split('id="hand"', 1)[1])
    for sentence in (
        "Hand 2",
        "Cy is set back 2 and is in the hole.",
        "Bob dealt.",
        "Cy bid 2.",
        "Bob took High.",
        "Cy took Low.",
        "Nobody took Jack.",
        "Ann took Game.",
    ):
        assert sentence in words, sentence
    # What each side scored this hand and its score after it.
    assert "Scores after hand 2" in words
    assert f"Ann G +1 1 Bob H +1 4 Cy L {MINUS}2 {MINUS}1 Dee 0 0" in words
    html = response.get_data(as_text=True)
    assert f'href="/games/{four}/hands/2/edit">Correct this hand</a>' in html
    assert f'href="/games/{four}#hand-2"' in html
    assert f'href="/games/{four}/hands/1"' in html and f'href="/games/{four}/hands/3"' in html


def test_a_partnership_hand_names_each_takers_team(client: Any) -> None:
    game_id = import_game(
        client, json.loads((EXAMPLES / "cinch-rule-book-examples.json").read_text())
    )
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    # One column per team, its players in its label.
    assert 'aria-label="North-South: Ann &amp; Cy"' in html
    assert len(side_cells(sheet_row(html, 1))) == 2
    words = text(client.get(f"/games/{game_id}/hands/1").get_data(as_text=True))
    assert "Bob (East-West) bid 6." in words
    assert "Dee (East-West) took Right Pedro." in words
    assert "Cy (North-South) took Left Pedro." in words


def test_a_reader_who_cannot_write_is_not_offered_the_correction(
    app: Any, client: Any, four: int
) -> None:
    app.config["ORGANISER_PASSWORD"] = "let me in"
    html = client.get(f"/games/{four}/hands/1").get_data(as_text=True)
    assert "Bob made 3." in text(html)
    assert "Correct this hand" not in html
    assert "/hands/1/edit" not in html


@pytest.mark.parametrize(
    "path",
    ["/games/{id}/hands/4", "/games/{id}/hands/0", "/games/{id}/hands/99999999999"],
)
def test_a_hand_the_game_does_not_have_is_a_404_that_says_so(
    client: Any, four: int, path: str
) -> None:
    response = client.get(path.format(id=four))
    assert response.status_code == 404
    if path.endswith("/4"):
        assert f"Game {four} has no hand 4." in text(response.get_data(as_text=True))


def test_a_hand_of_a_game_that_does_not_exist_is_a_404(client: Any) -> None:
    response = client.get("/games/424242/hands/1")
    assert response.status_code == 404
    assert "424242" in text(response.get_data(as_text=True))


@pytest.mark.parametrize(
    "example",
    sorted(p.name for p in EXAMPLES.glob("*.json") if not p.name.endswith(".out.json")),
)
def test_every_example_game_draws_its_sheet_and_every_hand_page(client: Any, example: str) -> None:
    data = json.loads((EXAMPLES / example).read_text())
    response = client.post("/games/import", json=data)
    if response.status_code != 201:  # an example of a refused record
        assert (EXAMPLES / example.replace(".json", ".error.txt")).exists()
        return
    game_id = response.get_json()["id"]
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    sides = len(data.get("teams") or data["players"])
    for number, hand in enumerate(data["hands"], start=1):
        row = sheet_row(html, number)
        if hand.get("passed"):
            assert 'class="passed-out"' in row
        else:
            assert len(side_cells(row)) == sides
            assert row.count('class="bid') == 1
        page = client.get(f"/games/{game_id}/hands/{number}")
        assert page.status_code == 200, (example, number)


def test_a_sell_out_sale_and_a_passed_hand_are_on_the_sheet(client: Any) -> None:
    data = json.loads((EXAMPLES / "sellout-sold-kept-passed-pitched.json").read_text())
    game_id = import_game(client, data)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    # Hand 1: Ann deals, Bob (at her left) sells the bid to Cy for 2: Bob scores 2 as a sale.
    cells = side_cells(sheet_row(html, 1))
    assert [('class="sale"' in cell) for cell in cells] == [False, True, False]
    assert 'class="bid"' in cells[2]
    assert "passed out" in text(sheet_row(html, 3))
    words = text(client.get(f"/games/{game_id}/hands/3").get_data(as_text=True))
    assert "Everyone passed." in words and "took" not in words


def test_the_hand_page_in_romanian_has_no_english(client: Any, four: int) -> None:
    client.post("/language", data={"lang": "ro"})
    for url in (f"/games/{four}/hands/2", f"/games/{four}"):
        html = client.get(url).get_data(as_text=True)
        page = _Page()
        page.feed(html)
        names = {w.lower() for name in FOUR for w in WORD.findall(name)}
        assert english_words(" ".join(page.text), names) == [], url
    words = text(client.get(f"/games/{four}/hands/2").get_data(as_text=True))
    assert "Mâna 2" in words
    assert "A împărțit Bob." in words


def test_short_names_stay_distinct_and_keep_short_names_whole() -> None:
    assert short_names(["Ann", "Bob", "Cy", "Dee"]) == ("Ann", "Bob", "Cy", "Dee")
    assert short_names(["Margareta", "Marian"]) == ("Marg", "Mari")
    assert short_names(["Alexandra", "Alexandru"]) == ("Ala", "Alu")
    assert short_names(["Ana Maria", "Ana Popescu"]) == ("AM", "AP")
    assert short_names(["Dan", "Dana", "Daniel"]) == ("Dan", "Dana", "Dani")
    assert short_names(["Us", "Them"]) == ("Us", "The")
    assert short_names(["Annabelle", "Bartholomew"], 6) == ("Annabe", "Bartho")
    assert short_names(["North-South", "East-West"], 12) == ("North-South", "East-West")
    many = ["Ștefan", "Ștefania", "Ștefana", "Ștefănel", "ȘTEFAN-ION", "Ș"]
    shorts = short_names(many)
    assert len({s.casefold() for s in shorts}) == len(many)
