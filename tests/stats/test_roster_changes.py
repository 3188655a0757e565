"""Renaming a player and merging two spellings of one person: no game or statistic is lost."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlalchemy import func, select

from scorekeeper.data import models
from scorekeeper.data.extensions import db
from scorekeeper.stats import queries

from .fixed_games import ALL, GAME_A, ap, record
from .support import (
    TOTALS,
    ap_form,
    cache_and_replay,
    flashes,
    import_game,
    player_id,
    text,
    version_of,
)


def totals(app: Any, name: str) -> dict[str, Any]:
    with app.app_context():
        found = asdict(queries.player_totals(player_id(app, name)))
        db.session.remove()
    return found


def game_ids_of(app: Any, name: str) -> list[int]:
    with app.app_context():
        ids = (
            db.session.execute(
                select(models.Seat.game_id)
                .join(models.Player)
                .where(models.Player.name == name)
                .order_by(models.Seat.game_id)
            )
            .scalars()
            .all()
        )
        db.session.remove()
    return list(ids)


def rename(client: Any, pid: int, name: str) -> Any:
    return client.post(f"/players/{pid}/rename", data={"rename-name": name})


def merge(client: Any, keep: int, other: int, confirm: bool = True) -> Any:
    data = {"merge-other": str(other)}
    if confirm:
        data["merge-confirm"] = "y"
    return client.post(f"/players/{keep}/merge", data=data)


def test_a_renamed_player_keeps_every_game_and_statistic(client: Any, app: Any) -> None:
    for game in ALL:
        import_game(client, game)
    before, games = totals(app, "Ann"), game_ids_of(app, "Ann")
    ann = player_id(app, "Ann")
    response = rename(client, ann, "Annie")
    assert response.status_code == 302
    assert "Ann is now called Annie in every game." in flashes(
        client.get(response.headers["Location"]).get_data(as_text=True)
    )
    assert totals(app, "Annie") == before
    assert game_ids_of(app, "Annie") == games
    # Game 1 was won by Ann in individual play: its winner is the new name; the
    # score sheet and the export say Annie.
    assert "Annie won" in text(client.get("/games/1").get_data(as_text=True))
    assert client.get("/games/1.json").get_json()["players"][0] == "Annie"
    with app.app_context():
        assert db.session.get(models.Game, 1).winner == "Annie"
    cached, fresh = cache_and_replay(app)
    assert cached == fresh


def test_a_hand_form_opened_before_a_rename_is_refused_not_recorded(client: Any, app: Any) -> None:
    game = import_game(client, record("auction-pitch", ["Ann", "Bob"], []))
    stale = version_of(client, game)
    rename(client, player_id(app, "Bob"), "Robert")
    response = client.post(
        f"/games/{game}", data=ap_form(["Ann", "Bob"], "Ann", 2, "Ann", "Ann", None, None, stale)
    )
    assert response.status_code == 409
    fresh = version_of(client, game)
    response = client.post(
        f"/games/{game}",
        data=ap_form(["Ann", "Robert"], "Robert", 2, "Robert", "Ann", None, None, fresh),
    )
    assert response.status_code == 302


def test_renaming_to_a_name_on_the_roster_suggests_a_merge_and_changes_nothing(
    client: Any, app: Any
) -> None:
    import_game(client, GAME_A)
    response = rename(client, player_id(app, "Ann"), "Bob")
    assert response.status_code == 400
    assert (
        "'Bob' is already on the roster; if they are the same person, merge them instead."
        in text(response.get_data(as_text=True))
    )
    assert game_ids_of(app, "Ann") == [1]


def test_a_bad_new_name_gets_the_engine_s_message(client: Any, app: Any) -> None:
    import_game(client, GAME_A)
    ann = player_id(app, "Ann")
    for name, message in (
        ("", "Type the new name."),
        ("A" * 41, "A name has at most 40 characters."),
        ("Bell\x07", "contains a control character"),
    ):
        response = rename(client, ann, name)
        assert response.status_code == 400
        assert message in text(response.get_data(as_text=True))
    assert game_ids_of(app, "Ann") == [1]


def test_merging_two_spellings_keeps_every_game_and_adds_up_the_statistics(
    client: Any, app: Any
) -> None:
    for game in ALL:
        import_game(client, game)
    # "Annie" is Ann, spelled another way, in two more games.
    import_game(
        client,
        record(
            "auction-pitch",
            ["Annie", "Bob"],
            [ap("Annie", 4, "Annie", "Annie", "Annie", "Annie")],
            stake="0.5",
        ),
    )
    import_game(client, record("pitch-six", ["Annie", "Bob", "Cy"], []))
    ann, annie = totals(app, "Ann"), totals(app, "Annie")
    games = sorted(game_ids_of(app, "Ann") + game_ids_of(app, "Annie"))
    players_before = queries_player_count(app)
    response = merge(client, player_id(app, "Ann"), player_id(app, "Annie"))
    assert response.status_code == 302
    assert "Annie was merged into Ann: 2 games moved." in flashes(
        client.get(response.headers["Location"]).get_data(as_text=True)
    )
    merged = totals(app, "Ann")
    assert game_ids_of(app, "Ann") == games
    counted = [key for key in TOTALS if key not in ("money", "cents")]
    for key in counted:
        assert merged[key] == ann[key] + annie[key], key
    assert merged["money"] == ann["money"] + annie["money"]
    assert queries_player_count(app) == players_before - 1
    assert "Ann won" in text(client.get("/games/6").get_data(as_text=True))
    cached, fresh = cache_and_replay(app)
    assert cached == fresh


def queries_player_count(app: Any) -> int:
    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(models.Player)).scalar_one()
        db.session.remove()
    return int(count)


def test_two_players_who_sat_at_one_game_cannot_be_merged(client: Any, app: Any) -> None:
    import_game(client, GAME_A)
    response = merge(client, player_id(app, "Ann"), player_id(app, "Bob"))
    assert response.status_code == 400
    assert "Ann and Bob both sat at game 1, so they are two people; nothing was merged." in text(
        response.get_data(as_text=True)
    )
    assert game_ids_of(app, "Bob") == [1]


def test_a_merge_needs_the_box_ticked_and_another_player(client: Any, app: Any) -> None:
    import_game(client, GAME_A)
    import_game(client, record("auction-pitch", ["Annie", "Dee"], []))
    ann, annie = player_id(app, "Ann"), player_id(app, "Annie")
    unticked = merge(client, ann, annie, confirm=False)
    assert unticked.status_code == 400
    assert "Tick the box to confirm they are the same person." in text(
        unticked.get_data(as_text=True)
    )
    nobody = merge(client, ann, 0)
    assert nobody.status_code == 400
    assert "Choose the player to merge into this one." in text(nobody.get_data(as_text=True))
    stranger = merge(client, ann, 999)
    assert stranger.status_code == 400
    assert "Not a valid choice." in text(stranger.get_data(as_text=True))
    assert game_ids_of(app, "Annie") == [2]


def test_a_merged_away_player_s_page_is_gone_with_a_message(client: Any, app: Any) -> None:
    import_game(client, record("auction-pitch", ["Ann", "Bob"], []))
    import_game(client, record("auction-pitch", ["Annie", "Bob"], []))
    annie = player_id(app, "Annie")
    merge(client, player_id(app, "Ann"), annie)
    response = client.get(f"/players/{annie}")
    assert response.status_code == 404
    assert "They may have been merged into another." in text(response.get_data(as_text=True))
