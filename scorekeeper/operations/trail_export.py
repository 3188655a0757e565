"""A game's trail in its export (the record's ``trail`` key, GAME-RECORD.md), and an imported
record's trail kept with its new game as it was.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import update

from ..data.database import run
from ..data.models import WHO_MAX
from .errors import OperationError
from .rows import GameRow, Loaded
from .statements import GAME
from .trail import KINDS, Entry, entries, insert_entries, iso


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
    insert_entries(row, found)
    if confirm_hands or signed_at is not None:
        run(
            update(GAME).where(GAME.c.id == row.id),
            {"confirm_hands": confirm_hands, "signed_at": signed_at},
        )
