"""Every write to the roster: rename a player, merge two spellings of one person.

Names live only on the roster (hands store seats), so a rename changes one row
plus the cached winner of the player's individual games. Each changed game's
version goes up, so a hand form opened before (with the old names) is refused
with the usual "the score sheet changed" message instead of recording a stranger.
"""

from __future__ import annotations

from sqlalchemy import delete, func, select, update

from ..data import models
from ..data.database import write_transaction
from ..data.extensions import db
from ..live import broker as live
from ..rules.game import check_name, name_key
from ..stats import cache as stats_cache
from .errors import NotFound, RosterError


def _player(player_id: int) -> models.Player:
    player = db.session.get(models.Player, player_id)
    if player is None:
        raise NotFound("no-player", id=player_id)
    return player


def _games_of(player_id: int) -> list[models.Game]:
    """The player's games, locked in id order (a hand being saved locks its game first too)
    and read afresh, so each version bump counts from the one a saved hand committed."""
    return list(
        db.session.execute(
            select(models.Game)
            .join(models.Seat, models.Seat.game_id == models.Game.id)
            .where(models.Seat.player_id == player_id)
            .order_by(models.Game.id)
            .with_for_update(of=models.Game)
            .execution_options(populate_existing=True)
        ).scalars()
    )


def _rename_in_games(games: list[models.Game], old: str, new: str) -> None:
    """Follow a new name in the games' cached winner (individual play names it); bump versions."""
    for game in games:
        if game.teams is None and game.winner == old:
            game.winner = new
        game.version = (game.version or 0) + 1
        live.changed(game.id, game.version)


def rename_player(player_id: int, name: str) -> str:
    """Rename a player everywhere; return the old name. Raise RosterError if the name is taken
    (and the engine's RuleError if it is no name)."""
    check_name(name, "name")
    with write_transaction():
        player = _player(player_id)
        old = player.name
        if name == old:
            return old
        # "ana" is "Ana": another spelling of a name on the roster is taken too (compared
        # here, not in SQL: SQLite's lower() folds only ASCII letters).
        taken = next(
            (
                found
                for found_id, found in db.session.execute(
                    select(models.Player.id, models.Player.name)
                ).all()
                if found_id != player_id and name_key(found) == name_key(name)
            ),
            None,
        )
        if taken is not None:
            raise RosterError("name-taken", name=repr(taken))
        _rename_in_games(_games_of(player_id), old, name)
        player.name = name
        return old


def merge_players(keep_id: int, other_id: int) -> int:
    """Make ``other`` (another spelling) part of ``keep``: every game moves; return how many.

    Refused when the two sat at the same game: two seats cannot be one person.
    """
    if keep_id == other_id:
        raise RosterError("merge-self")
    with write_transaction():
        keep, other = _player(keep_id), _player(other_id)
        shared = (
            db.session.execute(
                select(models.Seat.game_id)
                .where(models.Seat.player_id.in_([keep_id, other_id]))
                .group_by(models.Seat.game_id)
                .having(func.count() > 1)
                .order_by(models.Seat.game_id)
            )
            .scalars()
            .all()
        )
        if shared:
            listed = ", ".join(str(g) for g in shared[:10]) + (" …" if len(shared) > 10 else "")
            raise RosterError(
                "shared-games", num=len(shared), keep=keep.name, other=other.name, games=listed
            )
        games = _games_of(other_id)
        _rename_in_games(games, other.name, keep.name)
        db.session.execute(
            update(models.Seat).where(models.Seat.player_id == other_id).values(player_id=keep_id)
        )
        db.session.execute(
            update(models.PlayerGame)
            .where(models.PlayerGame.player_id == other_id)
            .values(player_id=keep_id)
        )
        if other.created_at < keep.created_at:
            keep.created_at = other.created_at
        db.session.flush()
        db.session.expunge(other)
        db.session.execute(
            delete(models.PlayerStats).where(models.PlayerStats.player_id == other_id)
        )
        db.session.execute(delete(models.Player).where(models.Player.id == other_id))
        stats_cache.refresh_players([keep_id])
        return len(games)
