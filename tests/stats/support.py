"""Helpers for the statistics, roster and night tests: games set up through the real app
(the builders, ``import_game``, ``version_of`` and ``ap_form``, are tests/builders.py's,
imported here under the names these tests have always used)."""

from __future__ import annotations

import html
import re
from decimal import Decimal
from typing import Any

from builders import ap_form, import_game, version_of
from sqlalchemy import select

from scorekeeper import operations
from scorekeeper.data import models
from scorekeeper.data.extensions import db
from scorekeeper.stats.cache import cents, line_columns
from scorekeeper.stats.summary import summarise

__all__ = [
    "TOTALS",
    "ap_form",
    "cache_and_replay",
    "figures",
    "flashes",
    "import_game",
    "line_columns_keys",
    "night_of",
    "player_id",
    "text",
    "version_of",
]


def player_id(app: Any, name: str) -> int:
    with app.app_context():
        found = db.session.execute(
            select(models.Player.id).where(models.Player.name == name)
        ).scalar_one()
        db.session.remove()
    return int(found)


def night_of(app: Any, game_id: int) -> int | None:
    with app.app_context():
        night = db.session.get(models.Game, game_id).night_id
        db.session.remove()
    return night


def cache_and_replay(app: Any) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Return the statistics cache, and the same worked out by replaying every game.

    Keys are (game id, player) for the per-game rows and ("totals", player) for
    each player's totals; equal dicts mean the cache is exactly what a replay says.
    """
    with app.app_context():
        cached: dict[Any, Any] = {
            (pg.game_id, pg.player.name): {
                **{k: getattr(pg, k) for k in line_columns_keys()},
                "played_at": pg.played_at,
                "variant": pg.variant,
            }
            for pg in db.session.execute(select(models.PlayerGame)).scalars()
        }
        for stats, name in db.session.execute(
            select(models.PlayerStats, models.Player.name).join(
                models.Player, models.Player.id == models.PlayerStats.player_id
            )
        ).all():
            cached[("totals", name)] = {k: getattr(stats, k) for k in TOTALS}
        fresh: dict[Any, Any] = {}
        for name in db.session.execute(select(models.Player.name)).scalars():
            fresh[("totals", name)] = {**dict.fromkeys(TOTALS, 0), "money": None, "cents": None}
        for game_id in db.session.execute(select(models.Game.id)).scalars():
            loaded = operations.loading.load(game_id)
            for name, line in summarise(loaded.result).items():
                fresh[(game_id, name)] = {
                    **line_columns(line),
                    "played_at": loaded.row.created_at,
                    "variant": loaded.row.variant,
                }
                total = fresh[("totals", name)]
                total["entered"] += 1
                total["games"] += line.finished
                total["won"] += line.won
                for key in TOTALS[3:-2]:
                    total[key] += getattr(line, key)
                if line.money is not None:
                    money = Decimal(total["money"] or 0) + line.money
                    total["money"], total["cents"] = format(money, "f"), cents(money)
        db.session.remove()
    return cached, fresh


TOTALS = (
    "entered",
    "games",
    "won",
    "bids",
    "bids_made",
    "bid_total",
    "set_backs",
    "smudges_attempted",
    "smudges_made",
    "holes",
    "units",
    "money",
    "cents",
)


def line_columns_keys() -> list[str]:
    """A player's line of one game: its place and result, then the totals from the bids on."""
    return ["position", "team", "finished", "won", "score", "hands", *TOTALS[3:]]


def text(page: str) -> str:
    """A page's visible text, tags dropped and spaces squeezed."""
    page = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"</?(strong|em|b|small|span|a|bdi)\b[^>]*>", "", page)  # inline: no space
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def figures(page: str) -> dict[str, str]:
    """The figures of a player page: each <dt> label with its <dd> value, as text."""
    pairs = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", page, flags=re.S)
    return {text(label): text(value) for label, value in pairs}


def flashes(page: str) -> list[str]:
    return [text(m) for m in re.findall(r'<p class="flash[^"]*">(.*?)</p>', page, flags=re.S)]
