"""Fixed teams: the round robin, then the knockout, driven from the director's screen: the
setup refused when it cannot run, "Start the knockout" seeded by the standings, each
series' next game started when one ends undecided, winners going through, the champion on
the standings page, the room's board and the standings PDF (read back with pypdf), and the
prizes by knockout place.

Hands are recorded through ``operations.hands.record_hand``, the path every hand form and
phone takes; the pages are the real views on a real database.
"""

from __future__ import annotations

import io
import re
from typing import Any

from pypdf import PdfReader

from scorekeeper import operations, rules
from scorekeeper.operations.errors import EventError
from scorekeeper.operations.events import EventState

#: Four teams, strongest first: in the round robin the stronger side wins every game.
TEAMS = {
    "Aces": ["Ana", "Bo"],
    "Kings": ["Cy", "Dee"],
    "Queens": ["Eve", "Finn"],
    "Jacks": ["Gus", "Hal"],
}
STRENGTH = list(TEAMS)
TEAMS_BY_NAME = {team: set(names) for team, names in TEAMS.items()}


def _create(client: Any, **fields: str) -> Any:
    data = {
        "name": "Teams night",
        "date": "2026-12-05",
        "format": "teams",
        "game": "preset:auction-pitch",
        "hands": "2",
        "rounds": "3",
        "entry_fee": "",
        "prize_split": "50 30 20",
        "season": "0",
        "knockout": "4",
        "best_of": "3",
    }
    data.update(fields)
    return client.post("/events", data=data)


def _event(client: Any, teams: dict[str, list[str]] = TEAMS, **fields: str) -> int:
    response = _create(client, **fields)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    found = re.search(r"/events/(\d+)$", response.headers["Location"])
    assert found is not None
    event_id = int(found.group(1))
    for team, names in teams.items():
        registered = client.post(
            f"/events/{event_id}/players",
            data={"register-door": "\n".join(names), "register-team": team},
        )
        assert registered.status_code == 302
    return event_id


def _state(app: Any, event_id: int) -> EventState:
    with app.app_context():
        return operations.events.load_event(event_id)


def _version(app: Any, event_id: int) -> str:
    with app.app_context():
        return str(operations.events.event_version(event_id))


def _team_of(state: EventState) -> dict[int, str]:
    return {p.player_id: p.team for p in state.players if p.team}


def _win(app: Any, game_id: int, team: str) -> rules.GameResult:
    """``team`` takes every point of both hands (the game ends after 2 hands)."""
    with app.app_context():
        result = None
        for _ in range(2):
            loaded = operations.loading.load(game_id)
            seat = next(i for i, name in enumerate(loaded.names) if name in TEAMS_BY_NAME[team])
            who = loaded.names[seat]
            hand = rules.Hand(
                pitcher=who, bid=2, points={"high": who, "low": who, "jack": who, "game": who}
            )
            result = operations.hands.record_hand(game_id, hand, version=loaded.row.version)
        assert result is not None and result.finished
        return result


def _play_round_robin(client: Any, app: Any, event_id: int) -> None:
    """Every round of the round robin: the stronger team wins each game."""
    for _ in range(3):
        started = client.post(
            f"/events/{event_id}/rounds", data={"version": _version(app, event_id)}
        )
        assert started.status_code == 302
        state = _state(app, event_id)
        team_of = _team_of(state)
        assert state.current is not None
        for table in state.current.tables:
            assert table.game_id is not None
            teams = {team_of[p] for p in table.seats}
            stronger = min(teams, key=STRENGTH.index)
            _win(app, table.game_id, stronger)


def _table_game(client: Any, event_id: int, number: int) -> int:
    """The game the table card's code leads to."""
    response = client.get(f"/events/{event_id}/tables/{number}")
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    found = re.search(r"/games/(\d+)", response.headers["Location"])
    assert found is not None
    return int(found.group(1))


def _start_knockout(client: Any, app: Any, event_id: int) -> Any:
    return client.post(f"/events/{event_id}/knockout", data={"version": _version(app, event_id)})


def _pdf_text(response: Any) -> str:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_a_bad_knockout_setup_is_refused_naming_it_and_nothing_is_written(
    client: Any, app: Any
) -> None:
    refused = _create(client, format="progressive")
    assert refused.status_code == 400
    assert "A knockout follows a round robin of fixed teams" in refused.get_data(as_text=True)
    odd = _create(client, knockout="3")
    assert odd.status_code == 400
    assert "Not a valid choice" in odd.get_data(as_text=True)
    with app.app_context():
        assert operations.events.event_count() == 0
        setup = operations.event_setup.EventSetup(
            name="X",
            day=__import__("datetime").date(2026, 12, 5),
            format="teams",
            variant="auction-pitch",
            rounds=3,
            knockout_size=4,
            best_of=2,
        )
        try:
            operations.event_setup.create_event(setup)
        except EventError as error:
            assert error.code == "bad-best-of"
        else:
            raise AssertionError("a best of 2 was stored")
        assert operations.events.event_count() == 0


def test_more_knockout_places_than_teams_is_refused_on_the_director_screen(
    client: Any, app: Any
) -> None:
    three = {team: names for team, names in list(TEAMS.items())[:3]}
    event_id = _event(client, three, knockout="4")
    before = client.get(f"/events/{event_id}").get_data(as_text=True)
    # Before the round robin is over: said, and the button is disabled.
    assert "The knockout starts once every round of the round robin" in before
    assert re.search(r'id="start-knockout" disabled', before)
    refused = _start_knockout(client, app, event_id)
    assert refused.status_code == 302
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "The knockout starts once every round of the round robin" in page
    # Three teams play three rounds (a bye each); then still too few for four places.
    for _ in range(3):
        client.post(f"/events/{event_id}/rounds", data={"version": _version(app, event_id)})
        state = _state(app, event_id)
        team_of = _team_of(state)
        assert state.current is not None
        for table in state.current.tables:
            assert table.game_id is not None
            _win(app, table.game_id, min({team_of[p] for p in table.seats}, key=STRENGTH.index))
    _start_knockout(client, app, event_id)
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "The knockout has 4 places but only 3 teams play" in page
    assert _state(app, event_id).event.knockout_seeds is None
    # The director makes it a knockout of two (a bad size is refused, nothing changes).
    bad = client.post(
        f"/events/{event_id}/knockout/setup",
        data={"knockout": "3", "best_of": "1", "version": _version(app, event_id)},
    )
    assert bad.status_code == 302
    assert "Not a valid choice" in client.get(f"/events/{event_id}").get_data(as_text=True)
    assert _state(app, event_id).event.knockout_size == 4
    changed = client.post(
        f"/events/{event_id}/knockout/setup",
        data={"knockout": "2", "best_of": "1", "version": _version(app, event_id)},
    )
    assert changed.status_code == 302
    assert _state(app, event_id).event.knockout_size == 2
    assert _start_knockout(client, app, event_id).status_code == 302
    state = _state(app, event_id)
    names = {p.player_id: p.team for p in state.players}
    assert [names[s] for s in state.event.knockout_seeds or ()] == ["Aces", "Kings"]
    # Once drawn, it cannot change.
    client.post(
        f"/events/{event_id}/knockout/setup",
        data={"knockout": "0", "best_of": "1", "version": _version(app, event_id)},
    )
    assert "already started" in client.get(f"/events/{event_id}").get_data(as_text=True)
    assert _state(app, event_id).event.knockout_size == 2


def test_a_knockout_of_two_is_the_final_between_the_top_two(client: Any, app: Any) -> None:
    event_id = _event(client, knockout="2", best_of="1")
    _play_round_robin(client, app, event_id)
    seeded = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "Seeded by the standings:" in seeded
    assert seeded.index("Aces") < seeded.index("Kings")
    assert _start_knockout(client, app, event_id).status_code == 302
    state = _state(app, event_id)
    names = {p.player_id: p.team for p in state.players}
    assert [names[s] for s in state.event.knockout_seeds or ()] == ["Aces", "Kings"]
    final = _table_game(client, event_id, 1)
    assert client.get(f"/events/{event_id}/tables/2").status_code == 200  # waiting: no match
    _win(app, final, "Kings")
    page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert "Champion: <bdi>Kings</bdi>" in page
    assert "runner-up: <bdi>Aces</bdi>" in page
    # A second start is refused; the event now closes.
    again = _start_knockout(client, app, event_id)
    assert again.status_code == 302
    assert "already started" in client.get(f"/events/{event_id}").get_data(as_text=True)
    closed = client.post(f"/events/{event_id}/finish")
    assert closed.status_code == 302
    assert _state(app, event_id).event.finished_at is not None


def test_a_knockout_of_four_best_of_three_to_the_champion_and_the_prizes(
    client: Any, app: Any
) -> None:
    event_id = _event(client, knockout="4", best_of="3", entry_fee="10")
    _play_round_robin(client, app, event_id)
    # Not closed before the knockout is played: not offered, and refused if asked.
    assert "Close the event" not in client.get(f"/events/{event_id}").get_data(as_text=True)
    client.post(f"/events/{event_id}/finish")
    assert _state(app, event_id).event.finished_at is None
    assert "the event closes once its final is played" in client.get(
        f"/events/{event_id}"
    ).get_data(as_text=True)
    assert _start_knockout(client, app, event_id).status_code == 302

    # Seeds 1 v 4 at table 1, 2 v 3 at table 2.
    semi_one = _table_game(client, event_id, 1)
    semi_two = _table_game(client, event_id, 2)
    with app.app_context():
        first = operations.loading.load(semi_one)
        assert set(first.names) == {"Ana", "Bo", "Gus", "Hal"}
        assert first.names[0] in TEAMS_BY_NAME["Aces"]  # the top seed deals game 1
    # Semi 1 goes to three games: Jacks, then Aces twice.
    _win(app, semi_one, "Jacks")
    game_two = _table_game(client, event_id, 1)
    assert game_two != semi_one
    with app.app_context():
        assert operations.loading.load(semi_one).row.next_game_id == game_two
        second = operations.loading.load(game_two)
        assert second.names[0] in TEAMS_BY_NAME["Jacks"]  # the other side deals first
    _win(app, game_two, "Aces")
    game_three = _table_game(client, event_id, 1)
    assert game_three not in (semi_one, game_two)
    _win(app, game_three, "Aces")
    # Decided: no fourth game; the final waits for the other semi-final.
    assert _table_game(client, event_id, 1) == game_three
    director = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "<bdi>Aces</bdi> goes through" in director
    assert "to be decided" in director
    # No prizes until the final is played.
    assert "Prizes" not in client.get(f"/events/{event_id}/standings").get_data(as_text=True)

    _win(app, semi_two, "Kings")
    _win(app, _table_game(client, event_id, 2), "Kings")
    final_one = _table_game(client, event_id, 1)
    with app.app_context():
        assert set(operations.loading.load(final_one).names) == {"Ana", "Bo", "Cy", "Dee"}
        assert operations.loading.load(game_three).row.next_game_id == final_one
    _win(app, final_one, "Aces")
    _win(app, _table_game(client, event_id, 1), "Kings")
    _win(app, _table_game(client, event_id, 1), "Kings")

    with app.app_context():
        ko = operations.bracket.knockout_of(operations.events.load_event(event_id))
        assert ko is not None
        names = {p.player_id: p.team for p in _state(app, event_id).players}
        assert names[ko.champion or 0] == "Kings"
        assert names[ko.runner_up or 0] == "Aces"
        assert [len(m.games) for r in ko.rounds for m in r] == [3, 2, 3]
        assert {names[t]: p for t, p in ko.places().items()} == {
            "Kings": 1,
            "Aces": 2,
            "Queens": 3,
            "Jacks": 3,
        }
        assert ko.due == ()

    standings = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert "Champion: <bdi>Kings</bdi>" in standings
    assert 'id="close-event"' in client.get(f"/events/{event_id}").get_data(as_text=True)
    # 8 players at 10: 80; 50% to Kings, 30% to Aces, the semi-final losers share 20%.
    prizes = re.sub(r"\s+", " ", standings[standings.index("Prizes") :])
    assert re.search(r"<bdi>Kings</bdi></th><td class=\"num\">40", prizes), prizes[:800]
    assert re.search(r"<bdi>Aces</bdi></th><td class=\"num\">24", prizes)
    assert re.search(r"<bdi>Queens</bdi></th><td class=\"num\">8", prizes)
    assert re.search(r"<bdi>Jacks</bdi></th><td class=\"num\">8", prizes)
    board = client.get(f"/events/{event_id}/board").get_data(as_text=True)
    assert "Champion: <bdi>Kings</bdi>" in board
    text = _pdf_text(client.get(f"/events/{event_id}/standings.pdf"))
    assert "Champion: Kings" in text
    assert "Semi-finals" in text and "Final" in text


def test_the_knockout_speaks_romanian(client: Any, app: Any) -> None:
    event_id = _event(client, knockout="2", best_of="3")
    ro = {"Accept-Language": "ro"}
    page = client.get(f"/events/{event_id}", headers=ro).get_data(as_text=True)
    assert "Eliminatorii: primele 2 echipe" in page and "Începeți eliminatoriile" in page
    assert "Eliminatoriile încep după ce toate rundele" in page


def test_a_corrected_winner_reopens_a_decided_series(client: Any, app: Any) -> None:
    event_id = _event(client, knockout="2", best_of="3")
    _play_round_robin(client, app, event_id)
    _start_knockout(client, app, event_id)
    first = _table_game(client, event_id, 1)
    _win(app, first, "Aces")
    second = _table_game(client, event_id, 1)
    _win(app, second, "Aces")
    assert _table_game(client, event_id, 1) == second  # 2-0: decided, no third game
    page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert "Champion: <bdi>Aces</bdi>" in page
    # The director corrects game 2: Kings took every point of both hands.
    with app.app_context():
        for number in (1, 2):
            loaded = operations.loading.load(second)
            who = next(n for n in loaded.names if n in TEAMS_BY_NAME["Kings"])
            hand = rules.Hand(
                pitcher=who, bid=2, points={"high": who, "low": who, "jack": who, "game": who}
            )
            operations.hands.replace_hand(second, number, hand, version=loaded.row.version)
    third = _table_game(client, event_id, 1)
    assert third not in (first, second)
    page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert "Champion:" not in page
    _win(app, third, "Kings")
    page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    assert "Champion: <bdi>Kings</bdi>" in page
