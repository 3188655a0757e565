"""An event's director's code: drawn at random, shown to the director, entered on another
device to direct the event from there too (``auth/directors.py`` keeps who directs in the
signed session). Only a hash of the code is stored (scrypt, salted), so the database alone
does not give it away; drawing a new code ends the old one."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import select, update

from ..data.database import run, write_transaction
from ..data.extensions import db
from .errors import NotFound
from .events import EVENT

#: The code's letters: no 0/O, 1/I/L, so it is read aloud and typed without a doubt.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Its length (two groups of four: about 40 bits, far more than can be guessed by asking).
LENGTH = 8
#: scrypt's cost: a stolen database file's hash is slow to try codes on.
_N, _R, _P = 2**14, 8, 1


def _hashed(code: str, salt: bytes) -> str:
    digest = hashlib.scrypt(code.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt:{_N}:{_R}:{_P}${salt.hex()}${digest.hex()}"


def normalised(typed: str) -> str:
    """A code as typed, as compared: capitals, without spaces or dashes."""
    return "".join(c for c in typed.upper() if c.isalnum())


def shown(code: str) -> str:
    """A code as the screen shows it: "ABCD-EFGH"."""
    return f"{code[:4]}-{code[4:]}"


def draw_code(event_id: int) -> str:
    """Draw a new director's code for the event, store its hash (the old code no longer
    works) and return it, as shown (NotFound: no such event)."""
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    with write_transaction():
        changed = run(
            update(EVENT)
            .where(EVENT.c.id == event_id)
            .values(director_code_hash=_hashed(code, secrets.token_bytes(16)))
        )
        if changed.rowcount == 0:
            raise NotFound("no-event", id=event_id)
    return shown(code)


def code_hash(event_id: int) -> str | None:
    """The stored hash of the event's code ("" before one is drawn), None: no such event.
    What a director's session is tied to: a new code ends every other device's."""
    found = db.session.execute(
        select(EVENT.c.id, EVENT.c.director_code_hash).where(EVENT.c.id == event_id)
    ).first()
    if found is None:
        return None
    return found.director_code_hash or ""


def check_code(event_id: int, typed: str) -> bool:
    """Whether ``typed`` is the event's director's code (spaces, dashes and case aside)."""
    stored = code_hash(event_id)
    if not stored:
        return False
    try:
        _name, salt, digest = stored.split("$")
    except ValueError:
        return False
    candidate = _hashed(normalised(typed)[: LENGTH * 2], bytes.fromhex(salt))
    return hmac.compare_digest(candidate.rsplit("$", 1)[1], digest)
