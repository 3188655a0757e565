"""Events as rows: the setup checked before anything is written, players registered from the
roster or at the door, late arrivals and withdrawals, seasons, and time called on a game.

Everything runs through ``operations`` on a real database (SQLite, and PostgreSQL when
TEST_DATABASE_URL names one); nothing stands in for our own parts.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from sqlalchemy import func, select

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db
from scorekeeper.operations.errors import Conflict, EventError, NotFound, OperationError
from scorekeeper.operations.event_setup import EventSetup


def _setup(**changes: Any) -> EventSetup:
    values: dict[str, Any] = {
        "name": "Grange progressive",
        "day": date(2026, 12, 5),
        "format": "progressive",
        "variant": "auction-pitch",
        "rounds": 4,
    }
    values.update(changes)
    return EventSetup(**values)


def _count(model: Any) -> int:
    return int(db.session.execute(select(func.count()).select_from(model)).scalar_one())


def test_an_event_is_stored_with_its_game_rounds_and_money(app: Any) -> None:
    with app.app_context():
        event_id = operations.event_setup.create_event(
            _setup(
                house_rules={"hands": 8, "target": None},
                entry_fee="5.00",
                prize_split=[50, 30, 20],
                round_minutes=40,
                place="Grange hall",
            )
        )
        state = operations.events.load_event(event_id)
        assert state.event.name == "Grange progressive"
        assert state.event.house_rules == {"hands": 8, "target": None}
        assert state.event.entry_fee == "5.00"
        assert state.event.prize_split == [50, 30, 20]
        assert state.event.round_minutes == 40
        assert state.event.kind == "tournament"
        assert state.players == () and state.rounds == ()
        assert state.can_start_next and not state.over


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"rounds": 0}, "bad-rounds"),
        ({"rounds": 31}, "bad-rounds"),
        ({"format": "swiss"}, "bad-format"),
        ({"round_minutes": 0}, "bad-minutes"),
        ({"prize_split": [50, 30]}, "split-not-100"),
        ({"prize_split": [100, 0]}, "bad-split"),
    ],
)
def test_a_setup_the_app_cannot_run_is_refused_and_nothing_is_written(
    app: Any, changes: dict[str, Any], code: str
) -> None:
    with app.app_context():
        with pytest.raises(EventError) as refused:
            operations.event_setup.create_event(_setup(**changes))
        assert refused.value.code == code
        assert operations.errors.explain(refused.value)
        assert _count(models.Event) == 0


def test_a_game_the_engine_refuses_is_refused_by_its_rule(app: Any) -> None:
    with app.app_context():
        # No target is allowed only with a count of hands (RULES.md 11.4).
        with pytest.raises(rules.RuleError):
            operations.event_setup.create_event(_setup(house_rules={"target": None}))
        # Cinch is played in partnerships only: an individual event cannot play it.
        with pytest.raises(rules.RuleError):
            operations.event_setup.create_event(_setup(format="individual", variant="cinch"))
        assert _count(models.Event) == 0


def test_players_come_from_the_roster_in_any_spelling_or_are_added_at_the_door(
    app: Any,
) -> None:
    with app.app_context():
        (ana,) = [i for i, _ in _seat(["Ana"])]
        event_id = operations.event_setup.create_event(_setup())
        ids = operations.event_setup.register(event_id, ["ana", "Bo", "Cy"])
        assert ids[0] == ana
        state = operations.events.load_event(event_id)
        assert [p.name for p in state.players] == ["Ana", "Bo", "Cy"]
        assert all(p.from_round == 1 for p in state.players)
        # Registering someone twice keeps one entry.
        operations.event_setup.register(event_id, ["ANA"])
        assert len(operations.events.load_event(event_id).players) == 3
        assert _count(models.Player) == 3


def _seat(names: list[str]) -> list[tuple[int, str]]:
    from scorekeeper.data.database import write_transaction

    with write_transaction():
        return operations.players.seat_players(names)


def test_a_change_made_on_an_older_screen_is_refused(app: Any) -> None:
    with app.app_context():
        event_id = operations.event_setup.create_event(_setup())
        seen = operations.events.event_version(event_id)
        operations.event_setup.register(event_id, ["Ana"], version=seen)
        with pytest.raises(Conflict):
            operations.event_setup.register(event_id, ["Bo"], version=seen)
        assert [p.name for p in operations.events.load_event(event_id).players] == ["Ana"]


def test_a_player_withdrawn_before_playing_leaves_the_list(app: Any) -> None:
    with app.app_context():
        event_id = operations.event_setup.create_event(_setup())
        ana, _bo = operations.event_setup.register(event_id, ["Ana", "Bo"])
        operations.event_setup.withdraw(event_id, ana)
        assert [p.name for p in operations.events.load_event(event_id).players] == ["Bo"]
        with pytest.raises(NotFound):
            operations.event_setup.withdraw(event_id, ana)


def test_a_bad_name_at_the_door_is_refused_by_the_engine(app: Any) -> None:
    with app.app_context():
        event_id = operations.event_setup.create_event(_setup())
        with pytest.raises(rules.RuleError):
            operations.event_setup.register(event_id, ["x" * 41])
        assert operations.events.load_event(event_id).players == ()


def test_a_season_groups_league_nights(app: Any) -> None:
    with app.app_context():
        season_id = operations.seasons.create_season("Winter league", "placing", [10, 8, 6])
        with pytest.raises(EventError) as taken:
            operations.seasons.create_season("Winter league", "wins", [])
        assert taken.value.code == "season-name-taken"
        with pytest.raises(EventError):
            operations.seasons.create_season("Spring", "placing", [])
        event_id = operations.event_setup.create_event(_setup(season_id=season_id))
        state = operations.events.load_event(event_id)
        assert state.event.kind == "league"
        assert state.event.season_id == season_id
        with pytest.raises(NotFound):
            operations.event_setup.create_event(_setup(season_id=season_id + 5))


def _played(game_id: int, hands: list[rules.Hand]) -> None:
    for hand in hands:
        loaded = operations.loading.load(game_id)
        operations.hands.record_hand(game_id, hand, version=loaded.row.version)


def _made(pitcher: str, bid: int, taker: str) -> rules.Hand:
    return rules.Hand(
        pitcher=pitcher,
        bid=bid,
        points={"high": taker, "low": taker, "jack": taker, "game": taker},
    )


def test_time_called_ends_a_game_after_its_hand_in_play(app: Any) -> None:
    with app.app_context():
        game = rules.Game.create(
            "auction-pitch", ["Ana", "Bo", "Cy"], house_rules={"all_pass": "redeal-next-dealer"}
        )
        game_id = operations.games.create_game(game)
        _played(game_id, [_made("Ana", 2, "Ana"), rules.Hand.passed_out()])
        result = operations.games.call_time(game_id, version=None)
        # One played hand so far (a passed-out hand does not count): the next one ends it.
        assert operations.loading.load(game_id).game.called == 2
        assert not result.finished
        _played(game_id, [_made("Bo", 2, "Bo")])
        # Ana 4, Bo 4: a tie at the top plays on.
        assert not operations.loading.load(game_id).result.finished
        _played(game_id, [_made("Cy", 2, "Ana")])
        done = operations.loading.load(game_id)
        assert done.result.finished and done.result.winner == "Ana"
        # Time called again on a finished game is refused, and changes nothing.
        version = done.row.version
        with pytest.raises(OperationError) as refused:
            operations.games.call_time(game_id, version=None)
        assert refused.value.code == "time-not-callable"
        assert operations.loading.load(game_id).row.version == version


def test_time_called_is_kept_when_it_was_called_sooner(app: Any) -> None:
    with app.app_context():
        game_id = operations.games.create_game(rules.Game.create("auction-pitch", ["Ana", "Bo"]))
        operations.games.call_time(game_id, version=None)
        assert operations.loading.load(game_id).game.called == 1
        with pytest.raises(OperationError):  # called already: the first call stands
            operations.games.call_time(game_id, version=None)
        assert operations.loading.load(game_id).game.called == 1
        with pytest.raises(Conflict):
            operations.games.call_time(game_id, version=0)
