"""A game's trail: every change kept, each hand confirmed by the other side, the result signed.

Every write of a game (``hands``: recorded, corrected, undone; ``games``: deleted) appends
one entry here in its own transaction, so there is never a change without its entry nor an
entry without its change. The entries are only ever inserted: nothing in the app edits or
deletes one. Each carries the hash of the one before (``entry_hash``): a chain per game,
which ``verify`` walks. Whoever holds the database file can still rewrite the rows and the
hashes after them; the chain makes an edit of one entry visible, not impossible.

Who made a change is a short text: ``organiser`` (the organiser's login), ``director`` (a
tournament's director), ``player:<name>`` (a player confirming, disputing or signing),
``device:<label>`` (a phone, by the label it chose on joining) or ``phone`` (a phone that
chose none). The page says it once per request (``acting``); a write may name it itself.

What the tournament and the table ask of it:

- ``require_confirmation(game_id)``: a game's hands each wait for the other side;
- ``confirm`` / ``dispute``: a player of the other side says yes or no to a hand;
- ``unconfirmed(game_id)``: the hands still waiting or disputed;
- ``check_unlocked`` / ``may_change_signed``: a locked game is changed by the organiser or
  the director only.

Beside it: what a change of the score writes (``trail_changes``), the signatures and the
lock (``trail_signing``), the walk of the chain (``trail_check.verify``) and the trail in a
game's export (``trail_export``).

Long because who acts, the chain and the confirmation answers are the trail the rest of the
app calls (``operations.trail.confirm``, ``entries``, ``acting``): each reads ``Entry`` and
who may change a signed game, and the parts beside it build on them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Text, bindparam, cast, insert, select

from .. import rules
from ..data import models
from ..data.database import run
from ..data.models import DEVICE_LABEL_MAX, WHO_MAX, utcnow
from ..i18n import isolated
from ..live import broker as live
from ..lru import LRU
from .errors import NotFound, OperationError
from .loading import keep, load
from .rows import GameRow, Loaded
from .statements import UPDATE_GAME

CHANGE = models.Change.__table__

# --- Who -------------------------------------------------------------------------------------

ORGANISER = "organiser"
DIRECTOR = "director"
PHONE = "phone"
PLAYER = "player:"
DEVICE = "device:"

#: The kinds of entry, in the words the trail stores them.
RECORDED = "recorded"
CORRECTED = "corrected"
UNDONE = "undone"
REMOVED = "removed"  # a hand after a win that a correction moved earlier
DELETED = "deleted"
CONFIRMED = "confirmed"
DISPUTED = "disputed"
SIGNED = "signed"
LOCKED = "locked"
UNLOCKED = "unlocked"
CALLED = "called"  # time called: the game ends after a given hand (RULES.md 11.4)
KINDS = (
    RECORDED,
    CORRECTED,
    UNDONE,
    REMOVED,
    DELETED,
    CONFIRMED,
    DISPUTED,
    SIGNED,
    LOCKED,
    UNLOCKED,
    CALLED,
)
#: The kinds that change a score (a signature given before one no longer counts).
SCORE_KINDS = {RECORDED, CORRECTED, UNDONE, REMOVED}

_acting: ContextVar[str | None] = ContextVar("scorekeeper_acting", default=None)


def player(name: str) -> str:
    return PLAYER + name


def device(label: str | None) -> str:
    """Who a phone is: its label, or just ``phone`` if it chose none."""
    label = clean_label(label)
    return DEVICE + label if label else PHONE


def clean_label(raw: str | None) -> str:
    """A phone's label as kept: spaces squeezed, at most ``DEVICE_LABEL_MAX`` characters
    (the browser's module cuts it the same way: static/js/device.js)."""
    return " ".join((raw or "").split())[:DEVICE_LABEL_MAX]


def set_acting(who: str | None) -> Token[str | None]:
    """Say who makes this request's changes (a page does once); give the token to reset."""
    return _acting.set(who[:WHO_MAX] if who else None)


def reset_acting(token: Token[str | None]) -> None:
    _acting.reset(token)


@contextlib.contextmanager
def acting(who: str) -> Iterator[None]:
    """Every change made inside is made by ``who`` (a command, a test, the director)."""
    token = set_acting(who)
    try:
        yield
    finally:
        reset_acting(token)


def current_who(who: str | None = None) -> str:
    """``who`` if given, else whoever this request acts as, else an unnamed phone."""
    return (who or _acting.get() or PHONE)[:WHO_MAX]


def may_change_signed(who: str) -> bool:
    """Whether ``who`` may correct, undo or delete in a signed (locked) game."""
    return who in (ORGANISER, DIRECTOR)


class Signed(OperationError):
    """A change to a signed game by someone who may not make it (``params``: game, at)."""

    default = "signed"


class NotTheirs(OperationError):
    """A confirmation, dispute or signature by a name that may not give it."""

    default = "not-other-side"


# --- The chain --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One entry of a trail, as stored and as an export carries it."""

    seq: int
    kind: str
    at: datetime
    who: str
    hand: int | None = None
    before: Any = None
    after: Any = None
    detail: Any = None
    prev_hash: str = ""
    hash: str = ""

    @property
    def fields(self) -> dict[str, Any]:
        """What the hash covers: everything but the hashes themselves."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "at": iso(self.at),
            "who": self.who,
            "hand": self.hand,
            "before": self.before,
            "after": self.after,
            "detail": self.detail,
        }

    @property
    def device(self) -> str | None:
        """The label of the phone that made it, if one named itself."""
        if self.who.startswith(DEVICE):
            return self.who[len(DEVICE) :]
        found = (self.detail or {}).get("device") if isinstance(self.detail, dict) else None
        return found if isinstance(found, str) else None

    @property
    def name(self) -> str | None:
        """The player who gave it, for a confirmation, a dispute or a signature."""
        return self.who[len(PLAYER) :] if self.who.startswith(PLAYER) else None


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def canonical(fields: Mapping[str, Any], prev_hash: str) -> bytes:
    """The bytes an entry's hash is taken over: its fields and the hash before, as JSON with
    sorted keys and no spaces (so the same entry always gives the same bytes)."""
    body = {**fields, "prev_hash": prev_hash}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def entry_hash(fields: Mapping[str, Any], prev_hash: str) -> str:
    return hashlib.sha256(canonical(fields, prev_hash)).hexdigest()


#: A game's entries, and its last one: built once (every game page and every hand reads them).
_OF_GAME = (CHANGE.c.game_id == bindparam("game_id")) & (
    CHANGE.c.game_created_at == bindparam("created_at")
)
#: The entries' every column as stored (the JSON as its text), so that a row read before is
#: known by what it holds (``_read``).
STORED_CHAIN = (
    select(
        CHANGE.c.seq,
        CHANGE.c.kind,
        CHANGE.c.at,
        CHANGE.c.who,
        CHANGE.c.hand,
        cast(CHANGE.c.before, Text),
        cast(CHANGE.c.after, Text),
        cast(CHANGE.c.detail, Text),
        CHANGE.c.prev_hash,
        CHANGE.c.hash,
    )
    .where(_OF_GAME)
    .order_by(CHANGE.c.seq)
)
LAST = select(CHANGE.c.seq, CHANGE.c.hash).where(_OF_GAME).order_by(CHANGE.c.seq.desc()).limit(1)


def _of(row: GameRow) -> dict[str, Any]:
    return {"game_id": row.id, "created_at": row.created_at}


def _last(row: GameRow) -> tuple[int, str]:
    found = run(LAST, _of(row)).first()
    return (found.seq, found.hash) if found is not None else (0, "")


def append(
    row: GameRow,
    kind: str,
    *,
    who: str | None = None,
    hand: int | None = None,
    before: Any = None,
    after: Any = None,
    detail: Any = None,
) -> Entry:
    """Add an entry to the game's trail in the open (write) transaction, chained to the last.
    Two changes at once cannot both take the same place: the second fails as a race does."""
    seq, prev = _last(row)
    entry = Entry(
        seq=seq + 1,
        kind=kind,
        at=utcnow().replace(microsecond=0),
        who=current_who(who),
        hand=hand,
        before=before,
        after=after,
        detail=detail,
        prev_hash=prev,
    )
    entry = _with_hash(entry)
    insert_entries(row, [entry])
    return entry


def _with_hash(entry: Entry) -> Entry:
    return Entry(**{**entry.__dict__, "hash": entry_hash(entry.fields, entry.prev_hash)})


def insert_entries(row: GameRow, entries: Sequence[Entry]) -> None:
    """Store entries as they are (their hashes made already), in the open transaction."""
    if entries:
        run(
            insert(CHANGE),
            [
                {
                    "game_id": row.id,
                    "game_created_at": row.created_at,
                    **{k: v for k, v in e.__dict__.items()},
                }
                for e in entries
            ],
        )


def entry_of(found: Any) -> Entry:
    """A trail entry from its row."""
    return Entry(
        seq=found.seq,
        kind=found.kind,
        at=found.at,
        who=found.who,
        hand=found.hand,
        before=found.before,
        after=found.after,
        detail=found.detail,
        prev_hash=found.prev_hash,
        hash=found.hash,
    )


#: Entries a process has read, each with whether its hash holds, by every value its row
#: stores (an entry is a few hundred bytes): every game page reads its whole chain, and all
#: but the newest entry were read, decoded and hashed before.
ENTRIES_KEPT = 8192
_read_before: LRU[tuple[Entry, bool]] = LRU(ENTRIES_KEPT)


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _read(found: Any) -> tuple[Entry, bool]:
    """An entry from its stored row, and whether its hash is the hash of what it says.

    Kept by the row's every stored value, the JSON as its text: an entry changed behind the
    app's back is another key, so it is decoded and its hash checked afresh. Nothing may
    change a kept entry's ``before``, ``after`` or ``detail`` (they are shared)."""
    key = tuple(found)
    kept = _read_before.get(key)
    if kept is None:
        seq, kind, at, who, hand, before, after, detail, prev_hash, hashed = key
        entry = Entry(
            seq=seq,
            kind=kind,
            at=at,
            who=who,
            hand=hand,
            before=_json(before),
            after=_json(after),
            detail=_json(detail),
            prev_hash=prev_hash,
            hash=hashed,
        )
        kept = (entry, entry_hash(entry.fields, prev_hash) == hashed)
        _read_before.put(key, kept)
    return kept


def read_chain(row: GameRow) -> list[tuple[Entry, bool]]:
    """The game's trail, oldest first, each entry with whether its own hash holds."""
    return [_read(found) for found in run(STORED_CHAIN, _of(row))]


def entries(row: GameRow) -> list[Entry]:
    """The game's trail, oldest first."""
    return [entry for entry, _ in read_chain(row)]


# --- A signed game --------------------------------------------------------------------------


def check_unlocked(loaded: Loaded, who: str | None = None) -> bool:
    """Refuse a correction, undo or deletion of a signed game by someone who may not make it
    (``Signed``); return whether the game was signed (the entry says so)."""
    if loaded.row.signed_at is None:
        return False
    if not may_change_signed(current_who(who)):
        raise Signed(game=loaded.row.id, at=loaded.row.signed_at.strftime("%H:%M"))
    return True


# --- Confirmation ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandMark:
    """Where one hand stands in the trail: who saved it (and on which phone), whether it was
    corrected, and whether the other side confirmed or disputed it since."""

    number: int
    #: "waiting", "confirmed" or "disputed" (since it was last recorded or corrected).
    state: str
    saved_by: str
    saved_at: datetime
    corrected: bool = False
    by: str | None = None
    at: datetime | None = None
    changes: tuple[Entry, ...] = field(default=())

    @property
    def device(self) -> str | None:
        return self.saved_by[len(DEVICE) :] if self.saved_by.startswith(DEVICE) else None


WAITING = "waiting"


def marks(chain: Sequence[Entry], hand_count: int) -> dict[int, HandMark]:
    """Each kept hand's mark, read from the trail (a hand stored before the trail began, or
    imported without one, has none)."""
    # Each hand's (state, saved_by, saved_at, corrected, by, at) as the chain goes, made a
    # HandMark once at the end: a game page reads every hand's mark.
    found: dict[int, tuple[str, str, datetime, bool, str | None, datetime | None]] = {}
    history: dict[int, list[Entry]] = {}
    for entry in chain:
        number = entry.hand
        if number is None:
            continue
        if entry.kind in (UNDONE, REMOVED):
            found.pop(number, None)
            history.pop(number, None)
            continue
        history.setdefault(number, []).append(entry)
        if entry.kind in (RECORDED, CORRECTED):
            corrected = entry.kind == CORRECTED or (number in found and found[number][3])
            found[number] = (WAITING, entry.who, entry.at, corrected, None, None)
        elif entry.kind in (CONFIRMED, DISPUTED) and number in found:
            _, saved_by, saved_at, corrected, _, _ = found[number]
            found[number] = (entry.kind, saved_by, saved_at, corrected, entry.name, entry.at)
    return {
        n: HandMark(n, *mark, changes=tuple(history.get(n, ())))
        for n, mark in found.items()
        if n <= hand_count
    }


def confirmers(game: rules.Game, hand: rules.Hand) -> tuple[str, ...]:
    """Who may confirm a hand: the players of every side but the pitcher's (the side that
    bid says what it made, the others agree); anyone, for a hand passed out."""
    if hand.passed or hand.pitcher is None:
        return game.players
    side = game.side_of(hand.pitcher)
    return tuple(p for p in game.players if game.side_of(p) != side)


def require_confirmation(game_id: int, on: bool = True) -> None:
    """Make each hand of a game wait for a player of the other side (a tournament's games)."""

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        run(UPDATE_GAME, {"game_id": game_id, "confirm_hands": on})
        return marked(loaded, confirm_hands=on)

    write_answer(action)


def unconfirmed(game_id: int) -> list[int]:
    """The numbers of a game's hands that wait for the other side or were disputed (none
    when the game does not ask for confirmation), in order."""
    loaded = load(game_id)
    if not loaded.row.confirm_hands:
        return []
    found = marks(entries(loaded.row), len(loaded.hands))
    return [
        n for n in range(1, len(loaded.hands) + 1) if n in found and found[n].state != CONFIRMED
    ]


def confirm(game_id: int, number: int, name: str, *, label: str | None = None) -> None:
    """``name``, a player of another side than the pitcher's, confirms hand ``number``
    (on their own phone, or by tapping their name on the recording one: ``label`` is the
    phone's). Nothing else changes: never a score."""
    _answer(game_id, number, name, CONFIRMED, label)


def dispute(game_id: int, number: int, name: str, *, label: str | None = None) -> None:
    """``name`` disputes hand ``number``: it shows as disputed until corrected or confirmed."""
    _answer(game_id, number, name, DISPUTED, label)


def _answer(game_id: int, number: int, name: str, kind: str, label: str | None) -> None:
    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        if not 1 <= number <= len(loaded.hands):
            raise NotFound("no-hand", game=game_id, number=number)
        allowed = confirmers(loaded.game, loaded.hands[number - 1])
        if name not in allowed:
            raise NotTheirs(name=isolated(name), number=number)
        label_given = clean_label(label)
        append(
            loaded.row,
            kind,
            who=player(name),
            hand=number,
            detail={"device": label_given} if label_given else None,
        )
        return marked(loaded)

    write_answer(action)


def marked(loaded: Loaded, **changed: Any) -> Loaded:
    """Bump the version of a game whose trail alone changed (its open boards hear of it),
    leaving its scores' version: a hand form opened before is still good."""
    import dataclasses

    row = dataclasses.replace(loaded.row, version=loaded.row.version + 1, **changed)
    run(UPDATE_GAME, {"game_id": row.id, "version": row.version})
    live.changed(row.id, row.version)
    return dataclasses.replace(loaded, row=row)


def write_answer(action: Any) -> Loaded:
    """Run ``action`` in the write transaction and keep the game it returns (the replay)."""
    from .writing import write

    changed: Loaded = write(action)
    keep(changed)
    return changed
