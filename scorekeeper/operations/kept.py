"""Which games are kept already: the stored games whose record is identical to a record
about to be imported (the same variant, house rules, players, teams, first dealer, stake
and hands, note for note; its trail aside).

An import asks this before it writes, so the same game brought in twice is not two games
counted twice in the statistics. Only games that could be identical are replayed: those of
the same variant, with the same players in the same seats and as many hands.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from .. import rules
from ..data import models
from ..data.database import run
from .loading import load_many
from .statements import SEATED_OF

#: How many candidate games are replayed at a time (a list page's three queries each).
_CHUNK = 200


def same_record(record: rules.GameRecord | dict[str, Any]) -> str:
    """The record written one way (keys sorted, no spaces): two records are the same game
    exactly when these are equal."""
    document = (
        rules.record_to_json(record.game, record.hands)
        if isinstance(record, rules.GameRecord)
        else record
    )
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def kept_like(records: Sequence[rules.GameRecord]) -> list[list[int]]:
    """For each record, the ids of the stored games identical to it, oldest first."""
    wanted = {(r.game.variant.key, r.game.players, len(r.hands)) for r in records}
    if not wanted:
        return []
    game, hand = models.Game.__table__, models.Hand.__table__
    counted = (
        select(game.c.id, game.c.variant, func.count(hand.c.id).label("hands"))
        .select_from(game.outerjoin(hand, hand.c.game_id == game.c.id))
        .where(game.c.variant.in_({variant for variant, _, _ in wanted}))
        .group_by(game.c.id, game.c.variant)
        .order_by(game.c.id)
    )
    shaped = {row.id: (row.variant, row.hands) for row in run(counted)}
    players: dict[int, list[str]] = {}
    ids = list(shaped)
    for start in range(0, len(ids), _CHUNK):
        for seat in run(SEATED_OF, {"game_ids": ids[start : start + _CHUNK]}):
            players.setdefault(seat.game_id, []).append(seat.name)
    candidates = [
        game_id
        for game_id, (variant, hands) in shaped.items()
        if (variant, tuple(players.get(game_id, ())), hands) in wanted
    ]
    by_record: dict[str, list[int]] = {}
    for start in range(0, len(candidates), _CHUNK):
        loaded = load_many(candidates[start : start + _CHUNK])
        for game_id in candidates[start : start + _CHUNK]:
            found = loaded.get(game_id)
            if found is not None and not isinstance(found, rules.RuleError):
                # The game and its hands, not its trail: the same game played is the same
                # game however its changes were kept.
                record = rules.record_to_json(found.game, found.hands)
                by_record.setdefault(same_record(record), []).append(game_id)
    return [by_record.get(same_record(r), []) for r in records]
