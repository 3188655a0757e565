"""An event driven from its pages: set up, registration, the next round's seating, "Start
round" (one ordinary game a table), the table cards' codes, the round clock and call time,
the standings, the room's board and the printed lists (read back with pypdf).

Hands are recorded through ``operations.hands.record_hand``, the path every hand form and
phone takes; the pages are the real views on a real database.
"""

from __future__ import annotations

import io
import re
from datetime import timedelta
from typing import Any

import pytest
from pypdf import PdfReader

from scorekeeper import operations, rules
from scorekeeper.operations.events import EventState

NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]


def _create(client: Any, **fields: str) -> int:
    data = {
        "name": "Grange night",
        "date": "2026-12-05",
        "format": "progressive",
        "game": "preset:auction-pitch",
        "hands": "2",
        "rounds": "2",
        "entry_fee": "",
        "prize_split": "50 30 20",
        "season": "0",
    }
    data.update(fields)
    response = client.post("/events", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    found = re.search(r"/events/(\d+)$", response.headers["Location"])
    assert found is not None
    return int(found.group(1))


def _register(client: Any, event_id: int, names: list[str], roster: list[str] = ()) -> Any:
    data: dict[str, Any] = {"register-door": "\n".join(names)}
    if roster:
        data["register-roster"] = list(roster)
    return client.post(f"/events/{event_id}/players", data=data)


def _state(app: Any, event_id: int) -> EventState:
    with app.app_context():
        return operations.events.load_event(event_id)


def _version(app: Any, event_id: int) -> int:
    with app.app_context():
        found = operations.events.event_version(event_id)
    assert found is not None
    return found


def _start(client: Any, app: Any, event_id: int) -> Any:
    return client.post(f"/events/{event_id}/rounds", data={"version": str(_version(app, event_id))})


def _hand(loaded: Any, pitcher: int, taker: int, bid: int = 2) -> rules.Hand:
    """Seat ``pitcher`` bids ``bid``; seat ``taker`` takes every point."""
    names = loaded.names
    who = names[taker]
    return rules.Hand(
        pitcher=names[pitcher],
        bid=bid,
        points={"high": who, "low": who, "jack": who, "game": who},
    )


def _play(app: Any, game_id: int, pitcher: int, taker: int, bid: int = 2) -> rules.GameResult:
    with app.app_context():
        loaded = operations.loading.load(game_id)
        return operations.hands.record_hand(
            game_id, _hand(loaded, pitcher, taker, bid), version=loaded.row.version
        )


def _pdf_text(response: Any) -> str:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_list_offers_the_setup_and_refuses_a_bad_one_naming_it(client: Any) -> None:
    page = client.get("/events")
    assert page.status_code == 200
    assert "Set up an event" in page.get_data(as_text=True)
    refused = client.post(
        "/events",
        data={
            "name": "Bad",
            "date": "2026-12-05",
            "format": "progressive",
            "game": "preset:auction-pitch",
            "no_target": "y",
            "rounds": "3",
            "season": "0",
        },
    )
    assert refused.status_code == 400
    # The engine's own refusal (RULES.md 11.4), next to the game's field.
    assert "target can be null only with hands set" in refused.get_data(as_text=True)
    assert client.get("/events/1").status_code == 404


def test_a_progressive_night_from_registration_to_the_final_standings(
    client: Any, app: Any
) -> None:
    event_id = _create(client, entry_fee="5", prize_split="60 40")
    with app.app_context():
        from scorekeeper.data.database import write_transaction

        with write_transaction():
            operations.players.seat_players(["Ana", "Bo"])
    registered = _register(client, event_id, NAMES[2:8], roster=["Ana", "Bo"])
    assert registered.status_code == 302
    director = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "8 players" in director
    assert "Round 1: the seating" in director and "Table 2" in director
    assert "Start round 1" in director

    assert _start(client, app, event_id).status_code == 302
    state = _state(app, event_id)
    assert state.current is not None and state.current.number == 1
    assert [len(t.seats) for t in state.current.tables] == [4, 4]
    assert all(t.game is not None and t.game.game.teams is not None for t in state.current.tables)
    # A second tap on the same screen changes nothing: the event moved past its version.
    again = client.post(f"/events/{event_id}/rounds", data={"version": "0"})
    assert again.status_code == 302
    assert len(_state(app, event_id).rounds) == 1

    # The table card's code leads to the game that table plays now.
    first, second = state.current.tables
    card = client.get(f"/events/{event_id}/tables/1")
    assert card.status_code == 302 and card.headers["Location"].endswith(f"/games/{first.game_id}")
    assert client.get(f"/events/{event_id}/tables/9").status_code == 200  # no such table yet

    # The next round waits for every table.
    director = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert re.search(r'<button[^>]*disabled[^>]*id="start-round"', director)
    refused = _start(client, app, event_id)
    assert refused.status_code == 302
    assert len(_state(app, event_id).rounds) == 1

    stamp = client.get(f"/events/{event_id}/version.json").get_json()["version"]
    # Table 1: seats 0 and 2 (one side) take both hands; table 2: seats 1 and 3.
    _play(app, first.game_id, 0, 0)
    assert client.get(f"/events/{event_id}/version.json").get_json()["version"] != stamp
    assert _play(app, first.game_id, 1, 2).finished
    _play(app, second.game_id, 1, 1)
    assert _play(app, second.game_id, 2, 3).finished
    board = client.get(f"/events/{event_id}/board").get_data(as_text=True)
    assert "finished" in board and "Standings" in board

    assert _start(client, app, event_id).status_code == 302
    state = _state(app, event_id)
    assert len(state.rounds) == 2
    head_winners = {first.seats[0], first.seats[2]}
    foot_winners = {second.seats[1], second.seats[3]}
    head, foot = state.current.tables
    # The head table's winners stay, the foot table's winners move up to it.
    assert set(head.seats) == head_winners | foot_winners
    assert set(foot.seats) == set(first.seats + second.seats) - head_winners - foot_winners

    # Round 2 is ended by time called: one hand in play at each table.
    _play(app, head.game_id, 0, 0)
    called = client.post(f"/events/{event_id}/clock/call")
    assert called.status_code == 302
    with app.app_context():
        # The head table's hand in play is its second, which its count of hands (2) ends it
        # with anyway: nothing to call there. The foot table's first hand is in play.
        head_game = operations.loading.load(head.game_id)
        assert head_game.game.called is None and head_game.game.hand_limit == 2
        assert operations.loading.load(foot.game_id).game.called == 1
    _play(app, head.game_id, 1, 0)
    _play(app, foot.game_id, 0, 0)
    final = _state(app, event_id)
    assert final.over

    standings = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert "Final: every round is played." in standings
    assert "The pot:" in standings
    text = _pdf_text(client.get(f"/events/{event_id}/standings.pdf"))
    assert "Grange night" in text and "Final standings" in text
    assert "Prizes" in text
    for name in NAMES[:8]:
        assert name in text
    seats = _pdf_text(client.get(f"/events/{event_id}/seats.pdf?round=2"))
    assert "Seat list, round 2 of 2" in seats
    assert all(name in seats for name in NAMES[:8])
    cards = _pdf_text(client.get(f"/events/{event_id}/tables.pdf"))
    assert "Table 1" in cards and "Table 2" in cards
    assert client.post(f"/events/{event_id}/finish").status_code == 302
    assert _state(app, event_id).event.finished_at is not None


def test_call_time_with_hands_in_play_at_three_tables(client: Any, app: Any) -> None:
    event_id = _create(client, hands="", rounds="1", round_minutes="30")
    _register(client, event_id, NAMES)
    _start(client, app, event_id)
    tables = _state(app, event_id).current.tables
    assert len(tables) == 3
    one, two, three = (t.game_id for t in tables)
    _play(app, one, 0, 0)  # side of seats 0 and 2: 4
    _play(app, two, 0, 1)  # seats 1 and 3 take it: 4, the pitcher's side is set back
    _play(app, two, 1, 0)
    client.post(f"/events/{event_id}/clock/pause")
    assert _state(app, event_id).current.paused_at is not None
    client.post(f"/events/{event_id}/clock/resume")
    assert _state(app, event_id).current.paused_at is None
    client.post(f"/events/{event_id}/clock/call")
    with app.app_context():
        called = [operations.loading.load(g).game.called for g in (one, two, three)]
    assert called == [2, 3, 1]
    state = _state(app, event_id)
    assert state.current.called_at is not None
    # Each game ends after its hand in play (table 2 was level, 2 to 2, before it).
    assert not _state(app, event_id).current.finished
    assert _play(app, one, 1, 0).finished
    assert _play(app, two, 2, 2).finished
    assert not _state(app, event_id).over
    assert _play(app, three, 0, 0).finished
    assert _state(app, event_id).over
    director = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "Every round is played" in director


def test_a_tie_at_the_called_hand_plays_on(client: Any, app: Any) -> None:
    event_id = _create(client, hands="", rounds="1")
    _register(client, event_id, NAMES[:4])
    _start(client, app, event_id)
    (table,) = _state(app, event_id).current.tables
    _play(app, table.game_id, 0, 0)  # seats 0 and 2: 4
    client.post(f"/events/{event_id}/clock/call")
    # Seats 1 and 3 make 4 too: level at the called hand, the game goes on.
    assert not _play(app, table.game_id, 1, 1).finished
    assert not _state(app, event_id).over
    assert _play(app, table.game_id, 0, 0).finished
    assert _state(app, event_id).over


@pytest.mark.parametrize("fmt", ["round-robin", "individual"])
def test_the_other_formats_seat_their_first_round(client: Any, app: Any, fmt: str) -> None:
    event_id = _create(client, format=fmt)
    _register(client, event_id, NAMES[:8])
    assert _start(client, app, event_id).status_code == 302
    state = _state(app, event_id)
    seated = [p for t in state.current.tables for p in t.seats]
    assert sorted(seated) == sorted(p.player_id for p in state.players)
    partners = all(t.sides is not None for t in state.current.tables)
    assert partners == (fmt == "round-robin")


def test_a_late_arrival_plays_from_the_next_round_and_a_withdrawal_leaves_it(
    client: Any, app: Any
) -> None:
    event_id = _create(client, format="individual", rounds="3")
    _register(client, event_id, NAMES[:8])
    _start(client, app, event_id)
    _register(client, event_id, ["Zed"])
    state = _state(app, event_id)
    zed = next(p for p in state.players if p.name == "Zed")
    assert zed.from_round == 2
    ana = next(p for p in state.players if p.name == "Ana")
    client.post(
        f"/events/{event_id}/players/{ana.player_id}/withdraw",
        data={"version": str(_version(app, event_id))},
    )
    for table in _state(app, event_id).current.tables:
        while True:
            with app.app_context():
                loaded = operations.loading.load(table.game_id)
            if loaded.result.finished:
                break
            _play(app, table.game_id, 0, 0)
    _start(client, app, event_id)
    state = _state(app, event_id)
    seated = {p for t in state.current.tables for p in t.seats} | set(state.current.byes)
    assert zed.player_id in seated and ana.player_id not in seated
    standings = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert "withdrew" in standings


def test_a_league_season_table_and_the_players_page(client: Any, app: Any) -> None:
    made = client.post(
        "/seasons",
        data={
            "season-name": "Winter league",
            "season-scoring": "placing",
            "season-placing_points": "10 8 6 4",
        },
    )
    assert made.status_code == 302
    season_id = int(made.headers["Location"].rsplit("/", 1)[1])
    event_id = _create(client, rounds="1", season=str(season_id))
    _register(client, event_id, NAMES[:4])
    _start(client, app, event_id)
    (table,) = _state(app, event_id).current.tables
    _play(app, table.game_id, 0, 0)
    _play(app, table.game_id, 1, 0)
    # The round clock stopped when its last table finished.
    done = _state(app, event_id).current
    assert done.finished_at is not None and done.called_at is None
    hour_later = done.running_seconds(done.finished_at + timedelta(hours=1))
    assert hour_later == done.running_seconds(done.finished_at) < 3600
    page = client.get(f"/seasons/{season_id}").get_data(as_text=True)
    assert "Winter league" in page
    winner = _state(app, event_id).current.tables[0].seats[0]
    assert "10" in page
    player = client.get(f"/players/{winner}").get_data(as_text=True)
    assert "Tournaments and league nights" in player and "Winter league" in player


def test_the_event_pages_speak_romanian(client: Any, app: Any) -> None:
    event_id = _create(client, entry_fee="5", prize_split="100", rounds="1")
    _register(client, event_id, NAMES[:4])
    ro = {"Accept-Language": "ro"}
    director = client.get(f"/events/{event_id}", headers=ro).get_data(as_text=True)
    assert "Înscrieți jucători" in director and "Runda 1: așezarea" in director
    _start(client, app, event_id)
    director = client.get(f"/events/{event_id}", headers=ro).get_data(as_text=True)
    assert "Runda 1" in director and "Opriți timpul" in director and "Masa 1" in director
    board = client.get(f"/events/{event_id}/board", headers=ro).get_data(as_text=True)
    assert "0 mâini jucate" in board and "Clasament" in board
    (table,) = _state(app, event_id).current.tables
    _play(app, table.game_id, 0, 0)
    _play(app, table.game_id, 1, 0)
    standings = client.get(f"/events/{event_id}/standings", headers=ro).get_data(as_text=True)
    assert "Final: toate rundele s-au jucat." in standings and "Potul:" in standings
    assert "Victorii" in standings and "Premii" in standings


def test_a_progressive_night_of_ten_moves_the_two_best_of_each_table_of_five(
    client: Any, app: Any
) -> None:
    event_id = _create(client, rounds="2")
    _register(client, event_id, NAMES[:10])
    _start(client, app, event_id)
    first = _state(app, event_id).current
    # 10 players: two tables of five, each for themselves.
    assert [(len(t.seats), t.sides) for t in first.tables] == [(5, None), (5, None)]
    for table in first.tables:
        _play(app, table.game_id, 0, 0)  # seat 0 makes 4
        assert _play(app, table.game_id, 1, 0).finished  # seat 1 set back, seat 0 takes 4 more
    assert _start(client, app, event_id).status_code == 302
    second = _state(app, event_id).current
    assert second.number == 2
    head, foot = second.tables
    # The foot table's two best (seat 0 on 8, then seat 2: the lower of the seats on 0) move up;
    # the head table's two worst go down; everyone is seated once.
    assert {first.tables[1].seats[0], first.tables[1].seats[2]} <= set(head.seats)
    assert sorted(head.seats + foot.seats) == sorted(first.tables[0].seats + first.tables[1].seats)
