"""Reading games for the pages that list them, as plain values (never ORM rows).

A game's own page reads it through ``operations.loading.load``; this module answers the
questions around it: the games being played and the ones finished lately (the front
page), a game's version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select

from ..data import models
from ..data.extensions import db

_GAME = models.Game.__table__
_SEAT = models.Seat.__table__
_PLAYER = models.Player.__table__
_HAND = models.Hand.__table__


@dataclass(frozen=True)
class GameLine:
    """A game in a list: its variant, its players in seat order, how far it has got."""

    id: int
    variant: str
    players: tuple[str, ...]
    hands: int
    winner: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


def playing(limit: int = 20) -> list[GameLine]:
    """The games in progress, the one changed last first."""
    return game_lines(_GAME.c.finished.is_(False), [_GAME.c.updated_at.desc()], limit)


def finished_lately(limit: int = 10) -> list[GameLine]:
    """The games finished last, the latest first."""
    return game_lines(_GAME.c.finished.is_(True), [_GAME.c.finished_at.desc()], limit)


def game_lines(where: ColumnElement[bool], order: list[Any], limit: int) -> list[GameLine]:
    """The games ``where`` says, in ``order``, in three queries: the games, their players,
    their hand counts."""
    games = db.session.execute(select(_GAME).where(where).order_by(*order).limit(limit)).all()
    ids = [game.id for game in games]
    if not ids:
        return []
    players: dict[int, list[str]] = {}
    for game_id, name in db.session.execute(
        select(_SEAT.c.game_id, _PLAYER.c.name)
        .select_from(_SEAT.join(_PLAYER, _SEAT.c.player_id == _PLAYER.c.id))
        .where(_SEAT.c.game_id.in_(ids))
        .order_by(_SEAT.c.game_id, _SEAT.c.position)
    ):
        players.setdefault(game_id, []).append(name)
    hands: dict[int, int] = dict(
        db.session.execute(
            select(_HAND.c.game_id, func.count())
            .where(_HAND.c.game_id.in_(ids))
            .group_by(_HAND.c.game_id)
        ).all()
    )
    return [
        GameLine(
            id=game.id,
            variant=game.variant,
            players=tuple(players.get(game.id, ())),
            hands=hands.get(game.id, 0),
            winner=game.winner,
            created_at=game.created_at,
            updated_at=game.updated_at,
            finished_at=game.finished_at,
        )
        for game in games
    ]


def game_version(game_id: int) -> int | None:
    """A game's version (it goes up with every change); None if there is no such game."""
    found: int | None = db.session.execute(
        select(models.Game.version).where(models.Game.id == game_id)
    ).scalar()
    return found
