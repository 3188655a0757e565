"""A game's replay is kept between requests (operations.loading.Replays), and is never stale.

Recording a hand is a POST and then the game page; each used to read every hand and
replay the game. The replay is now kept by game id, creation time and version, so the
page after a hand reads no hand rows; these tests count the statements that do, and
check that every kind of change still shows at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from .tables import ap_hand, import_game, post_ap_hand, record, text, version_of

PAIR = ["Ann", "Bob"]


def takes_all(name: str, bid: int) -> dict[str, Any]:
    """A hand where the pitcher takes every point."""
    return ap_hand(name, bid, name, name, name, name)


@contextmanager
def hand_reads(app: Any) -> Iterator[list[str]]:
    """Collect the statements that read hands' plays (not the duplicate-form check)."""
    from scorekeeper.data.extensions import db

    found: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "hand.pitcher_seat" in statement and statement.lstrip().upper().startswith("SELECT"):
            found.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield found
    finally:
        event.remove(engine, "before_cursor_execute", seen)


def test_the_page_after_a_hand_reads_no_hand_rows(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, [takes_all("Ann", 2)]))
    client.get(f"/games/{game_id}")  # the page the phone shows before the hand

    with hand_reads(app) as reads:
        response = post_ap_hand(client, game_id, PAIR, "Bob", 3, "Bob", "Bob", "Ann", "Bob")
        assert response.status_code == 302
        page = client.get(f"/games/{game_id}").get_data(as_text=True)

    assert reads == []
    assert "Bob made 3." in text(page)
    assert "Ann deals hand 3" in text(page)


def test_a_fresh_process_still_reads_and_replays(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, [takes_all("Ann", 2)]))
    app.extensions.pop("scorekeeper.replays", None)  # as a server just started

    with hand_reads(app) as reads:
        page = client.get(f"/games/{game_id}").get_data(as_text=True)
        again = client.get(f"/games/{game_id}").get_data(as_text=True)

    assert len(reads) == 1  # the first page reads the hands; the second reuses them
    assert "Bob deals hand 2" in text(page)
    assert text(again) == text(page)


def test_a_game_that_reuses_a_deleted_games_id_is_not_taken_for_it(
    client: Any, app: Any, database_url: str
) -> None:
    first = import_game(client, record("auction-pitch", PAIR, [takes_all("Ann", 2)]))
    assert "Ann 4 Bob 0" in text(client.get(f"/games/{first}").get_data(as_text=True))
    deleted = client.post(f"/games/{first}/delete", data={"version": version_of(client, first)})
    assert deleted.status_code == 302

    # Same number of hands, so the same version; other players and another score.
    second = import_game(client, record("auction-pitch", ["Cy", "Dee"], [takes_all("Dee", 3)]))
    if database_url.startswith("sqlite"):
        assert second == first  # SQLite hands the freed id out again
    page = text(client.get(f"/games/{second}").get_data(as_text=True))
    assert "Cy 0 Dee 4" in page and "Ann" not in page


def test_corrections_and_renames_show_at_once(client: Any, app: Any) -> None:
    hands = [takes_all("Ann", 2), takes_all("Bob", 2)]
    game_id = import_game(client, record("auction-pitch", PAIR, hands))
    client.get(f"/games/{game_id}")

    undone = client.post(
        f"/games/{game_id}/undo",
        data={"version": version_of(client, game_id), "number": str(len(hands))},
    )
    assert undone.status_code == 302
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Bob deals hand 2" in page and "Undo hand 1" in page

    from scorekeeper.data import models
    from scorekeeper.data.extensions import db

    with app.app_context():
        bob = db.session.execute(
            db.select(models.Player.id).where(models.Player.name == "Bob")
        ).scalar_one()
    renamed = client.post(f"/players/{bob}/rename", data={"rename-name": "Robert"})
    assert renamed.status_code == 302
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Robert deals hand 2" in page and "Ann 4 Robert 0" in page
    assert "Bob deals" not in page
