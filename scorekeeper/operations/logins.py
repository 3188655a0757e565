"""The organiser login's limit: too many failed attempts from one address make it wait.

Every attempt is counted as a failure before its password is checked (the check is a slow
hash: attempts sent at once then get no more checks than the limit), and forgotten when a
login from that address succeeds. The count is rows of ``login_failure``, so one limit
holds for every worker and machine of the install, not one per process. The attempts take
turns: on SQLite the write transaction holds the database, on PostgreSQL the table is
locked against other counts for the moment it takes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select, text

from ..data import models
from ..data.database import dialect, run, write_transaction
from ..data.models import LOGIN_ADDRESS_MAX, utcnow

FAILURE = models.LoginFailure.__table__


def attempt(address: str, *, attempts: int, window_seconds: float) -> float:
    """Count an attempt from ``address`` as a failure before it is checked; return how many
    seconds it must wait instead (0: go on and check it)."""
    address = address[:LOGIN_ADDRESS_MAX]
    now = utcnow()
    with write_transaction():
        if dialect() == "postgresql":
            run(text("LOCK TABLE login_failure IN SHARE ROW EXCLUSIVE MODE"))
        run(delete(FAILURE).where(FAILURE.c.at <= now - timedelta(seconds=window_seconds)))
        recent: list[datetime] = list(
            run(
                select(FAILURE.c.at).where(FAILURE.c.address == address).order_by(FAILURE.c.at)
            ).scalars()
        )
        if len(recent) >= attempts:
            waited = (now - recent[0]).total_seconds()
            return max(0.0, window_seconds - waited)
        run(insert(FAILURE), {"address": address, "at": now})
        return 0.0


def succeeded(address: str) -> None:
    """Forget the failures counted from ``address``: its login succeeded."""
    with write_transaction():
        run(delete(FAILURE).where(FAILURE.c.address == address[:LOGIN_ADDRESS_MAX]))
