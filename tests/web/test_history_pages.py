"""The history's pages: the pager's links start each page from a game, and old links still work."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from scorekeeper.data import models
from scorekeeper.data.database import write_transaction
from scorekeeper.data.extensions import db

from .tables import ap_hand, import_game, record

PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.fixture(autouse=True)
def small_pages(app: Any) -> None:
    app.config.update(HISTORY_PAGE_SIZE=3)


def add_game(client: Any, players: list[str] = PLAYERS) -> int:
    return import_game(
        client, record("auction-pitch", players, [ap_hand(players[0], 2, *players[:2], None, None)])
    )


def dated(app: Any, moments: dict[int, datetime]) -> None:
    """Give games their start times (games are dated when they are stored)."""
    with app.app_context(), write_transaction():
        for game_id, moment in moments.items():
            db.session.execute(
                update(models.Game).where(models.Game.id == game_id).values(created_at=moment)
            )


def visit(client: Any, url: str) -> tuple[list[int], dict[str, str]]:
    """The game numbers a history page lists, in order, and its pager's links by rel."""
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:800]
    page = response.get_data(as_text=True)
    games = [int(n) for n in re.findall(r'<span class="muted">#(\d+)</span>', page)]
    links = {
        rel: html.unescape(href)
        for rel, href in re.findall(r'<a class="button" rel="(prev|next)" href="([^"]+)"', page)
    }
    return games, links


def walk(client: Any, url: str, rel: str) -> list[list[int]]:
    """Follow the pager's ``next`` (older) or ``prev`` (newer) links to the end; list each page."""
    pages = []
    while True:
        games, links = visit(client, url)
        pages.append(games)
        if rel not in links:
            return pages
        url = links[rel]


@pytest.fixture
def eight_games(app: Any, client: Any) -> list[int]:
    """Eight games, newest first; games 2, 3 and 4 (by age) started at the same moment."""
    ids = [add_game(client) for _ in range(8)]
    start = datetime(2026, 3, 14, 20, 0)
    moments = {game_id: start + timedelta(minutes=10 * i) for i, game_id in enumerate(ids)}
    for game_id in ids[1:4]:
        moments[game_id] = start + timedelta(minutes=10)
    dated(app, moments)
    return sorted(ids, key=lambda g: (moments[g], g), reverse=True)


def test_the_older_links_list_every_game_once_newest_first_and_the_newer_links_come_back(
    client: Any, eight_games: list[int]
) -> None:
    older = walk(client, "/history", "next")
    assert older == [eight_games[0:3], eight_games[3:6], eight_games[6:8]]
    _, links = visit(client, "/history?page=3")
    back = walk(client, links["prev"], "prev")
    assert back == [eight_games[3:6], eight_games[0:3]]


def test_the_links_start_from_a_game_and_keep_the_filters(
    client: Any, eight_games: list[int]
) -> None:
    games, links = visit(client, "/history?player=Ann&status=playing")
    assert games == eight_games[0:3]
    assert links == {"next": f"/history?page=2&before={eight_games[2]}&player=Ann&status=playing"}
    games, links = visit(client, links["next"])
    assert games == eight_games[3:6]
    assert links["prev"] == f"/history?page=1&after={eight_games[3]}&player=Ann&status=playing"
    assert visit(client, "/history?player=Ann&status=finished")[0] == []  # none is finished


def test_a_game_saved_meanwhile_pushes_no_game_onto_the_next_page_twice(
    app: Any, client: Any, eight_games: list[int]
) -> None:
    first, links = visit(client, "/history")
    newest = add_game(client)  # saved now, so newer than all eight
    second, _ = visit(client, links["next"])
    assert second == eight_games[3:6]
    # A link with only a page number counts: the new game moves every game one place on.
    assert visit(client, "/history?page=2")[0] == [eight_games[2], *eight_games[3:5]]
    assert newest not in first + second


def test_newer_from_near_the_top_shows_the_newest_page(client: Any, eight_games: list[int]) -> None:
    _, links = visit(client, "/history?page=2&before=" + str(eight_games[1]))
    games, _ = visit(client, links["prev"])  # only one game is newer: the first page instead
    assert games == eight_games[0:3]


def test_old_page_links_and_links_from_a_deleted_game_still_show_their_page(
    app: Any, client: Any, eight_games: list[int]
) -> None:
    assert visit(client, "/history?page=2")[0] == eight_games[3:6]
    assert visit(client, "/history?page=7")[0] == eight_games[6:8]  # past the end: the last
    gone = eight_games[2]
    with app.app_context(), write_transaction():
        db.session.delete(db.session.get(models.Game, gone))
    games, _ = visit(client, f"/history?page=2&before={gone}")
    assert games == eight_games[4:7]  # page 2 of the seven games left


@pytest.mark.parametrize("query", ["?before=abc", "?after=-3", "?before=", "?after=1e3"])
def test_a_link_that_names_no_game_gets_a_clear_message(
    client: Any, eight_games: list[int], query: str
) -> None:
    response = client.get("/history" + query)
    assert response.status_code == 400
    assert "is not a game number" in response.get_data(as_text=True)
