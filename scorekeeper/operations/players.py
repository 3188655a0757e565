"""Every write to the roster: seat players by name, rename one, merge two spellings of one person.

One person is one player: names are compared by ``rules.game.name_key`` (case, width,
accents written either way and characters that draw nothing all ignored), and the
database holds each key once (``models.NAME_KEY_INDEX``), so two requests that add "Ana"
and "ana" at the same moment make one player, and two renames to them at once leave one
refused with words, never two players.

Names live only on the roster (hands store seats), so a rename changes one row
plus the cached winner of the player's individual games. Each changed game's
version goes up, so a hand form opened before (with the old names) is refused
with the usual "the score sheet changed" message instead of recording a stranger.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..data import models
from ..data.database import insert_skipping_conflicts, run, unique_broken, write_transaction
from ..data.extensions import db
from ..data.models import NAME_KEY_INDEX, utcnow
from ..live import broker as live
from ..rules.game import check_name, name_key
from ..stats import cache as stats_cache
from .errors import Conflict, NotFound, RosterError

PLAYER = models.Player.__table__
#: The unique index on the name keys.
NAME_KEY = next(index for index in PLAYER.indexes if index.name == NAME_KEY_INDEX)


def seat_players(names: Sequence[str]) -> list[tuple[int, str]]:
    """The roster's player for each name, in order: its id and its name as the roster spells
    it, adding the new ones (open transaction). A name the roster holds in another spelling
    ("ana" for "Ana") is that player.

    A new name added by another request at the same moment is that request's player: the
    insert skips a key already there (on PostgreSQL it waits for the other to commit), and
    the players are read again.
    """
    keys = [name_key(name) for name in names]
    found = _players_keyed(keys)
    new = {key: name for key, name in zip(keys, names, strict=True) if key not in found}
    if new:
        now = utcnow()
        run(
            insert_skipping_conflicts(PLAYER, NAME_KEY),
            [{"name": name, "name_key": key, "created_at": now} for key, name in new.items()],
        )
        found.update(_players_keyed(list(new)))
    return [found[key] for key in keys]


def _players_keyed(keys: Sequence[str]) -> dict[str, tuple[int, str]]:
    return {
        row.name_key: (row.id, row.name)
        for row in run(
            select(PLAYER.c.id, PLAYER.c.name, PLAYER.c.name_key).where(
                PLAYER.c.name_key.in_(list(keys))
            )
        )
    }


def _holder(key: str) -> models.Player | None:
    """The player whose name has this key, if any."""
    return db.session.execute(
        select(models.Player).where(models.Player.name_key == key)
    ).scalar_one_or_none()


def _locked(player_ids: Sequence[int]) -> dict[int, models.Player]:
    """The players that still exist of ``player_ids``, locked in id order (after their games,
    as a hand being saved locks its game before its players) and read afresh."""
    return {
        player.id: player
        for player in db.session.execute(
            select(models.Player)
            .where(models.Player.id.in_(list(player_ids)))
            .order_by(models.Player.id)
            # FOR NO KEY UPDATE, as stats.cache locks players: a new seat's FOR KEY SHARE
            # on the player (a game being set up) need not wait for it.
            .with_for_update(key_share=True)
            .execution_options(populate_existing=True)
        ).scalars()
    }


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
        game.score_version = game.version
        live.changed(game.id, game.version)


def _hand_key_on(key: str) -> None:
    """Give a key no player holds any more to the oldest player left without one whose name
    it is (another spelling the name keys' migration found), so the roster holds it again."""
    unkeyed = db.session.execute(
        select(models.Player)
        .where(models.Player.name_key.is_(None))
        .order_by(models.Player.created_at, models.Player.id)
    ).scalars()
    heir = next((player for player in unkeyed if name_key(player.name) == key), None)
    if heir is not None:
        heir.name_key = key


def rename_player(player_id: int, name: str) -> str:
    """Rename a player everywhere; return the old name. Raise RosterError if another player
    has the name in any spelling (and the engine's RuleError if it is no name)."""
    check_name(name, "name")
    key = name_key(name)
    try:
        with write_transaction():
            games = _games_of(player_id)
            player = _locked([player_id]).get(player_id)
            if player is None:
                raise NotFound("no-player", id=player_id)
            old, old_key = player.name, player.name_key
            if name == old:
                return old
            # "ana" is "Ana": another spelling of a name on the roster is taken too (changing
            # one's own spelling is not).
            taken = _holder(key)
            if taken is not None and taken.id != player_id:
                raise RosterError("name-taken", name=repr(taken.name))
            _rename_in_games(games, old, name)
            player.name = name
            db.session.flush()
            if old_key is not None and old_key != key:
                _hand_key_on(old_key)
            return old
    except IntegrityError as error:
        # Another rename (or a new game) took the name at the same moment, and committed first.
        if not unique_broken(error, NAME_KEY):
            raise
        taken = _holder(key)
        raise RosterError("name-taken", name=repr(taken.name if taken else name)) from None


def merge_players(keep_id: int, other_id: int) -> int:
    """Make ``other`` (another spelling) part of ``keep``: every game moves; return how many.

    Refused when the two sat at the same game: two seats cannot be one person. A player
    merged away by another request at the same moment (the same two crossed, say) is a
    Conflict: nothing more is merged.
    """
    if keep_id == other_id:
        raise RosterError("merge-self")
    with write_transaction():
        names = dict(
            db.session.execute(
                select(models.Player.id, models.Player.name).where(
                    models.Player.id.in_([keep_id, other_id])
                )
            ).all()
        )
        for player_id in (keep_id, other_id):
            if player_id not in names:
                raise NotFound("no-player", id=player_id)
        games = _games_of(other_id)
        locked = _locked([keep_id, other_id])
        gone = next((i for i in (keep_id, other_id) if i not in locked), None)
        if gone is not None:
            raise Conflict("merged-meanwhile", name=names[gone])
        keep, other = locked[keep_id], locked[other_id]
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
        freed = other.name_key
        db.session.flush()
        db.session.expunge(other)
        db.session.execute(
            delete(models.PlayerStats).where(models.PlayerStats.player_id == other_id)
        )
        db.session.execute(delete(models.Player).where(models.Player.id == other_id))
        if freed is not None:
            _hand_key_on(freed)
        stats_cache.refresh_players([keep_id])
        return len(games)
