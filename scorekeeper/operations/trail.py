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
- ``sign``: a player of each side signs the result; the last signature locks the game;
- ``check_unlocked`` / ``may_change_signed``: a locked game is changed by the organiser or
  the director only (``unlock`` opens it again, in the trail too);
- ``verify``: whether each game's chain is whole, and the first entry that is not.

Long because the chain is one thing: what every write appends, the answers that read the
entries back (marks, signatures), the check that walks them and the export that carries
them all share ``Entry`` and the chain's rules (what the hash covers, who may change a
signed game); split, each part would reach into the others' internals.
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

from sqlalchemy import Text, bindparam, cast, insert, select, update

from .. import rules
from ..data import models
from ..data.database import run
from ..data.models import DEVICE_LABEL_MAX, WHO_MAX, utcnow
from ..i18n import isolated
from ..live import broker as live
from ..lru import LRU
from ..rules.record import hand_to_json, settlement_output
from ..rules.scoring import usual_dealers
from .errors import NotFound, OperationError
from .loading import keep, load
from .rows import GameRow, Loaded
from .statements import GAME, UPDATE_GAME

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
    _insert(row, [entry])
    return entry


def _with_hash(entry: Entry) -> Entry:
    return Entry(**{**entry.__dict__, "hash": entry_hash(entry.fields, entry.prev_hash)})


def _insert(row: GameRow, entries: Sequence[Entry]) -> None:
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


def _entry(found: Any) -> Entry:
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


def _read_chain(row: GameRow) -> list[tuple[Entry, bool]]:
    return [_read(found) for found in run(STORED_CHAIN, _of(row))]


def entries(row: GameRow) -> list[Entry]:
    """The game's trail, oldest first."""
    return [entry for entry, _ in _read_chain(row)]


def checked_entries(row: GameRow) -> tuple[list[Entry], int | None]:
    """The game's trail, oldest first, and the first entry that does not hold (``broken_at``)."""
    read = _read_chain(row)
    chain = [entry for entry, _ in read]
    return chain, broken_at(chain, [holds for _, holds in read])


def broken_at(chain: Sequence[Entry], holds: Sequence[bool] | None = None) -> int | None:
    """The place (``seq``) of the first entry that does not hold: its hash is not the hash of
    what it says, it does not name the hash before it, or an entry is missing before it.
    ``holds`` says for each entry whether its hash holds, if that was worked out already."""
    prev = ""
    for place, entry in enumerate(chain, start=1):
        if entry.seq != place or entry.prev_hash != prev:
            return entry.seq if entry.seq >= place else place
        held = holds[place - 1] if holds is not None else None
        if held is None:
            held = entry_hash(entry.fields, entry.prev_hash) == entry.hash
        if not held:
            return entry.seq
        prev = entry.hash
    return None


@dataclass(frozen=True)
class ChainCheck:
    """One game's chain walked: how many entries, and the first broken one (None: whole)."""

    game_id: int
    game_created_at: datetime
    entries: int
    broken: int | None
    #: Whether the game itself is still kept (a deleted game's trail stays).
    kept: bool
    #: The broken entry's kind and hand, to name it.
    broken_kind: str | None = None
    broken_hand: int | None = None

    @property
    def whole(self) -> bool:
        return self.broken is None


def check(row: GameRow) -> ChainCheck:
    """Walk one game's chain."""
    chain, broken = checked_entries(row)
    return _checked(row.id, row.created_at, chain, broken, kept=True)


def _checked(
    game_id: int, created: datetime, chain: list[Entry], broken: int | None, *, kept: bool
) -> ChainCheck:
    found = next((e for e in chain if e.seq == broken), None)
    return ChainCheck(
        game_id,
        created,
        len(chain),
        broken,
        kept,
        found.kind if found else None,
        found.hand if found else None,
    )


def verify(game_id: int | None = None) -> list[ChainCheck]:
    """Walk the chain of every game that has a trail (or of ``game_id``), deleted games'
    included, in order of game."""
    wanted = select(CHANGE).order_by(CHANGE.c.game_id, CHANGE.c.game_created_at, CHANGE.c.seq)
    if game_id is not None:
        wanted = wanted.where(CHANGE.c.game_id == game_id)
    chains: dict[tuple[int, datetime], list[Entry]] = {}
    for found in run(wanted):
        chains.setdefault((found.game_id, found.game_created_at), []).append(_entry(found))
    games = {
        (found.id, found.created_at)
        for found in run(
            select(GAME.c.id, GAME.c.created_at).where(GAME.c.id.in_([k[0] for k in chains]))
        )
    }
    return [
        _checked(key[0], key[1], chain, broken_at(chain), kept=key in games)
        for key, chain in chains.items()
    ]


# --- What a change writes into it ---------------------------------------------------------------


def hand_json(game: rules.Game, hands: Sequence[rules.Hand], number: int) -> dict[str, Any]:
    """Hand ``number`` of ``hands`` as the game record writes it (GAME-RECORD.md)."""
    usual = usual_dealers(game, hands[:number])
    return hand_to_json(hands[number - 1], usual[number - 1])


def settlement_json(result: rules.GameResult) -> Any:
    return settlement_output(result.settlement) if result.settlement else None


def check_unlocked(loaded: Loaded, who: str | None = None) -> bool:
    """Refuse a correction, undo or deletion of a signed game by someone who may not make it
    (``Signed``); return whether the game was signed (the entry says so)."""
    if loaded.row.signed_at is None:
        return False
    if not may_change_signed(current_who(who)):
        raise Signed(game=loaded.row.id, at=loaded.row.signed_at.strftime("%H:%M"))
    return True


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


# --- Confirmation, signatures --------------------------------------------------------------


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
    found: dict[int, HandMark] = {}
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
            corrected = entry.kind == CORRECTED or (number in found and found[number].corrected)
            found[number] = HandMark(number, WAITING, entry.who, entry.at, corrected)
        elif entry.kind in (CONFIRMED, DISPUTED) and number in found:
            was = found[number]
            found[number] = HandMark(
                number, entry.kind, was.saved_by, was.saved_at, was.corrected, entry.name, entry.at
            )
    return {
        n: HandMark(**{**mark.__dict__, "changes": tuple(history.get(n, ()))})
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
        return _marked(loaded, confirm_hands=on)

    _write(action)


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
        return _marked(loaded)

    _write(action)


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
            return _marked(loaded, signed_at=now)
        return _marked(loaded)

    changed = _write(action)
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
        return _marked(loaded, signed_at=None)

    _write(action)


def _marked(loaded: Loaded, **changed: Any) -> Loaded:
    """Bump the version of a game whose trail alone changed (its open boards hear of it),
    leaving its scores' version: a hand form opened before is still good."""
    import dataclasses

    row = dataclasses.replace(loaded.row, version=loaded.row.version + 1, **changed)
    run(UPDATE_GAME, {"game_id": row.id, "version": row.version})
    live.changed(row.id, row.version)
    return dataclasses.replace(loaded, row=row)


def _write(action: Any) -> Loaded:
    from .writing import write

    changed: Loaded = write(action)
    keep(changed)
    return changed


# --- The trail in a game's export ----------------------------------------------------------


def exported(loaded: Loaded) -> dict[str, Any] | None:
    """The ``trail`` key of a game's export (GAME-RECORD.md), or None when the game has no
    trail and asks for no confirmation (its export is then as it always was)."""
    chain = entries(loaded.row)
    if not chain and not loaded.row.confirm_hands:
        return None
    out: dict[str, Any] = {}
    if loaded.row.confirm_hands:
        out["confirm_hands"] = True
    if loaded.row.signed_at is not None:
        out["signed_at"] = iso(loaded.row.signed_at)
    out["entries"] = [
        {
            **{k: v for k, v in e.fields.items() if v is not None},
            "prev_hash": e.prev_hash,
            "hash": e.hash,
        }
        for e in chain
    ]
    return out


class BadTrail(OperationError):
    """A record's ``trail`` key that is not shaped as GAME-RECORD.md says (``params``)."""

    default = "bad-trail"


def _when(value: Any, place: str) -> datetime:
    if not isinstance(value, str):
        raise BadTrail(place=place)
    try:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise BadTrail(place=place) from None


def read_exported(data: Any) -> tuple[bool, datetime | None, list[Entry]]:
    """Read a record's ``trail`` key: whether hands wait for confirmation, when the game was
    signed, and the entries as given (a chain that does not hold is kept as it is: the
    trail's check then says where it breaks). ``BadTrail`` names what is not shaped right."""
    if not isinstance(data, dict):
        raise BadTrail(place="trail")
    unknown = set(data) - {"confirm_hands", "signed_at", "entries"}
    if unknown:
        raise BadTrail(place=f"trail.{sorted(unknown)[0]}")
    confirm_hands = data.get("confirm_hands", False)
    if not isinstance(confirm_hands, bool):
        raise BadTrail(place="trail.confirm_hands")
    signed_at = _when(data["signed_at"], "trail.signed_at") if "signed_at" in data else None
    raw = data.get("entries", [])
    if not isinstance(raw, list):
        raise BadTrail(place="trail.entries")
    found: list[Entry] = []
    for place, item in enumerate(raw, start=1):
        where = f"trail.entries[{place}]"
        if not isinstance(item, dict):
            raise BadTrail(place=where)
        seq, kind, who = item.get("seq"), item.get("kind"), item.get("who")
        hand = item.get("hand")
        prev, digest = item.get("prev_hash"), item.get("hash")
        if (
            not isinstance(seq, int)
            or isinstance(seq, bool)
            or kind not in KINDS
            or not isinstance(who, str)
            or len(who) > WHO_MAX
            or not (hand is None or (isinstance(hand, int) and not isinstance(hand, bool)))
            or not isinstance(prev, str)
            or not isinstance(digest, str)
            or len(prev) > 64
            or len(digest) > 64
        ):
            raise BadTrail(place=where)
        found.append(
            Entry(
                seq=seq,
                kind=kind,
                at=_when(item.get("at"), f"{where}.at"),
                who=who,
                hand=hand,
                before=item.get("before"),
                after=item.get("after"),
                detail=item.get("detail"),
                prev_hash=prev,
                hash=digest,
            )
        )
    seqs = [e.seq for e in found]
    if len(set(seqs)) != len(seqs):
        raise BadTrail(place="trail.entries")
    return confirm_hands, signed_at, found


def store_exported(row: GameRow, data: Any) -> None:
    """Keep an imported record's trail with its new game, in the open transaction, as it
    was: its entries, whether its hands wait for confirmation, and its lock."""
    confirm_hands, signed_at, found = read_exported(data)
    _insert(row, found)
    if confirm_hands or signed_at is not None:
        run(
            update(GAME).where(GAME.c.id == row.id),
            {"confirm_hands": confirm_hands, "signed_at": signed_at},
        )
