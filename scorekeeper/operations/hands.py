"""Every write of a hand: record one at the end of a game (once, by its one-time key),
correct one (removing the hands after a win it moves earlier, when asked), undo the last."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import delete, insert, select, update

from .. import rules
from ..data.database import dialect, run
from ..data.models import utcnow
from . import knockout, trail, trail_changes
from .errors import Conflict, KeyUsed, NotFound, SameAsLast, WinMoves
from .loading import load, lock
from .rows import Loaded, hand_columns
from .statements import HAND, HAND_KEY, HANDS_AFTER, KEY_USED, NEW_HAND_AND_KEY, THE_HAND
from .writing import check_version, rewritten, write_game

#: A one-time key: URL-safe characters, 16 to 64 of them (a form makes 22; a phone may make
#: its own). Unique everywhere, so it must be too long to guess or to meet by chance.
KEY_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: The engine's refusal of a hand recorded after the game was won (its code).
AFTER_THE_WIN = "hand-after-win"


def new_key() -> str:
    """A fresh one-time key for a hand form."""
    return secrets.token_urlsafe(16)


def posted_key(raw: str | None) -> str | None:
    """The posted one-time key, or None if none was posted; ValueError if it is malformed."""
    if not raw:
        return None
    if not KEY_RE.fullmatch(raw):
        raise ValueError(raw)
    return raw


def check_key(key: str) -> None:
    """Raise ``KeyUsed`` if ``key`` has recorded a hand (to answer a form sent again to a game
    that has ended since, with the hand it saved rather than "the game is over")."""
    used = run(KEY_USED, {"key": key}).first()
    if used is not None:
        raise KeyUsed(used.game_id, used.number, used.hand_id is not None)


def same_taps(one: rules.Hand, other: rules.Hand) -> bool:
    """Whether two hands were tapped alike: the same pitcher, bid, points, sale and high
    bidder (the note aside). Passed-out hands never count: redeals follow each other."""
    if one.passed or other.passed:
        return False
    return (one.pitcher, one.bid, one.points, one.sale, one.high_bidder) == (
        other.pitcher,
        other.bid,
        other.points,
        other.sale,
        other.high_bidder,
    )


def record_hand(
    game_id: int,
    hand: rules.Hand | Callable[[Loaded], rules.Hand],
    *,
    version: int | None,
    key: str | None = None,
    number: int | None = None,
    ask_if_same: bool = False,
    again: int | None = None,
) -> rules.GameResult:
    """Add a hand at the end of the game, once.

    ``key`` is the form's one-time key (a phone may make its own): a key used before, in
    this game or another, raises ``KeyUsed`` and writes nothing. ``number`` is the hand
    the form was opened for: if the game has moved past it (another phone recorded it),
    or ``version`` is not the game's, a ``Conflict``. With ``ask_if_same`` (a hand form), a
    hand tapped as the last one was raises ``SameAsLast``, unless ``again`` names that last
    hand (the recorder was asked and said yes).

    ``hand`` may be a function of the game as locked that gives the hand: a hand form is
    then read and checked under the lock, and the game is read once, not once before and
    once under it. Whatever it raises passes through, and nothing is written.
    """

    def action() -> Loaded:
        loaded = lock(game_id, key)
        new = hand(loaded) if callable(hand) else hand
        if number is not None and number != len(loaded.hands) + 1:
            raise Conflict(Conflict.STALE)
        check_version(loaded, version)
        rules.check_hand_count(len(loaded.hands) + 1)
        last = len(loaded.hands)
        if ask_if_same and last and again != last and same_taps(loaded.hands[-1], new):
            raise SameAsLast(last)
        hands = (*loaded.hands, new)
        # Only the new hand is scored: the ones before it were, in the game as locked.
        result = rules.score_game(loaded.game, hands, after=loaded.result)
        seat_of = {name: i for i, name in enumerate(loaded.names)}
        # Inserted by its game id, not added to row.hands: that would read every stored
        # hand first (and an ORM object for it costs more than the insert).
        _insert_hand({"game_id": game_id, "number": len(hands), **hand_columns(new, seat_of)}, key)
        trail_changes.changed_score(loaded, hands, result, trail.RECORDED, len(hands))
        return rewritten(loaded, hands, result)

    try:
        result = write_game(action)
    except Conflict as conflict:
        if key is None or conflict.code != Conflict.BUSY:
            raise
        # Only a unique key can have raced (the game's row is locked): the same key saved
        # by another process for another game. Once more, the key is found and answered for.
        result = write_game(action)
    if result.finished:  # a knockout's next game starts (operations.knockout)
        knockout.game_finished(game_id)
    return result


def _insert_hand(columns: Mapping[str, Any], key: str | None) -> None:
    """Insert a new hand (its columns) and, if it was saved with one, its one-time key."""
    if key is None:
        run(insert(HAND), columns)
    elif dialect() == "postgresql":
        made = {f"new_{name}": value for name, value in columns.items()}
        run(NEW_HAND_AND_KEY, {**made, "new_key": key, "new_key_made_at": utcnow()})
    else:
        inserted = run(insert(HAND), columns)
        run(
            insert(HAND_KEY),
            {
                "key": key,
                "game_id": columns["game_id"],
                "hand_id": inserted.inserted_primary_key[0],  # type: ignore[index]  # an INSERT's key is never None
                "number": columns["number"],
                "created_at": utcnow(),
            },
        )


def replace_hand(
    game_id: int,
    number: int,
    hand: rules.Hand,
    *,
    version: int | None,
    cut_after: int | None = None,
    key: str | None = None,
) -> rules.GameResult:
    """Correct hand ``number``; every later score, the winner and the settlement follow.

    A correction that makes the game end earlier (its side now wins at hand ``k``, before
    the last hand recorded) raises ``WinMoves`` naming ``k`` and the hands after it, and
    writes nothing, unless ``cut_after`` is ``k`` (the table was asked and said yes): then
    the hand is corrected and the hands after ``k`` are removed, in one transaction.

    ``key`` is the one-time key of a hand a phone kept and the table chose to make this
    correction of (the phone sends it again later): if it has recorded nothing, it is kept
    as hand ``number``'s, so that send is answered with this hand, never a new one.
    """

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        check_version(loaded, version)
        if not 1 <= number <= len(loaded.hands):
            raise NotFound("no-hand", game=game_id, number=number)
        trail.check_unlocked(loaded)
        hands = list(loaded.hands)
        hands[number - 1] = hand
        won_at = _won_before_the_end(loaded.game, hands)
        if won_at is not None:
            if cut_after != won_at:
                result = rules.score_game(loaded.game, hands[:won_at])
                removed = tuple(range(won_at + 1, len(hands) + 1))
                raise WinMoves(result.winner or "", won_at, removed)
            hands = hands[:won_at]
        result = rules.score_game(loaded.game, hands)
        seat_of = {name: i for i, name in enumerate(loaded.names)}
        run(
            update(HAND).where(THE_HAND),
            {"of_game": game_id, "of_number": number, **hand_columns(hand, seat_of)},
        )
        if len(hands) < len(loaded.hands):
            run(delete(HAND).where(HANDS_AFTER), {"of_game": game_id, "after": len(hands)})
        if key is not None:
            _keep_key(game_id, number, key)
        # The correction and each hand it removed after the win it moved earlier: one entry
        # each, in this transaction.
        gone = range(len(hands) + 1, len(loaded.hands) + 1)
        trail_changes.changed_score(loaded, hands, result, trail.CORRECTED, number, removed=gone)
        return rewritten(loaded, hands, result)

    result = write_game(action)
    if result.finished:  # a corrected winner may change a knockout's series
        knockout.game_finished(game_id)
    return result


def _won_before_the_end(game: rules.Game, hands: list[rules.Hand]) -> int | None:
    """The hand that now wins the game, when hands were recorded after it (the replay is
    refused at the first hand after a win); None when the game is not won before its last
    hand. Any other refusal of the hands passes through."""
    try:
        rules.score_game(game, hands)
    except rules.RuleError as error:
        if error.code != AFTER_THE_WIN:
            raise
        return int(error.params["winning_hand"])
    return None


def _keep_key(game_id: int, number: int, key: str) -> None:
    """Keep ``key`` as hand ``number``'s one-time key, unless it has recorded a hand before."""
    if run(KEY_USED, {"key": key}).first() is not None:
        return
    hand_id = run(select(HAND.c.id).where(THE_HAND), {"of_game": game_id, "of_number": number})
    run(
        insert(HAND_KEY),
        {
            "key": key,
            "game_id": game_id,
            "hand_id": hand_id.scalar_one(),
            "number": number,
            "created_at": utcnow(),
        },
    )


def undo_last_hand(game_id: int, *, version: int | None) -> rules.GameResult:
    """Remove the last hand recorded."""

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        check_version(loaded, version)
        if not loaded.hands:
            raise NotFound("no-hand-to-undo")
        trail.check_unlocked(loaded)
        hands = loaded.hands[:-1]
        result = rules.score_game(loaded.game, hands)
        run(delete(HAND).where(THE_HAND), {"of_game": game_id, "of_number": len(loaded.hands)})
        trail_changes.changed_score(loaded, hands, result, trail.UNDONE, len(loaded.hands))
        return rewritten(loaded, hands, result)

    return write_game(action)
