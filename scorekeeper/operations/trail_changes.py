"""What a change of a game's score writes into its trail: the hand before and after, the
settlement when it moved, the whole record of a deleted game.

Called by ``hands`` and ``games`` in the same transaction as the change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import rules
from ..rules.record import hand_to_json, settlement_output
from ..rules.scoring import usual_dealers
from .rows import Loaded
from .trail import DELETED, RECORDED, REMOVED, UNDONE, append


def hand_json(game: rules.Game, hands: Sequence[rules.Hand], number: int) -> dict[str, Any]:
    """Hand ``number`` of ``hands`` as the game record writes it (GAME-RECORD.md)."""
    usual = usual_dealers(game, hands[:number])
    return hand_to_json(hands[number - 1], usual[number - 1])


def settlement_json(result: rules.GameResult) -> Any:
    return settlement_output(result.settlement) if result.settlement else None


def changed_score(
    before: Loaded,
    after_hands: Sequence[rules.Hand],
    result: rules.GameResult,
    kind: str,
    number: int,
    *,
    who: str | None = None,
    removed: Sequence[int] = (),
) -> None:
    """Keep a hand recorded, corrected or undone (and the hands a correction removed), in
    the same transaction as the change: the hand before and after, and the settlement when
    it moved."""
    game, row = before.game, before.row
    signed = row.signed_at is not None
    detail: dict[str, Any] = {}
    if signed:
        detail["signed"] = True
    old, new = settlement_json(before.result), settlement_json(result)
    if old != new:
        detail["settlement"] = {"before": old, "after": new}
    had = number <= len(before.hands)
    has = number <= len(after_hands)
    append(
        row,
        kind,
        who=who,
        hand=number,
        before=hand_json(game, before.hands, number) if had and kind != RECORDED else None,
        after=hand_json(game, after_hands, number) if has and kind != UNDONE else None,
        detail=detail or None,
    )
    for gone in removed:
        append(
            row,
            REMOVED,
            who=who,
            hand=gone,
            before=hand_json(game, before.hands, gone),
            detail={"signed": True} if signed else None,
        )


def deleted(loaded: Loaded, *, who: str | None = None) -> None:
    """Keep a game deleted: the whole record as it stood, in the entry's ``before``."""
    signed = loaded.row.signed_at is not None
    append(
        loaded.row,
        DELETED,
        who=who,
        before=rules.record_to_json(loaded.game, loaded.hands),
        detail={"signed": True} if signed else None,
    )
