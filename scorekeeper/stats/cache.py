"""Write each game's per-player summary as ``PlayerGame`` rows (the statistics cache).

Every write in ``operations`` calls ``refresh_game`` with the game's fresh
result, inside the same transaction, so the cache can never disagree with the
hands for longer than a rolled-back transaction. Deleting a game deletes its
rows (``forget_game``, and the foreign key's cascade). Each time, the players'
totals (``PlayerStats``, what the roster shows) move by the difference between
the game's old rows and its new ones, so a hand costs the same with ten games
stored or ten thousand; ``refresh_players`` adds them up again from every row
(after a merge, a bulk load, or where money leaves a total).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from decimal import Decimal, localcontext
from typing import Any

from sqlalchemy import Join, Row, Table, bindparam, case, delete, func, insert, select, update

from .. import rules
from ..data import models
from ..data.database import run
from ..data.extensions import db
from ..rules.night import EXACT
from .summary import SUMMED, PlayerLine, summarise

#: Larger cached amounts keep only their exact text: their cents could overflow a SQL sum.
CENTS_LIMIT = 10**12


def cents(money: Decimal | None) -> int | None:
    """Return an amount in whole cents; None when there is none or it is too large for a SQL sum."""
    if money is None:
        return None
    with localcontext(EXACT):
        value = int(money.scaleb(2))
    return value if abs(value) < CENTS_LIMIT else None


def line_columns(line: PlayerLine) -> dict[str, Any]:
    """Turn a player's game summary into ``PlayerGame`` column values (all but the keys)."""
    return {
        "position": line.position,
        "team": line.team,
        "finished": line.finished,
        "won": line.won,
        "score": line.score,
        "hands": line.hands,
        **{name: getattr(line, name) for name in SUMMED},
        "money": None if line.money is None else format(line.money, "f"),
        "cents": cents(line.money),
    }


# Statements every hand runs are built once, here: building one costs more than running it.
PG = models.PlayerGame
_ROWS = PG.__table__
_TOTALS = models.PlayerStats.__table__
_ROWS_OF_GAME = select(_ROWS).where(_ROWS.c.game_id == bindparam("game_id"))
#: A game's rows as the extra columns of a query that joins them to their game
#: (``joined_to``), each named ``stats_<column>``: a change reads them with its game's lock.
JOINED = [column.label(f"stats_{column.name}") for column in _ROWS.columns]

_UPDATE_ROW = update(_ROWS).where(_ROWS.c.id == bindparam("row_id"))
#: Players' totals, locked until the transaction ends (on PostgreSQL; SQLite's write
#: transaction already holds its one lock), in id order as every locker of them goes.
_TOTALS_OF = (
    select(_TOTALS)
    .where(_TOTALS.c.player_id.in_(bindparam("ids", expanding=True)))
    .order_by(_TOTALS.c.player_id)
    .with_for_update(key_share=True)
)
_UPDATE_TOTALS = update(_TOTALS).where(_TOTALS.c.player_id == bindparam("totals_of"))


def joined_to(games: Table) -> Join:
    """``games`` with each game's rows joined (none for a game with no rows yet)."""
    return games.outerjoin(_ROWS, _ROWS.c.game_id == games.c.id)


def rows_joined(found: Iterable[Row[Any]]) -> dict[int, dict[str, Any]]:
    """One game's rows, by player id, out of a query's rows that carry ``JOINED``."""
    rows: dict[int, dict[str, Any]] = {}
    for joined in found:
        values = joined._mapping
        if values["stats_id"] is not None:
            rows[values["stats_player_id"]] = {
                column.name: values[f"stats_{column.name}"] for column in _ROWS.columns
            }
    return rows


def refresh_game(
    game_id: int,
    played_at: datetime,
    variant: str,
    result: rules.GameResult,
    player_ids: Sequence[int],
    existing: Mapping[int, Mapping[Any, Any]] | None = None,
) -> None:
    """Rewrite a game's cached per-player rows from its fresh result (in the open transaction).

    ``player_ids`` are the ids of the game's players, in seat order (as the engine's).
    ``existing`` are its rows as they are now, by player id, when the caller read them
    (with the game's lock: ``rows_joined``); else they are read here.

    Only the rows that changed are written, and each player's totals move by the
    difference between the game's old rows and its new ones (``add_to_totals``).
    """
    lines = summarise(result)
    if existing is None:
        existing = {
            found.player_id: found for found in run(_ROWS_OF_GAME, {"game_id": game_id}).mappings()
        }
    before: dict[int, Counted] = {pid: counted(found) for pid, found in existing.items()}
    after: dict[int, Counted] = {}
    inserts, updates = [], []
    for player_id, name in zip(player_ids, result.game.players, strict=True):
        values = {"played_at": played_at, "variant": variant, **line_columns(lines[name])}
        after[player_id] = counted(values)
        cached = existing.get(player_id)
        if cached is None:
            inserts.append({"game_id": game_id, "player_id": player_id, **values})
        elif any(cached[column] != value for column, value in values.items()):
            updates.append({"row_id": cached["id"], **values})
    gone = [cached["id"] for pid, cached in existing.items() if pid not in after]
    if gone:
        run(delete(_ROWS).where(_ROWS.c.id.in_(gone)))
    if updates:
        run(_UPDATE_ROW, updates)
    if inserts:
        run(insert(_ROWS), inserts)
    add_to_totals(before, after)


def forget_game(game_id: int) -> None:
    """Delete a game's cached rows and take them out of the players' totals.

    (The foreign key cascades too; this does not rely on it.)
    """
    before = {
        found.player_id: counted(found)
        for found in run(_ROWS_OF_GAME, {"game_id": game_id}).mappings()
    }
    run(delete(_ROWS).where(_ROWS.c.game_id == game_id))
    add_to_totals(before, {})


# --- Per-player totals -----------------------------------------------------------------------


def totals_columns() -> list[Any]:
    """The sums that make a player's totals out of their ``PlayerGame`` rows (SQL)."""
    return [
        func.count(PG.id).label("entered"),
        func.sum(case((PG.finished, 1), else_=0)).label("games"),
        func.sum(case((PG.won, 1), else_=0)).label("won"),
        *(func.sum(getattr(PG, name)).label(name) for name in SUMMED),
        func.sum(PG.cents).label("cents"),
        func.count(PG.money).label("money_rows"),
        func.count(PG.cents).label("cents_rows"),
    ]


def exact_money(row: Any, extra: Any = None) -> Decimal | None:
    """Total a row of ``totals_columns`` in money, exactly (None when no game had a stake).

    SQL adds whole cents; if some amount was too large for that, the exact texts
    of the player's rows (narrowed by ``extra``) are added here instead.
    """
    if not row.money_rows:
        return None
    with localcontext(EXACT):
        if row.cents_rows == row.money_rows:
            return (Decimal(row.cents or 0) / 100).quantize(Decimal("0.01"))
        query = select(PG.money).where(PG.player_id == row.player_id, PG.money.is_not(None))
        if extra is not None:
            query = query.where(extra)
        amounts = db.session.execute(query).scalars()
        return sum((Decimal(m) for m in amounts if m is not None), Decimal(0))


#: A player's part in one game, as it counts in their totals: the counts, then the money text.
Counted = tuple[Any, ...]

#: The totals that count rows (``entered``, ``games``, ``won``), then the summed columns.
COUNTS = ("entered", "games", "won", *SUMMED)

#: A player's counts moved by differences, in place: the row is read and written by the
#: database under its own lock, so games saved at once each add theirs.
_MOVE_TOTALS = (
    update(_TOTALS)
    .where(_TOTALS.c.player_id == bindparam("totals_of"))
    .values({name: _TOTALS.c[name] + bindparam(f"by_{name}") for name in COUNTS})
)


def counted(values: Mapping[Any, Any]) -> Counted:
    """Say what one ``PlayerGame`` row (as column values) adds to its player's totals."""
    return (
        1,
        int(bool(values["finished"])),
        int(bool(values["won"])),
        *(int(values[name]) for name in SUMMED),
        values["money"],
    )


def add_to_totals(before: Mapping[int, Counted], after: Mapping[int, Counted]) -> None:
    """Move players' totals from one game's old rows (``before``) to its new ones (``after``).

    Each maps a player's id to what their row counted (``counted``); a player
    missing from one side had no row there.

    Where no money moves (every hand but a staked game's last), the counts move by their
    differences in one UPDATE, each row locked as it is written. Otherwise the totals are
    read locked, and written back with the money added exactly, as decimal text. A player
    with no totals row (a new player; or one a full count replaced meanwhile), or whose
    money total may go back to none at all (a staked game reopened or deleted), has their
    totals added up again from their rows (``refresh_players``).
    """
    changed = sorted(pid for pid in {*before, *after} if before.get(pid) != after.get(pid))
    if not changed:
        return
    if all(_money(before.get(pid)) == _money(after.get(pid)) for pid in changed):
        moves = [{"totals_of": pid, **_moves(before.get(pid), after.get(pid))} for pid in changed]
        if run(_MOVE_TOTALS, moves).rowcount != len(changed):
            refresh_players(changed)  # which rows were missing is not said: count them all
        return
    current = {found.player_id: found for found in run(_TOTALS_OF, {"ids": changed}).mappings()}
    again: list[int] = []
    updates: list[dict[str, Any]] = []
    for pid in changed:
        old, new = before.get(pid), after.get(pid)
        old_money, new_money = _money(old), _money(new)
        totals = current.get(pid)
        if totals is None or (old_money is not None and new_money is None):
            again.append(pid)
            continue
        values: dict[str, Any] = {"totals_of": pid}
        for name, by in _moves(old, new).items():
            values[name.removeprefix("by_")] = totals[name.removeprefix("by_")] + by
        money = None if totals["money"] is None else Decimal(totals["money"])
        with localcontext(EXACT):
            if old_money is not None:
                money = (money or Decimal(0)) - Decimal(old_money)
            if new_money is not None:
                money = (money or Decimal(0)) + Decimal(new_money)
        values["money"] = None if money is None else format(money, "f")
        values["cents"] = cents(money)
        updates.append(values)
    if updates:
        run(_UPDATE_TOTALS, updates)
    if again:
        refresh_players(again)


def _money(counts: Counted | None) -> Any:
    return None if counts is None else counts[-1]


def _moves(old: Counted | None, new: Counted | None) -> dict[str, int]:
    """How far each count moves from ``old`` to ``new`` (either may be no row)."""
    return {
        f"by_{name}": (new[i] if new is not None else 0) - (old[i] if old is not None else 0)
        for i, name in enumerate(COUNTS)
    }


def refresh_players(player_ids: Iterable[int | None]) -> None:
    """Work out these players' totals again from their ``PlayerGame`` rows (open transaction).

    The players' rows are locked first, in id order: on PostgreSQL two games
    saved at once that share a player then add up one after the other, and the
    second sees the first's rows. Their totals rows are locked next, so that a hand
    moving them meanwhile (``add_to_totals``) is either counted here or waits for this.
    """
    ids = sorted({i for i in player_ids if i is not None})
    if not ids:
        return
    db.session.flush()
    _lock_players(ids)
    _write_totals(ids)


def _lock_players(ids: list[int]) -> None:
    """Lock the players' rows, then their totals rows, in id order, until the transaction ends.

    On SQLite there is nothing to do: the write transaction (BEGIN IMMEDIATE) already
    holds the database's one write lock, and SELECT ... FOR UPDATE is not SQL there.
    """
    if db.session.get_bind().dialect.name == "sqlite":
        return
    player = models.Player.__table__
    run(
        select(player.c.id)
        .where(player.c.id.in_(ids))
        .order_by(player.c.id)
        # FOR NO KEY UPDATE: two refreshes of one player still take turns, but the lock does
        # not wait on the FOR KEY SHARE that this transaction's own new rows (seats, summaries
        # naming the player) take, which deadlocked imports saved at the same moment.
        .with_for_update(key_share=True)
    ).all()
    run(
        select(_TOTALS.c.player_id)
        .where(_TOTALS.c.player_id.in_(ids))
        .order_by(_TOTALS.c.player_id)
        .with_for_update()  # FOR UPDATE: they are deleted and written again
    ).all()


def rebuild_all_players() -> None:
    """Work out every player's totals again (after a bulk load: the seed, a migration)."""
    _write_totals(list(db.session.execute(select(models.Player.id)).scalars()))


def _write_totals(ids: list[int]) -> None:
    stats = models.PlayerStats.__table__
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        rows = db.session.execute(
            select(PG.player_id.label("player_id"), *totals_columns())
            .where(PG.player_id.in_(chunk))
            .group_by(PG.player_id)
        ).all()
        db.session.execute(delete(stats).where(stats.c.player_id.in_(chunk)))
        empty = {"entered": 0, "games": 0, "won": 0, **dict.fromkeys(SUMMED, 0), "money": None}
        values: dict[int, dict[str, Any]] = {
            pid: {"player_id": pid, **empty, "cents": None} for pid in chunk
        }
        for row in rows:
            money = exact_money(row)
            values[row.player_id].update(
                entered=row.entered,
                games=row.games or 0,
                won=row.won or 0,
                **{name: getattr(row, name) or 0 for name in SUMMED},
                money=None if money is None else format(money, "f"),
                cents=cents(money),
            )
        db.session.execute(insert(stats), list(values.values()))
