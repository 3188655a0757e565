"""Player statistics: checked against figures worked out by hand on a fixed set of games."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import pytest

from scorekeeper import rules
from scorekeeper.stats import queries
from scorekeeper.stats.summary import summarise

from .fixed_games import ALL, EXPECTED, GAME_B, GAME_C, GAME_D, ap, record
from .support import figures, import_game, player_id, text


def _score(game: dict[str, Any]) -> rules.GameResult:
    return rules.loads_record(json.dumps(game)).score()


def test_a_sell_out_summary_credits_the_bids_to_the_pitcher_not_the_seller() -> None:
    lines = summarise(_score(GAME_D))
    # Dee bought hand 1 (bid 2, made) and kept hand 2 as seller (bid 3, set back).
    assert (lines["Dee"].bids, lines["Dee"].bids_made, lines["Dee"].bid_total) == (2, 1, 5)
    assert lines["Dee"].set_backs == 1
    assert lines["Bob"].bids == 0  # Bob sold; selling is not taking a bid
    assert lines["Dee"].holes == 1
    assert (lines["Ann"].units, lines["Ann"].money) == (3, Decimal("1.00"))
    assert (lines["Bob"].money, lines["Dee"].money) == (Decimal("-0.33"), Decimal("-0.67"))


def test_a_failed_cinch_contract_is_a_bid_not_made_but_not_a_set_back() -> None:
    lines = summarise(_score(GAME_C))
    assert (lines["Bob"].bids, lines["Bob"].bids_made, lines["Bob"].set_backs) == (1, 0, 0)
    assert lines["Bob"].money is None  # no stake
    assert (lines["Ann"].units, lines["Bob"].units) == (4, -4)
    assert lines["Ann"].team == "Reds" and lines["Ann"].won and not lines["Dee"].won


def test_partners_share_the_side_s_result_but_keep_their_own_bids() -> None:
    lines = summarise(_score(GAME_B))
    assert [lines[p].won for p in ("Ann", "Bob", "Cy", "Dee")] == [False, True, False, True]
    assert [lines[p].holes for p in ("Ann", "Bob", "Cy", "Dee")] == [1, 0, 1, 0]
    assert [lines[p].bids for p in ("Ann", "Bob", "Cy", "Dee")] == [0, 1, 1, 1]
    assert [lines[p].units for p in ("Ann", "Bob", "Cy", "Dee")] == [-4, 4, -4, 4]
    assert lines["Cy"].score == 0 and lines["Dee"].score == 7


def test_an_unfinished_game_counts_its_bids_but_has_no_result() -> None:
    game = record("auction-pitch", ["Bob", "Cy"], [ap("Bob", 2, "Bob", "Bob", "Cy", None)])
    line = summarise(_score(game))["Bob"]
    assert (line.finished, line.won, line.units, line.money) == (False, False, 0, None)
    assert (line.bids, line.bids_made) == (1, 1)


def test_a_dealer_set_when_all_pass_is_the_dealer_s_set_back_but_not_a_bid() -> None:
    # 5-Point Smear (all_pass: dealer-set, lowest bid 2), Ann deals first.
    #  1. Everyone passes: Ann, the dealer, is set back 2 (into the hole); Bob deals next.
    #  2. Everyone passes again: Bob is set back 2.
    #  3. Cy bids 2 and takes High and Low: made, 2.
    smear = rules.RULE_SETS["smear"]
    game = record(
        "auction-pitch",
        ["Ann", "Bob", "Cy"],
        [
            {"passed": True},
            {"passed": True},
            {
                "pitcher": "Cy",
                "bid": 2,
                "points": {"high": "Cy", "low": "Cy", "jack": None, "off_jack": None, "game": None},
            },
        ],
        house_rules=smear.house_rules(),
    )
    lines = summarise(_score(game))
    assert [lines[p].set_backs for p in ("Ann", "Bob", "Cy")] == [1, 1, 0]
    assert [lines[p].bids for p in ("Ann", "Bob", "Cy")] == [0, 0, 1]
    assert [lines[p].holes for p in ("Ann", "Bob", "Cy")] == [1, 1, 0]
    assert [lines[p].score for p in ("Ann", "Bob", "Cy")] == [-2, -2, 2]


def test_the_most_points_after_the_last_hand_is_a_win_like_any_other() -> None:
    # Two hands, no target. 1. Ann 2 takes High and Low (Bob Jack and Game): 2 to 2.
    # 2. Ann 2 takes High, Low and Jack (Bob Game): Ann 5, Bob 3, the most points after
    # hand 2. Bob (3) pays Ann 1 unit.
    game = record(
        "auction-pitch",
        ["Ann", "Bob"],
        [ap("Ann", 2, "Ann", "Ann", "Bob", "Bob"), ap("Ann", 2, "Ann", "Ann", "Ann", "Bob")],
        house_rules={"hands": 2, "target": None},
    )
    result = _score(game)
    assert (result.winner, result.win_reason) == ("Ann", rules.WinReason.MOST_POINTS)
    lines = summarise(result)
    assert (lines["Ann"].finished, lines["Ann"].won, lines["Ann"].units) == (True, True, 1)
    assert (lines["Bob"].won, lines["Bob"].units) == (False, -1)


@pytest.fixture
def played(client: Any, app: Any) -> dict[str, int]:
    """Import the five fixed games through the real import; return the players' ids."""
    for game in ALL:
        import_game(client, game)
    return {name: player_id(app, name) for name in EXPECTED}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_player_totals_add_up_to_the_hand_worked_figures(
    app: Any, played: dict[str, int], name: str
) -> None:
    with app.app_context():
        totals = queries.player_totals(played[name])
    assert {key: getattr(totals, key) for key in EXPECTED[name]} == EXPECTED[name]


def test_the_player_page_shows_the_hand_worked_figures(client: Any, played: dict[str, int]) -> None:
    page = client.get(f"/players/{played['Bob']}").get_data(as_text=True)
    shown = figures(page)
    assert shown["Games played"] == "4"
    assert shown["Won"] == "1"
    assert shown["Win rate"] == "25%"
    assert shown["Bids taken"] == "4"
    assert shown["Bids made"] == "3 (75%)"
    assert shown["Set-backs"] == "0"
    assert shown["Times in the hole"] == "0"
    assert shown["Net units"] == "-2"
    assert shown["Net money"] == "+3.42"
    assert shown["In progress"] == "1"
    ann = figures(client.get(f"/players/{played['Ann']}").get_data(as_text=True))
    assert ann["Smudges made / tried"] == "1 / 1"
    assert ann["Net money"] == "-2.25"


def test_an_average_bid_is_shown_per_variant_never_over_variants_with_other_bids(
    client: Any, played: dict[str, int]
) -> None:
    """Ann bid 4 at Auction Pitch (bids 2 to 4), 7 at Cinch (7 to 14) and 4 at Sell-Out: an
    average over all three (5.00) would mean nothing at either table."""
    html = client.get(f"/players/{played['Ann']}").get_data(as_text=True)
    assert "Average bid" not in figures(html)  # the all-variants figures: counts and rates
    assert figures(html)["Bids taken"] == "3"
    page = text(html)
    by_variant = page.split("By variant", 1)[1].split("Games, newest first", 1)[0]
    assert "Average bid" in by_variant
    assert "Auction Pitch 1 1 100% 1 4.00 " in by_variant
    assert "Auction Pitch (partners) 1 0 0% 0 — " in by_variant
    assert "Cinch (partners) 1 1 100% 1 7.00 " in by_variant
    assert "Sell-Out 1 1 100% 1 4.00 " in by_variant
    bob = text(client.get(f"/players/{played['Bob']}").get_data(as_text=True))
    assert "Auction Pitch 1 0 0% 2 2.50 " in bob  # (2 + 3) / 2
    assert "Cinch (partners) 1 0 0% 1 9.00 " in bob


def test_the_player_page_breaks_results_down_by_variant_and_partnership(
    client: Any, played: dict[str, int]
) -> None:
    page = text(client.get(f"/players/{played['Ann']}").get_data(as_text=True))
    by_variant = page.split("By variant", 1)[1].split("Games, newest first", 1)[0]
    assert "Auction Pitch 1 1 100%" in by_variant  # game A, individual
    assert "Auction Pitch (partners) 1 0 0%" in by_variant  # game B
    assert "Cinch (partners) 1 1 100%" in by_variant
    assert "Sell-Out 1 1 100%" in by_variant


def test_the_player_page_lists_the_games_newest_first_with_who_else_played(
    client: Any, played: dict[str, int]
) -> None:
    page = client.get(f"/players/{played['Cy']}").get_data(as_text=True)
    listed = [int(n) for n in re.findall(r'<td><a href="/games/(\d+)">', page)]
    assert listed == [5, 3, 2, 1]  # Cy sat at A, B, C and E; the newest first
    games = text(page).split("Games, newest first", 1)[1]
    assert "Bob in progress" in games
    assert "Cinch (Reds) Ann, Bob, Dee won" in games


def test_the_roster_lists_every_player_with_a_link_to_their_page(
    client: Any, played: dict[str, int]
) -> None:
    page = client.get("/players").get_data(as_text=True)
    for name, pid in played.items():
        assert f'<a href="/players/{pid}"><bdi>{name}</bdi></a>' in page
    assert "Ann 4 3 75% +6 -2.25" in text(page)
    assert "Bob 4 +1 1 25% -2 +3.42" in text(page)  # 4 finished, 1 in progress


def test_the_roster_sorts_by_win_rate_and_by_money(client: Any, played: dict[str, int]) -> None:
    by_rate = text(client.get("/players?sort=rate").get_data(as_text=True))
    order = [n for n in re.findall(r"\b(Ann|Bob|Cy|Dee)\b \d", by_rate)]
    assert order[0] == "Ann"  # 75%; then Cy and Dee (33%) before Bob (25%)
    assert order[-1] == "Bob"
    by_money = text(client.get("/players?sort=money").get_data(as_text=True))
    assert [n for n in re.findall(r"\b(Ann|Bob|Cy|Dee)\b \d", by_money)] == [
        "Bob",
        "Dee",
        "Ann",
        "Cy",
    ]


def test_the_results_chart_runs_through_every_finished_game(
    client: Any, played: dict[str, int]
) -> None:
    page = client.get(f"/players/{played['Dee']}").get_data(as_text=True)
    chart = re.search(r'<svg[^>]*class="chart".*?</svg>', page, flags=re.S)
    assert chart is not None
    points = re.search(r'class="total" points="([^"]+)"', chart.group(0))
    assert points is not None and len(points.group(1).split()) == 4  # the start and 3 games
    assert "3.33" in chart.group(0)  # Dee's net money, at the end of the line


def test_a_player_s_games_come_in_pages(client: Any, app: Any) -> None:
    game = record("auction-pitch", ["Ann", "Bob"], [ap("Ann", 2, "Ann", "Ann", None, None)])
    ids = [import_game(client, game) for _ in range(27)]
    ann = player_id(app, "Ann")
    first = client.get(f"/players/{ann}").get_data(as_text=True)
    second = client.get(f"/players/{ann}?page=2").get_data(as_text=True)
    assert "Page 1 of 2" in text(first) and "Page 2 of 2" in text(second)
    on_second = [int(n) for n in re.findall(r'<td><a href="/games/(\d+)">', second)]
    assert on_second == [ids[1], ids[0]]
    assert client.get(f"/players/{ann}?page=3").status_code == 404


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/players?page=0", 400, "pages are numbered 1, 2, 3"),
        ("/players?page=abc", 400, "pages are numbered 1, 2, 3"),
        ("/players?page=2", 404, "There is no page 2 of the roster"),
        ("/players?sort=height", 400, "cannot be sorted by 'height'"),
        ("/players/9999", 404, "There is no player number 9999"),
    ],
)
def test_a_bad_roster_address_gets_a_clear_message(
    client: Any, url: str, status: int, message: str
) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert message in text(response.get_data(as_text=True))


def test_money_too_large_for_a_sql_sum_is_still_added_exactly(client: Any, app: Any) -> None:
    stake = "12345678901234567890123.456"
    won = record(
        "auction-pitch", ["Ann", "Bob"], [ap("Ann", 4, "Ann", "Ann", "Ann", "Ann")], stake=stake
    )
    import_game(client, won)
    import_game(client, GAME_B)  # Ann loses 4 units at 1 a unit
    with app.app_context():
        totals = queries.player_totals(player_id(app, "Ann"))
    # Bob (0 points) pays 2 units: 24691357802469135780246.912 -> .91 to the cent.
    assert totals.money == Decimal("24691357802469135780246.91") - Decimal("4.00")
