"""Generated games (``seed.generate``) written with their nights and statistics, many rows a
statement."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, text

from .. import rules
from ..data import models
from ..data.database import write_transaction
from ..data.extensions import db
from ..rules.game import name_key
from ..stats import cache as stats_cache
from .rows import hand_columns


@dataclass(frozen=True)
class SeededGame:
    """A game made up by the seed, with when it was played and its result."""

    night: int
    started_at: datetime
    game: rules.Game
    hands: list[rules.Hand]
    result: rules.GameResult


@dataclass(frozen=True)
class SeededNight:
    """A night made up by the seed (its games name it by ``number``)."""

    number: int
    name: str
    place: str | None
    day: date


def write_seeded(items: Iterable[SeededNight | SeededGame], *, chunk: int = 500) -> dict[str, int]:
    """Write generated games (``seed.generate``) with their nights and statistics in one
    transaction, many rows a statement: seeding 10,000 games one ``store_record`` at a
    time would take minutes."""
    from ..stats.summary import summarise

    counts = {"nights": 0, "games": 0, "hands": 0}
    with write_transaction():
        session = db.session
        # By the names' keys: a made-up "Ana" is the roster's "ana", if there is one.
        player_ids = dict(session.execute(select(models.Player.name_key, models.Player.id)).all())
        next_game = (session.execute(select(func.max(models.Game.id))).scalar() or 0) + 1
        next_night = (session.execute(select(func.max(models.Night.id))).scalar() or 0) + 1
        night_ids: dict[int, int] = {}
        rows: dict[str, list[dict[str, Any]]] = {"game": [], "seat": [], "hand": [], "pg": []}

        def flush() -> None:
            for table, key in (
                (models.Game, "game"),
                (models.Seat, "seat"),
                (models.Hand, "hand"),
                (models.PlayerGame, "pg"),
            ):
                if rows[key]:
                    session.execute(insert(table.__table__), rows[key])
                    rows[key] = []

        for item in items:
            if isinstance(item, SeededNight):
                night_ids[item.number] = next_night
                end = datetime(item.day.year, item.day.month, item.day.day, 23, 30)
                session.execute(
                    insert(models.Night.__table__),
                    [
                        {
                            "id": next_night,
                            "name": item.name,
                            "place": item.place,
                            "date": item.day,
                            "created_at": end - timedelta(hours=5),
                            "ended_at": end,
                        }
                    ],
                )
                next_night += 1
                counts["nights"] += 1
                continue
            game, result = item.game, item.result
            new = [name for name in game.players if name_key(name) not in player_ids]
            if new:
                for name in new:
                    player_ids[name_key(name)] = session.execute(
                        insert(models.Player.__table__)
                        .values(name=name, name_key=name_key(name), created_at=item.started_at)
                        .returning(models.Player.__table__.c.id)
                    ).scalar_one()
            seat_of = {name: i for i, name in enumerate(game.players)}
            game_id = next_game
            next_game += 1
            done = item.started_at + timedelta(minutes=2 * len(item.hands) + 1)
            rows["game"].append(
                {
                    "id": game_id,
                    "variant": game.variant.key,
                    "house_rules": dict(game.house_rules_given),
                    "teams": [[t, [seat_of[p] for p in m]] for t, m in game.teams]
                    if game.teams
                    else None,
                    "first_dealer_seat": seat_of[game.first_dealer] if game.first_dealer else None,
                    "stake": game.stake,
                    "called": game.called,
                    "version": len(item.hands) + 1,
                    "score_version": len(item.hands) + 1,
                    "finished": result.finished,
                    "winner": result.winner,
                    "created_at": item.started_at,
                    "updated_at": done,
                    "finished_at": done if result.finished else None,
                    "night_id": night_ids[item.night],
                }
            )
            rows["seat"] += [
                {"game_id": game_id, "position": i, "player_id": player_ids[name_key(name)]}
                for i, name in enumerate(game.players)
            ]
            rows["hand"] += [
                {
                    "game_id": game_id,
                    "number": n,
                    "created_at": item.started_at + timedelta(minutes=2 * n),
                    **hand_columns(hand, seat_of),
                }
                for n, hand in enumerate(item.hands, start=1)
            ]
            rows["pg"] += [
                {
                    "game_id": game_id,
                    "player_id": player_ids[name_key(name)],
                    "played_at": item.started_at,
                    "variant": game.variant.key,
                    **stats_cache.line_columns(line),
                }
                for name, line in summarise(result).items()
            ]
            counts["games"] += 1
            counts["hands"] += len(item.hands)
            if counts["games"] % chunk == 0:
                flush()
        flush()
        stats_cache.rebuild_all_players()
        if db.engine.dialect.name == "postgresql":
            # The ids were given explicitly: move the sequences past them.
            for table in ("game", "night"):
                session.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
                    )
                )
    return counts
