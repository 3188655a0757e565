"""Every write to game nights: start, edit, end, delete, and moving games in and out; and
which nights are being played (the ones a new game may be started in)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import func, select, update

from ..data import models
from ..data.database import write_transaction
from ..data.extensions import db
from ..data.models import NIGHT_NAME_MAX as NIGHT_NAME_MAX
from ..data.models import utcnow
from .errors import NotFound

#: A night still open this long after it was started is taken to be over (someone forgot to end it).
CURRENT_FOR = timedelta(hours=18)


def open_night_ids(now: datetime | None = None) -> list[int]:
    """The nights being played, newest first: not ended, started in the last 18 hours.

    Several tables may each have one on. A new game joins one only when it is started from
    it (its page, or a game played at it) or chosen on the new-game form: never because it
    happens to be open."""
    since = (now or utcnow()) - CURRENT_FOR
    return list(
        db.session.execute(
            select(models.Night.id)
            .where(models.Night.ended_at.is_(None), models.Night.created_at >= since)
            .order_by(models.Night.created_at.desc(), models.Night.id.desc())
        ).scalars()
    )


def _night(night_id: int) -> models.Night:
    night = db.session.get(models.Night, night_id)
    if night is None:
        raise NotFound("no-night", id=night_id)
    return night


def start_night(name: str, place: str | None, day: date) -> int:
    """Start a night. Nights another table has on stay on: each table ends its own."""
    with write_transaction():
        night = models.Night(name=name, place=place, date=day, created_at=utcnow())
        db.session.add(night)
        db.session.flush()
        return night.id


def edit_night(night_id: int, name: str, place: str | None, day: date) -> None:
    """Change a night's name, place or date."""
    with write_transaction():
        night = _night(night_id)
        night.name, night.place, night.date = name, place, day


def end_night(night_id: int) -> None:
    """End a night: new games no longer join it."""
    with write_transaction():
        night = _night(night_id)
        if night.ended_at is None:
            night.ended_at = utcnow()


def delete_night(night_id: int) -> int:
    """Delete a night; its games stay, in no night. Return how many games it had."""
    with write_transaction():
        night = _night(night_id)
        moved = db.session.execute(
            select(func.count()).select_from(models.Game).where(models.Game.night_id == night_id)
        ).scalar_one()
        db.session.execute(
            update(models.Game).where(models.Game.night_id == night_id).values(night_id=None)
        )
        db.session.delete(night)
        return int(moved)


def add_game(night_id: int, game_id: int) -> int | None:
    """Put a game into a night; return the night it was taken from, if any."""
    with write_transaction():
        _night(night_id)
        game = db.session.execute(
            select(models.Game).where(models.Game.id == game_id).with_for_update()
        ).scalar_one_or_none()
        if game is None:
            raise NotFound(id=game_id)
        previous = game.night_id
        game.night_id = night_id
        return previous if previous != night_id else None


def remove_game(night_id: int, game_id: int) -> None:
    """Take a game out of a night (the game itself stays)."""
    with write_transaction():
        game = db.session.get(models.Game, game_id)
        if game is None or game.night_id != night_id:
            raise NotFound("not-in-night", id=game_id, night=night_id)
        game.night_id = None
