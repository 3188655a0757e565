"""The printed score sheet: read back from the PDF, every fact the table needs is on it."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import operations, rules
from scorekeeper.pdf.printed_sheet import superscript

from .games import (
    MINUS,
    eventful_game,
    ink_on_page,
    pdf_pages,
    play_out,
    result_of,
    row_line,
    score_words,
    store,
)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NUMBER = re.compile(rf"(?<!\S){MINUS}?\d+(?!\S)")


def sheet(client: Any, game_id: int, query: str = "") -> bytes:
    response = client.get(f"/games/{game_id}/sheet.pdf{query}")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    data: bytes = response.data
    return data


def test_a_sheet_shows_the_players_every_running_score_the_winner_and_the_settlement(
    app: Any, client: Any
) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    result = result_of(app, game_id)
    (text,) = pdf_pages(sheet(client, game_id))

    assert "1 Ann (dealt first) · 2 Bob · 3 Cy · 4 Dee" in text
    for scored in result.hands:
        numbers = NUMBER.findall(row_line(text, scored.number, scored.dealer))
        running = [score_words(scored.scores[side]) for side in result.sides]
        assert numbers[-len(running) :] == running, (scored.number, numbers)
    assert f"{result.winner} won by a smudge at hand {result.winning_hand}" in text
    assert result.settlement is not None
    for payment in result.settlement.payments:
        assert f"{payment.payer} {payment.payee} {payment.units} {payment.amount:.2f}" in text


def test_a_set_back_is_marked_and_a_score_in_the_hole_is_ringed(app: Any, client: Any) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    (text,) = pdf_pages(sheet(client, game_id))
    result = result_of(app, game_id)
    set_back = next(h for h in result.hands if h.set_back)
    row = row_line(text, set_back.number, set_back.dealer)
    assert "SET" in row
    assert f"{MINUS}{set_back.bid}" in row
    # The bid is written small beside the pitcher: in superscript digits.
    assert f"{set_back.pitcher}{superscript(set_back.bid)}" in row
    assert "Hand 2 Nobody liked their cards" in text  # the note, listed under the table


def test_a_long_game_fills_as_few_pages_as_it_can_numbers_them_and_repeats_the_headers(
    app: Any, client: Any
) -> None:
    game = rules.Game.create("auction-pitch", PLAYERS, house_rules={"target": 200})
    with app.app_context():
        game_id = operations.games.create_game(game)
        for number in range(1, 61):
            dealer = operations.loading.load(game_id).result.next_dealer or ""
            pitcher = game.left_of(dealer)
            other = game.left_of(pitcher)
            points = (
                {"high": other, "low": other, "jack": None, "game": pitcher}
                if number % 5 == 0
                else {"high": pitcher, "low": pitcher, "jack": other, "game": dealer}
            )
            operations.hands.record_hand(
                game_id, rules.Hand(pitcher=pitcher, bid=2, points=points), version=None
            )
        result = operations.loading.load(game_id).result
    assert len(result.hands) == 60 and not result.finished

    pages = pdf_pages(sheet(client, game_id))

    # A paper sheet holds 40-odd ruled hands a page: 60 hands take two pages, not more.
    assert len(pages) == 2
    for index, text in enumerate(pages, start=1):
        assert f"page {index} of {len(pages)}" in text
        assert "# Dealer Pitcher bid Ann Bob Cy Dee" in text  # the column headers, every page
    rows_on = [
        sum(1 for h in result.hands if re.search(rf"^{h.number} {h.dealer} ", text, re.M))
        for text in pages
    ]
    assert sum(rows_on) == 60 and rows_on[0] >= 40
    last = result.hands[-1]
    assert [score_words(last.scores[s]) for s in result.sides] == NUMBER.findall(
        row_line(pages[-1], last.number, last.dealer)
    )[-4:]
    assert f"{result.next_dealer} deals hand 61" in " ".join(pages[-1].split())


def test_names_with_accents_apostrophes_emoji_and_markup_print_as_text(
    app: Any, client: Any
) -> None:
    names = ["Zoë Łukasz", "Seán O'Brien", "Ace 🂡 😀", "<script>alert(1)</script>"]
    game, hands = play_out("auction-pitch", names, stake="1")
    first = hands[0]
    hands[0] = rules.Hand(
        pitcher=first.pitcher,
        bid=first.bid,
        points=first.points,
        note='<img src="file:///etc/passwd"> & <b>bold</b>',
    )
    game_id = store(app, game, hands)
    data = sheet(client, game_id)
    (text,) = pdf_pages(data)

    assert " · ".join(f"{i} {n}" for i, n in enumerate(names, start=1)) in text.replace(
        " (dealt first)", ""
    )
    assert '<img src="file:///etc/passwd"> & <b>bold</b>' in text
    assert "Final scores" in text and "<script>alert(1)</script>: 4" in text
    # The note's <img> was text, not an image: the PDF holds no image at all.
    assert b"/Subtype /Image" not in data


def test_a_partnership_sheet_names_the_teams_and_who_plays_in_each(app: Any, client: Any) -> None:
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    game, hands = play_out("auction-pitch", PLAYERS, teams=teams, stake="0.50")
    game_id = store(app, game, hands)
    result = result_of(app, game_id)
    (text,) = pdf_pages(sheet(client, game_id))

    assert "Teams Us: Ann & Cy; Them: Bob & Dee" in text
    assert f"{result.winner} won" in text
    assert result.settlement is not None and result.settlement.payments
    for payment in result.settlement.payments:  # every loser pays every winner
        assert f"{payment.payer} {payment.payee} {payment.units} {payment.amount:.2f}" in text


def test_a_sell_out_sheet_shows_who_sold_who_kept_and_who_pitched(app: Any, client: Any) -> None:
    record = (EXAMPLES / "sellout-sold-kept-passed-pitched.json").read_text()
    with app.app_context():
        game_id = operations.games.import_record(rules.loads_record(record))
        result = operations.loading.load(game_id).result
    (text,) = pdf_pages(sheet(client, game_id))

    sold, kept, passed, pitched = result.hands
    # The sale is written small under the pitcher, so it reads as the next line.
    assert f"{row_line(text, 1, sold.dealer)}\nbought from {sold.seller}" in text
    assert f"{row_line(text, 2, kept.dealer)}\nkept; {kept.hand.high_bidder} bid" in text
    assert f"{row_line(text, 4, pitched.dealer)}\npitched" in text
    assert f"+{sold.bid} sale" in text and f"+{kept.bid} sale" in text
    assert "passed out" in row_line(text, passed.number, passed.dealer)
    assert f"{result.winner} won" in text


def test_a_cinch_sheet_marks_a_failed_contract_without_setting_anyone_back(
    app: Any, client: Any
) -> None:
    record = (EXAMPLES / "cinch-rule-book-examples.json").read_text()
    with app.app_context():
        game_id = operations.games.import_record(rules.loads_record(record))
        result = operations.loading.load(game_id).result
    (text,) = pdf_pages(sheet(client, game_id))

    failed = next(h for h in result.hands if h.made is False)
    row = row_line(text, failed.number, failed.dealer)
    assert "failed" in row and "SET" not in row
    running = [score_words(failed.scores[side]) for side in result.sides]
    assert NUMBER.findall(row)[-len(running) :] == running


@pytest.mark.parametrize("variant", list(rules.VARIANTS))
def test_every_variant_prints_its_sheet_to_the_end(app: Any, client: Any, variant: str) -> None:
    cinch = rules.VARIANTS[variant].teams_required
    teams = {"North": ["Ann", "Cy"], "South": ["Bob", "Dee"]} if cinch else None
    game, hands = play_out(variant, PLAYERS if cinch else PLAYERS[:3], teams=teams)
    game_id = store(app, game, hands)
    result = result_of(app, game_id)
    text = "\n".join(pdf_pages(sheet(client, game_id)))

    assert game.variant.name in text
    for scored in result.hands:
        row_line(text, scored.number, scored.dealer)
    finals = " ".join(f"{side}: {score_words(result.scores[side])}" for side in result.sides)
    assert finals in " ".join(text.split())
    assert f"{result.winner} won" in text
    assert result.settlement is not None
    for payment in result.settlement.payments:
        assert f"{payment.payer} {payment.payee} {payment.units}" in text


def test_an_unfinished_game_prints_the_scores_so_far_and_who_deals_next(
    app: Any, client: Any
) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands[:3])
    result = result_of(app, game_id)
    (text,) = pdf_pages(sheet(client, game_id))
    assert "Not finished" in text
    assert f"{result.next_dealer} deals hand 4" in " ".join(text.split())


def test_a_sheet_is_on_us_letter_unless_a4_is_asked_for_or_set(app: Any, client: Any) -> None:
    import io

    from pypdf import PdfReader

    game, hands = eventful_game()
    game_id = store(app, game, hands)

    def size(data: bytes) -> tuple[int, int]:
        box = PdfReader(io.BytesIO(data)).pages[0].mediabox
        return round(float(box.width)), round(float(box.height))

    assert size(sheet(client, game_id)) == (612, 792)  # 8.5 x 11 in
    assert size(sheet(client, game_id, "?paper=a4")) == (595, 842)  # 210 x 297 mm
    app.config["PDF_PAPER"] = "a4"
    assert size(sheet(client, game_id)) == (595, 842)
    assert size(sheet(client, game_id, "?paper=letter")) == (612, 792)


def test_an_unknown_paper_or_game_gets_a_clear_message(app: Any, client: Any) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    response = client.get(f"/games/{game_id}/sheet.pdf?paper=legal")
    assert response.status_code == 400
    assert "is not a paper size we print on" in response.get_data(as_text=True)
    response = client.get(f"/games/{game_id + 1}/sheet.pdf")
    assert response.status_code == 404
    assert f"There is no game number {game_id + 1}" in response.get_data(as_text=True)


def test_the_game_page_links_to_its_printed_sheet(app: Any, client: Any) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/sheet.pdf"' in page


def test_a_sheet_turns_into_a_picture_of_a_letter_page_with_pdftoppm(
    app: Any, client: Any, tmp_path: Path
) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    (tmp_path / "sheet.pdf").write_bytes(sheet(client, game_id))

    size, ink = ink_on_page(tmp_path / "sheet.pdf", 1, dpi=50)

    assert size == (425, 550)  # 8.5 x 11 in at 50 dpi
    # Mostly white paper, with real ink on it (the header, the ruled rows, the chart).
    assert 0.01 < ink < 0.5


def test_a_game_played_at_a_game_night_names_the_night_and_the_place(app: Any, client: Any) -> None:
    from datetime import date

    from scorekeeper.operations.nights import start_night

    with app.app_context():
        night = start_night("Friday cards", "Seán's kitchen", date(2026, 3, 13))
        game_id = operations.games.create_game(
            rules.Game.create("auction-pitch", PLAYERS[:3]), night_id=night
        )
    (text,) = pdf_pages(sheet(client, game_id))
    assert "Night Friday cards · Seán's kitchen" in text


def fonts_of(data: bytes) -> set[str]:
    """The fonts a PDF embeds, by name without the subset's tag (``ABCDEF+``)."""
    from pypdf import PdfReader

    found: set[str] = set()

    def walk(resources: Any) -> None:
        resources = resources.get_object() if resources is not None else {}
        for font in resources.get("/Font", {}).values():
            found.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+")[-1])
        for xobject in resources.get("/XObject", {}).values():
            walk(xobject.get_object().get("/Resources"))

    for page in PdfReader(io.BytesIO(data)).pages:
        walk(page.get("/Resources"))
    return found


def test_a_sheet_and_its_chart_are_set_in_one_family_in_two_weights(app: Any, client: Any) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    data = sheet(client, game_id)

    (text,) = pdf_pages(data)
    assert "Score progression" in text and "target 7" in text  # the chart is drawn
    assert fonts_of(data) == {"DejaVu-Sans-Semi-Condensed", "DejaVu-Sans-Bold-Semi-Condensed"}


def test_the_printed_chart_draws_the_same_lines_as_the_pages_with_fewer_elements() -> None:
    from scorekeeper.sheets import charts

    scores = [(3 * i, -i, i // 2) for i in range(1, 8)]  # Ann ends on 21 at hand 7
    args = (["Ann", "Bob", "Cy"], scores, 21)
    kwargs: dict[str, Any] = {"winner": "Ann", "winning_hand": 7}
    full = charts.progression_chart(*args, **kwargs)
    compact = charts.progression_chart(*args, **kwargs, compact=True, font_family="DejaVu Sans")

    def lines(svg: str) -> list[str]:
        return re.findall(r'<polyline class="side" data-side="([^"]+)" points="([^"]+)"', svg)

    assert lines(compact) == lines(full) and len(lines(compact)) == 3
    for words in ("target 21", "won, hand 7", "in the hole", "Ann 21", "Bob -7", "Cy 3"):
        assert words in full and words in compact
    # Fewer tick labels (text is what costs most to lay out), the grid as paths, no tooltips.
    assert compact.count("<text") <= full.count("<text") - 5
    assert "<line x1" not in compact and "</title></polyline>" not in compact
    assert 'font-family="DejaVu Sans"' in compact


def test_a_ten_point_sheet_writes_the_new_points_marks_and_the_house_shape(
    app: Any, client: Any
) -> None:
    record = rules.loads_record((EXAMPLES / "ten-point-moon.json").read_bytes())
    game = rules.Game.create(
        "ten-point",
        record.game.players,
        teams={"North-South": ["Ann", "Cy"], "East-West": ["Bob", "Dee"]},
        house_rules={"min_bid": 5, "smudge_failed": "loses"},
    )
    game_id = store(app, game, record.hands)
    text = " ".join("\n".join(pdf_pages(sheet(client, game_id))).split())
    assert "OJ Off-Jack · BJ Big Joker · LJ Little Joker · 3 Three · G Game" in text
    assert "bids from 5 (not 4); a failed smudge loses the game at once" in text
    # Hand 1: East-West took High, Jack, the Off-Jack, the little Joker, the Three and Game.
    row = row_line("\n".join(pdf_pages(sheet(client, game_id))), 1, "Ann")
    assert row.split() == ["1", "Ann", "Bob⁵", "L", "BJ", "2", "H", "J", "OJ", "LJ", "3", "G", "8"]
