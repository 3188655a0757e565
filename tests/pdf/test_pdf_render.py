"""How printing is made fast (scorekeeper.pdf.render, history): it prints the same, for less."""

from __future__ import annotations

import io
from typing import Any

from pypdf import PdfReader

from scorekeeper import operations, rules
from scorekeeper.pdf import history, render
from scorekeeper.pdf import printed_sheet as sheet
from scorekeeper.sheets.model import game_snapshot

from .games import eventful_game, pdf_pages, play_out, store


def test_the_lean_user_agent_stylesheet_leaves_out_only_the_rules_for_every_element() -> None:
    from weasyprint.html import UA

    lean = render.lean_user_agent_css(UA)

    removed = [line for line in UA.splitlines() if line not in lean.splitlines()]
    assert removed, "WeasyPrint's stylesheet has no rule for every element's pseudo-elements"
    assert all(line.startswith("::") for line in removed)
    assert "li::marker {" in lean and "\n::" not in lean
    assert sum(1 for line in lean.splitlines() if line not in UA.splitlines()) == 1  # li::marker


def test_a_sheet_laid_out_the_lean_way_reads_as_with_weasyprint_as_it_comes(app: Any) -> None:
    from weasyprint import HTML

    from scorekeeper.pdf.fetcher import StaticFilesOnly

    game, hands = eventful_game()
    game_id = store(app, game, hands)
    with app.app_context():
        html = sheet.sheet_html(game_snapshot(operations.loading.load(game_id)), paper="letter")
    static = app.static_folder

    lean = render.write_pdf(html, static)
    plain = HTML(
        string=html, base_url=render.BASE_URL, url_fetcher=StaticFilesOnly(static)
    ).write_pdf(stylesheets=[render.print_stylesheet(static)], presentational_hints=False)

    assert lean.pages == len(PdfReader(io.BytesIO(plain)).pages) == 1
    assert pdf_pages(lean.pdf) == pdf_pages(plain)
    assert lean.anchors[sheet.sheet_anchor(game_id)] == 0


def test_a_history_is_cut_in_order_into_parts_that_take_about_as_long(app: Any) -> None:
    game_ids = []
    for variant, players in [("auction-pitch", ["Ann", "Bob", "Cy"]), ("pedro", ["Cy", "Dee"])] * 6:
        game_ids.append(store(app, *play_out(variant, players)))
    # One long game: 60 hands, played to 200 with no smudge.
    long_game = rules.Game.create(
        "auction-pitch", ["Ann", "Bob", "Cy", "Dee"], house_rules={"target": 200, "smudge": "off"}
    )
    hands = [
        rules.Hand(pitcher=p, bid=2, points={"high": p, "low": p, "jack": None, "game": p})
        for p in ["Bob", "Cy", "Dee", "Ann"] * 15
    ]
    game_ids.insert(5, store(app, long_game, hands))
    with app.app_context():
        views = [v for v in history.load_views(game_ids) if isinstance(v, history.GameView)]
    assert len(views) == 13 and max(len(v.rows) for v in views) == 60

    groups = history.batches(views, workers=2)

    assert [view for group in groups for view in group] == views  # every sheet, in order
    assert len(groups) >= 4  # at least two parts for each worker
    costs = [sum(history.sheet_cost(v) for v in group) for group in groups]
    longest = max(history.sheet_cost(v) for v in views)
    # No part is longer than its share by more than its longest sheet (a sheet is not cut).
    assert max(costs) <= sum(costs) / len(groups) + longest


#: A part of a history: two pages, numbered only once the whole is put together.
PART = '<body class="in-bundle"><h1>Part {}</h1><p style="break-before: page">two</p></body>'


def test_merging_stamps_each_page_with_its_number_and_keeps_its_content_compressed(
    app: Any,
) -> None:
    static = app.static_folder
    with app.app_context():
        parts = [render.write_pdf(PART.format(i), static) for i in (1, 2)]
        numbers = render.write_pdf(
            sheet.render_printed(
                "pdf/page_numbers.html", **sheet.document_context("letter"), pages=4
            ),
            static,
        )

    merged = render.merge([p.pdf for p in parts], numbers=numbers.pdf, title="Two parts")

    pages = pdf_pages(merged)
    assert len(pages) == 4
    expected_starts = ["Part 1", "two", "Part 2", "two"]
    for number, (text, expected) in enumerate(zip(pages, expected_starts, strict=True), 1):
        assert text.startswith(expected)
        assert text.count("page ") == 1 and f"page {number} of 4" in text
    # Each stamp is drawn over its page (a form the page calls at its end); the page's own
    # content stays as WeasyPrint compressed it, not rewritten uncompressed with the stamp.
    reader = PdfReader(io.BytesIO(merged))
    for page in reader.pages:
        assert render.STAMP in page["/Resources"]["/XObject"]
        assert page["/Contents"].get_object()["/Filter"] == "/FlateDecode"
    assert reader.metadata is not None and reader.metadata["/Title"] == "Two parts"
