"""Reading the history: a page of the games the filters pick, and the games to print.

The filters (``filters.HistoryFilters``) say which games; this module runs the queries,
and hands the page back as game numbers (the games themselves are read with
``operations.loading.load_many``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, and_, or_, select

from ..data import models
from ..data.extensions import db
from .filters import HistoryFilters


def game_count(filters: HistoryFilters) -> int:
    """How many games the filters pick."""
    found: int = db.session.execute(filters.count()).scalar_one()
    return found


def games_and_versions(filters: HistoryFilters) -> list[tuple[int, int]]:
    """The number and version of every game the filters pick, newest first (to print)."""
    game = models.Game
    return [
        (game_id, version)
        for game_id, version in db.session.execute(
            filters.query().with_only_columns(game.id, game.version)
        )
    ]


def page_of_games(
    filters: HistoryFilters, page: int, size: int, cursor: tuple[str, int] | None
) -> tuple[list[int], int]:
    """Return the numbers of a page of the games the filters pick, and that page's number.

    The pager's links name the game the next page starts from, so a page is found
    by the index on the date (a seek), however far back it is, and games saved in
    the meantime do not push a game onto two pages. A link with only a page number
    (or from a game since deleted) counts its way there instead.
    """
    game = models.Game
    query: Select[Any] = filters.query().with_only_columns(game.id)
    if cursor is not None:
        direction, game_id = cursor
        mark = db.session.execute(
            select(game.created_at).where(game.id == game_id)
        ).scalar_one_or_none()
        if mark is not None and direction == "before":
            older = and_(game.created_at <= mark, or_(game.created_at < mark, game.id < game_id))
            ids = db.session.execute(query.where(older).limit(size)).scalars().all()
            if ids:
                return list(ids), page
        elif mark is not None:
            newer = and_(game.created_at >= mark, or_(game.created_at > mark, game.id > game_id))
            ascending = query.where(newer).order_by(None).order_by(game.created_at, game.id)
            ids = db.session.execute(ascending.limit(size)).scalars().all()
            if len(ids) == size:
                return list(reversed(ids)), page
            page = 1  # less than a page of newer games: the newest page
    ids = db.session.execute(query.limit(size).offset((page - 1) * size)).scalars().all()
    return list(ids), page
