"""An event's standings are worked out once for each state they follow from (a room's
boards redraw at every hand saved; the standings move only when a game finishes), and
never kept past a change that moves them: a game finished, a player renamed, the next
round's byes, a withdrawal. The rounds and tables are kept so too, by the event's
version, and a table's game deleted since shows as gone. Real operations on a real
database.
"""

from __future__ import annotations

from typing import Any

from builders import play_sweep, started_event, table_game

from scorekeeper import operations


def _event(app: Any) -> int:
    """Eight players, progressive, two hands a game, round 1 started."""
    return started_event(app, name="Grange night", rounds=3, hands=2)


def _play(app: Any, event_id: int, table: int) -> None:
    """Seat 0 takes every point (the bid is its table's own seat's)."""
    play_sweep(app, table_game(app, event_id, table), pitcher_seat=table % 4)


def _standings(app: Any, event_id: int) -> Any:
    with app.app_context():
        return operations.standings.standings(operations.events.load_event(event_id))


def _points(standings: Any) -> dict[str, int]:
    return {line.name: line.points for line in standings.lines}


def test_the_same_state_s_standings_are_kept_and_a_hand_in_play_keeps_them(app: Any) -> None:
    event_id = _event(app)
    first = _standings(app, event_id)
    assert _standings(app, event_id) is first
    _play(app, event_id, 1)  # table 1's game is not finished: the standings do not move
    assert _standings(app, event_id) is first
    assert set(_points(first).values()) == {0}


def test_a_game_finished_moves_the_standings(app: Any) -> None:
    event_id = _event(app)
    before = _standings(app, event_id)
    _play(app, event_id, 1)
    _play(app, event_id, 1)  # its second hand: the game is over
    after = _standings(app, event_id)
    assert after is not before
    assert sum(_points(after).values()) > 0 == sum(_points(before).values())


def test_a_player_renamed_shows_the_new_name_and_a_withdrawal_shows_too(app: Any) -> None:
    event_id = _event(app)
    before = _standings(app, event_id)
    assert "Ana" in _points(before)
    with app.app_context():
        state = operations.events.load_event(event_id)
        ana = next(p.player_id for p in state.players if p.name == "Ana")
        hal = next(p.player_id for p in state.players if p.name == "Hal")
        operations.players.rename_player(ana, "Anastasia")
    renamed = _standings(app, event_id)
    assert "Anastasia" in _points(renamed) and "Ana" not in _points(renamed)
    with app.app_context():
        operations.event_setup.withdraw(event_id, hal, version=None)
    withdrawn = _standings(app, event_id)
    assert next(line for line in withdrawn.lines if line.entrant == hal).withdrawn
    assert not next(line for line in renamed.lines if line.entrant == hal).withdrawn


def _tables(app: Any, event_id: int) -> list[tuple[int, int | None, bool]]:
    """The latest round's tables as the pages read them: (number, game, game loaded)."""
    with app.app_context():
        state = operations.events.load_event(event_id)
    assert state.current is not None
    return [(t.number, t.game_id, t.game is not None) for t in state.current.tables]


def test_the_rounds_kept_for_a_version_follow_a_deleted_game_and_the_next_round(
    app: Any,
) -> None:
    event_id = _event(app)
    first = _tables(app, event_id)
    assert [(n, loaded) for n, _game, loaded in first] == [(1, True), (2, True)]
    assert _tables(app, event_id) == first  # kept for the event's version: the same
    doomed = first[1][1]
    assert doomed is not None
    with app.app_context():
        operations.games.delete_game(doomed)
    # The table's game is gone (its row says NULL now, and no version moved).
    assert _tables(app, event_id) == [first[0], (2, None, False)]
    with app.app_context():
        board = app.test_client().get(f"/events/{event_id}/board").get_data(as_text=True)
    assert "game deleted" in board
