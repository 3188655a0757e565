"""What the setup form reads: a night's name, and the game a rematch starts from."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from .. import operations, rules
from ..data import models
from ..data.extensions import db
from ..operations.errors import NotFound
from ..operations.rows import Loaded
from ..web.routing import parse_id


@dataclass(frozen=True)
class NightName:
    """What the setup form says of the night a new game joins."""

    id: int
    name: str
    place: str | None


def night_name(night_id: int) -> NightName | None:
    """A night's name and place; None if there is no such night."""
    found = db.session.execute(
        select(models.Night.id, models.Night.name, models.Night.place).where(
            models.Night.id == night_id
        )
    ).first()
    return None if found is None else NightName(found.id, found.name, found.place)


def rematch_of(variant: rules.Variant, wanted: str) -> Loaded | None:
    """The game named by ``?again=<id>`` when it is a game of ``variant`` (else None: the form
    opens empty, as without the link)."""
    game_id = parse_id(wanted)
    if game_id is None:
        return None
    try:
        loaded = operations.loading.load(game_id)
    except NotFound:
        return None
    return loaded if loaded.game.variant.key == variant.key else None
