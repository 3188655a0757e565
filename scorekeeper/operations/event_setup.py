"""Setting up an event and registering its players: the setup checked (by the engine too)
before anything is written, players from the roster or added at the door, late arrivals
and withdrawals, the fixed teams, the room board's choice to hide the standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from .. import rules
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import EVENT_FORMATS, EVENT_KINDS, utcnow
from .errors import EventError, NotFound
from .events import (
    ENTRANT,
    EVENT,
    MAX_PLAYERS,
    MAX_ROUND_MINUTES,
    MAX_ROUNDS,
    PARTNERSHIP_FORMATS,
    bump_version,
    locked_event,
    most_seats,
    rounds_started,
)
from .knockout import check_knockout_setup
from .players import seat_players
from .seasons import season

# --- The setup ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventSetup:
    """What the director sets up: checked by ``create_event``."""

    name: str
    day: date
    format: str
    variant: str
    rounds: int
    kind: str = "tournament"
    place: str | None = None
    house_rules: dict[str, Any] = field(default_factory=dict)
    rule_set_name: str | None = None
    round_minutes: int | None = None
    entry_fee: str | None = None
    prize_split: list[int] | None = None
    standings_hidden: bool = False
    tie_breaks: list[str] | None = None
    season_id: int | None = None
    #: Fixed teams: a knockout of the top ``knockout_size`` teams after the round robin
    #: (None: none), each match the best of ``best_of`` games.
    knockout_size: int | None = None
    best_of: int | None = None


def table_game_check(format: str, variant: str, house_rules: dict[str, Any]) -> rules.Game:
    """The game a table of this event plays, checked by the engine (RuleError if the
    variant or a switch cannot be played so): four placeholder players, in partnerships
    for the partnership formats."""
    names = ["A", "B", "C", "D"]
    teams = None
    if format in PARTNERSHIP_FORMATS:
        teams = {"A & C": ["A", "C"], "B & D": ["B", "D"]}
    else:
        most = most_seats(variant)
        if most < 4:
            names = names[:most]
    return rules.Game.create(variant, names, house_rules=house_rules, teams=teams)


def check_setup(setup: EventSetup) -> None:
    """Refuse a setup the app cannot run (EventError naming what), or whose game the engine
    refuses (RuleError)."""
    if setup.kind not in EVENT_KINDS:
        raise EventError("bad-kind", value=setup.kind)
    if setup.format not in EVENT_FORMATS:
        raise EventError("bad-format", value=setup.format)
    if not 1 <= setup.rounds <= MAX_ROUNDS:
        raise EventError("bad-rounds", max=MAX_ROUNDS)
    if setup.round_minutes is not None and not 1 <= setup.round_minutes <= MAX_ROUND_MINUTES:
        raise EventError("bad-minutes", max=MAX_ROUND_MINUTES)
    if setup.prize_split is not None:
        if not setup.prize_split or any(p <= 0 for p in setup.prize_split):
            raise EventError("bad-split")
        if sum(setup.prize_split) != 100:
            raise EventError("split-not-100", total=sum(setup.prize_split))
    check_knockout_setup(setup.format, setup.knockout_size, setup.best_of)
    table_game_check(setup.format, setup.variant, setup.house_rules)


def create_event(setup: EventSetup) -> int:
    """Store a new event (checked: ``check_setup``); return its id."""
    check_setup(setup)
    with write_transaction():
        if setup.season_id is not None:
            season(setup.season_id)
        inserted = run(
            insert(EVENT),
            {
                "name": setup.name,
                "kind": "league" if setup.season_id is not None else setup.kind,
                "date": setup.day,
                "place": setup.place,
                "format": setup.format,
                "variant": setup.variant,
                "house_rules": dict(setup.house_rules),
                "rule_set_name": setup.rule_set_name,
                "rounds": setup.rounds,
                "round_minutes": setup.round_minutes,
                "entry_fee": setup.entry_fee,
                "prize_split": setup.prize_split,
                "standings_hidden": setup.standings_hidden,
                "tie_breaks": setup.tie_breaks,
                "season_id": setup.season_id,
                "knockout_size": setup.knockout_size,
                "best_of": setup.best_of if setup.knockout_size is not None else None,
                "version": 0,
                "created_at": utcnow(),
            },
        )
        return int(inserted.inserted_primary_key[0])  # type: ignore[index]  # an INSERT's key


def delete_event(event_id: int) -> None:
    """Delete an event with its rounds and tables; the games played at them are kept."""
    with write_transaction():
        locked_event(event_id, None)
        run(delete(EVENT).where(EVENT.c.id == event_id))


def register(
    event_id: int, names: Sequence[str], *, team: str | None = None, version: int | None = None
) -> list[int]:
    """Add players to an event by name: the roster's (in any spelling), or new ones added to
    it (at the door). Once rounds have started they play from the next round on (a late
    arrival). A player already in the event is left as they are (a withdrawn player comes
    back from the next round). Return their ids."""
    for name in names:
        rules.game.check_name(name, "players")
    with write_transaction():
        info = locked_event(event_id, version)
        started = rounds_started(event_id)
        if started >= info.rounds:
            raise EventError("event-over")
        players = seat_players(list(dict.fromkeys(names)))
        ids = [found for found, _ in players]
        existing = {
            r.player_id: r
            for r in db.session.execute(
                select(ENTRANT).where(ENTRANT.c.event_id == event_id, ENTRANT.c.player_id.in_(ids))
            )
        }
        count = db.session.execute(
            select(func.count()).select_from(ENTRANT).where(ENTRANT.c.event_id == event_id)
        ).scalar_one()
        new = [i for i in ids if i not in existing]
        if count + len(new) > MAX_PLAYERS:
            raise EventError("too-many-players", max=MAX_PLAYERS)
        now = utcnow()
        if new:
            run(
                insert(ENTRANT),
                [
                    {
                        "event_id": event_id,
                        "player_id": i,
                        "from_round": started + 1,
                        "team": team,
                        "created_at": now,
                    }
                    for i in new
                ],
            )
        for row in existing.values():
            if row.withdrawn_after is not None:
                run(
                    update(ENTRANT)
                    .where(ENTRANT.c.id == row.id)
                    .values(withdrawn_after=None, from_round=max(row.from_round, started + 1))
                )
        bump_version(event_id)
        return ids


def withdraw(event_id: int, player_id: int, *, version: int | None = None) -> None:
    """Take a player out of the event: from the next round on (their rounds played count).
    A player who has not played yet is taken off the list altogether."""
    with write_transaction():
        locked_event(event_id, version)
        started = rounds_started(event_id)
        row = db.session.execute(
            select(ENTRANT).where(ENTRANT.c.event_id == event_id, ENTRANT.c.player_id == player_id)
        ).first()
        if row is None:
            raise NotFound("not-in-event", id=player_id, event=event_id)
        if row.from_round > started:
            run(delete(ENTRANT).where(ENTRANT.c.id == row.id))
        else:
            run(update(ENTRANT).where(ENTRANT.c.id == row.id).values(withdrawn_after=started))
        bump_version(event_id)


def set_team(
    event_id: int, player_id: int, team: str | None, *, version: int | None = None
) -> None:
    """Put a player in a fixed team (the teams format), or in none."""
    if team is not None:
        rules.game.check_name(team, "teams")
    with write_transaction():
        locked_event(event_id, version)
        changed = run(
            update(ENTRANT)
            .where(ENTRANT.c.event_id == event_id, ENTRANT.c.player_id == player_id)
            .values(team=team)
        )
        if changed.rowcount == 0:
            raise NotFound("not-in-event", id=player_id, event=event_id)
        bump_version(event_id)


def set_standings_hidden(event_id: int, hidden: bool) -> None:
    """The director's choice: the room's board shows the standings, or hides them until
    the end."""
    with write_transaction():
        locked_event(event_id, None)
        run(update(EVENT).where(EVENT.c.id == event_id).values(standings_hidden=hidden))
        bump_version(event_id)
