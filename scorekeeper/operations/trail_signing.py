"""A game's result signed by a player of each side; the last signature locks it, and the
organiser or the director opens it again (``unlock``), in the trail too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..data.database import run
from ..data.models import utcnow
from ..i18n import isolated
from .errors import OperationError
from .loading import load
from .rows import GameRow, Loaded
from .statements import UPDATE_GAME
from .trail import (
    LOCKED,
    SCORE_KINDS,
    SIGNED,
    UNLOCKED,
    Entry,
    NotTheirs,
    Signed,
    append,
    clean_label,
    current_who,
    entries,
    marked,
    may_change_signed,
    player,
    write_answer,
)
from .trail_changes import settlement_json


@dataclass(frozen=True)
class Signatures:
    """Who signed the result as it stands, by side, and whether the game is locked."""

    by_side: Mapping[str, str]
    locked_at: datetime | None

    def missing(self, sides: Sequence[str]) -> list[str]:
        return [s for s in sides if s not in self.by_side]


def signatures(chain: Sequence[Entry], row: GameRow) -> Signatures:
    """The signatures given since the scores last changed (or the game was unlocked)."""
    by_side: dict[str, str] = {}
    for entry in chain:
        after_signing = isinstance(entry.detail, dict) and entry.detail.get("signed")
        if (entry.kind in SCORE_KINDS and not after_signing) or entry.kind == UNLOCKED:
            by_side = {}
        elif entry.kind == SIGNED and isinstance(entry.detail, dict):
            by_side[str(entry.detail.get("side"))] = entry.name or ""
    return Signatures(by_side, row.signed_at)


def sign(game_id: int, name: str, *, label: str | None = None) -> bool:
    """``name`` signs the finished game's result and settlement for their side; once a
    player of every side has, the game is locked. Return whether it is locked now."""

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        if not loaded.result.finished:
            raise OperationError("not-finished", id=game_id)
        if name not in loaded.game.players:
            raise NotTheirs("not-a-player", name=isolated(name))
        side = loaded.game.side_of(name)
        chain = entries(loaded.row)
        signed = signatures(chain, loaded.row)
        if loaded.row.signed_at is not None or side in signed.by_side:
            return loaded  # signed already: nothing to add
        label_given = clean_label(label)
        append(
            loaded.row,
            SIGNED,
            who=player(name),
            detail={
                "side": side,
                "winner": loaded.result.winner,
                "scores": dict(loaded.result.scores),
                "settlement": settlement_json(loaded.result),
                **({"device": label_given} if label_given else {}),
            },
        )
        if not signed.missing([s for s in loaded.game.sides if s != side]):
            now = utcnow().replace(microsecond=0)
            append(loaded.row, LOCKED, who=player(name))
            run(UPDATE_GAME, {"game_id": game_id, "signed_at": now})
            return marked(loaded, signed_at=now)
        return marked(loaded)

    changed = write_answer(action)
    return changed.row.signed_at is not None


def unlock(game_id: int, *, who: str | None = None) -> None:
    """Open a signed game again (the organiser or the director only); the signatures given
    no longer count, and the trail keeps it."""

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        if loaded.row.signed_at is None:
            return loaded
        if not may_change_signed(current_who(who)):
            raise Signed(game=game_id, at=loaded.row.signed_at.strftime("%H:%M"))
        append(loaded.row, UNLOCKED, who=who)
        run(UPDATE_GAME, {"game_id": game_id, "signed_at": None})
        return marked(loaded, signed_at=None)

    write_answer(action)
