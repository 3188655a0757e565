"""Helpers for the statistics, roster and night tests: games set up through the real app."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from scorekeeper import operations
from scorekeeper.data import models
from scorekeeper.data.extensions import db
from scorekeeper.stats.cache import cents, line_columns
from scorekeeper.stats.summary import summarise


def import_game(client: Any, record: Mapping[str, Any]) -> int:
    """Create a game from a record posted as a JSON body (the real import); return its id."""
    response = client.post("/games/import", json=record)
    if response.status_code == 409:  # the same game kept already: asked for again
        response = client.post(f"/games/import?again={response.get_json()['game']}", json=record)
    assert response.status_code == 201, response.get_data(as_text=True)
    return int(response.get_json()["id"])


def version_of(client: Any, game_id: int) -> int:
    return int(client.get(f"/games/{game_id}/version.json").get_json()["version"])


def ap_form(
    players: list[str],
    pitcher: str,
    bid: int,
    high: str,
    low: str,
    jack: str | None,
    game: str | None,
    version: int,
) -> dict[str, str]:
    """The Auction Pitch hand form as its tap buttons post it (seat numbers, 'nobody')."""
    seat = {name: str(i) for i, name in enumerate(players)}

    def taker(name: str | None) -> str:
        return "nobody" if name is None else seat[name]

    return {
        "pitcher": seat[pitcher],
        "bid": str(bid),
        "version": str(version),
        "point_high": taker(high),
        "point_low": taker(low),
        "point_jack": taker(jack),
        "point_game": taker(game),
    }


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
    return [
        "position",
        "team",
        "finished",
        "won",
        "score",
        "hands",
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
    ]


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
