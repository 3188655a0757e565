"""The server-drawn SVG charts: well-formed, escaped, and showing what they say they show."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal
from typing import Any

from scorekeeper.sheets import charts

from .fixed_games import GAME_A
from .support import import_game

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_the_progression_chart_draws_a_line_per_side_the_target_and_the_winning_hand() -> None:
    svg = charts.progression_chart(
        ["Ann", "Bob", "Cy"],
        [(1, 3, 0), (3, 4, -2), (7, 4, -2)],
        7,
        winner="Ann",
        winning_hand=3,
    )
    root = parse(svg)
    lines = root.findall(f"{SVG}polyline")
    assert [line.get("data-side") for line in lines] == ["Ann", "Bob", "Cy"]
    assert all(len(line.get("points", "").split()) == 4 for line in lines)  # 0 then 3 hands
    assert len({line.get("stroke") for line in lines}) == 3
    assert len({line.get("stroke-dasharray") for line in lines}) == 3  # apart in black and white
    assert root.find(f"{SVG}line[@class='target']") is not None
    assert root.find(f"{SVG}line[@class='winning-hand']") is not None
    assert "won, hand 3" in svg and "target 7" in svg and "in the hole" in svg
    assert "Ann won at hand 3" in root.findtext(f"{SVG}desc", "")


def test_the_target_line_sits_where_a_score_of_the_target_is_drawn() -> None:
    root = parse(charts.progression_chart(["A", "B"], [(7, 0)], 7, winner="A", winning_hand=1))
    target = root.find(f"{SVG}line[@class='target']")
    a_line = root.find(f"{SVG}polyline[@data-side='A']")
    assert target is not None and a_line is not None
    end_y = a_line.get("points", "").split()[-1].split(",")[1]
    assert target.get("y1") == end_y


def test_names_in_a_chart_are_escaped() -> None:
    name = '<script>alert("x")</script> & Co'
    svg = charts.progression_chart([name, "Bob"], [(2, 1)], 7)
    assert "<script>" not in svg
    root = parse(svg)
    assert root.find(f"{SVG}polyline").get("data-side") == name
    results = charts.results_chart(["<b>", "&"], [1, -2], chart_id='"x')
    assert "<b>" not in results
    parse(results)


def test_the_results_chart_shows_the_running_total_and_ends_at_the_net_result() -> None:
    svg = charts.results_chart(
        ["2026-01-02", "2026-01-09", "2026-01-16"],
        [Decimal("0.75"), Decimal("-4.00"), Decimal("1.00")],
        unit="money",
    )
    root = parse(svg)
    points = root.find(f"{SVG}polyline").get("points", "").split()
    assert len(points) == 4  # the start, then each game
    assert "-2.25" in svg
    assert "over 3 finished games: -2.25 at the end" in root.findtext(f"{SVG}desc", "")


def test_a_long_history_is_thinned_but_keeps_its_last_game() -> None:
    changes = [1 if i % 3 else -1 for i in range(5000)]
    svg = charts.results_chart(["start", "end"], changes, most_points=300)
    points = parse(svg).find(f"{SVG}polyline").get("points", "").split()
    assert len(points) <= 301
    assert f"{sum(changes):,}" in svg  # the net result, written as English writes numbers


def test_the_charts_module_imports_only_the_standard_library() -> None:
    code = (
        "import sys; import scorekeeper.sheets.charts; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'flask', 'sqlalchemy', 'markupsafe', 'jinja2', 'weasyprint'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_game_page_shows_the_progression_chart(client: Any) -> None:
    game = import_game(client, GAME_A)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    svg = re.search(r"<svg.*?</svg>", page, flags=re.S)
    assert svg is not None
    root = parse(svg.group(0))
    assert [p.get("data-side") for p in root.findall(f"{SVG}polyline")] == ["Ann", "Bob", "Cy"]
    assert "won, hand 3" in svg.group(0)
