"""The databases a benchmark can run against: SQLite (always) and PostgreSQL (when asked).

``BENCH_DATABASE_URL`` (or ``bench/run.py --database-url``) names a PostgreSQL database
(``postgresql://user:password@host:5432/name``). The benchmarks keep to schemas of their
own in it, so the two uses never meet: the record-a-hand benchmark gets ``bench_stack``,
dropped and created afresh each run (as SQLite's gets a new file); the page benchmark's
large database is ``bench_scale_<games>``, seeded once and kept (as SQLite's file in
instance/bench/ is). Each schema's tables are made by the app's own migrations.
"""

from __future__ import annotations

import re
from urllib.parse import quote

SQLITE = "SQLite"
POSTGRESQL = "PostgreSQL"


def postgres_url(url: str) -> str:
    """``url`` naming the psycopg 3 driver, as the app's DATABASE_URL is read."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if not url.startswith("postgresql+psycopg://"):
        hidden = re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)  # never print a password
        raise SystemExit(f"BENCH_DATABASE_URL must name a PostgreSQL database, not {hidden!r}")
    return url


def in_schema(url: str, schema: str) -> str:
    """``url`` with every connection's search path set to ``schema`` (tables made there)."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", schema):
        raise ValueError(f"not a plain schema name: {schema!r}")
    joiner = "&" if "?" in url else "?"
    return f"{postgres_url(url)}{joiner}options={quote(f'-csearch_path={schema}')}"


def describe(url: str) -> str:
    """The server and database ``url`` names, and the server's version (no password)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    named = make_url(postgres_url(url))
    engine = create_engine(named)
    try:
        with engine.connect() as connection:
            version = connection.execute(text("SHOW server_version")).scalar_one()
    except Exception as error:  # the header still prints; the parts say what failed
        version = f"unreachable ({type(error).__name__})"
    finally:
        engine.dispose()
    return f"{named.host}:{named.port or 5432}/{named.database}, server {version}"


def make_schema(url: str, schema: str, *, fresh: bool) -> None:
    """Create ``schema`` in ``url``'s database if it is missing (dropping it first if ``fresh``)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(postgres_url(url))
    try:
        with engine.begin() as connection:
            if fresh:
                connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    finally:
        engine.dispose()
