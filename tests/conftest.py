"""Fixtures shared by the suite: an app on a real database file, its client and CLI runner.

The web tests run against a real SQLite file, and also against a real PostgreSQL
server when TEST_DATABASE_URL names one (CI starts one): the ``app`` fixture is
parametrised over the databases available.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get("TEST_DATABASE_URL") else ["sqlite"]


def postgres_url() -> str:
    url = os.environ["TEST_DATABASE_URL"]
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run the real migrations once into a template database file; tests copy it."""
    from scorekeeper import create_app
    from scorekeeper.database import upgrade_database

    folder = tmp_path_factory.mktemp("template")
    path = folder / "template.sqlite3"
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "t"}
    )
    with app.app_context():
        upgrade_database()
        from scorekeeper.extensions import db

        db.engine.dispose()
    return path


@pytest.fixture(scope="session")
def migrated_postgres() -> str:
    """Run the real migrations once on the PostgreSQL test database (from scratch)."""
    from sqlalchemy import create_engine, text

    from scorekeeper import create_app
    from scorekeeper.database import upgrade_database

    url = postgres_url()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "t"})
    with app.app_context():
        upgrade_database()
        from scorekeeper.extensions import db

        db.engine.dispose()
    return url


def _truncate_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        tables = (
            conn.execute(
                text(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                    "AND tablename <> 'alembic_version'"
                )
            )
            .scalars()
            .all()
        )
        if tables:
            conn.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture(params=_backends())
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database for one test: a copied SQLite file, or a truncated PostgreSQL."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("migrated_sqlite")
        path = tmp_path / "scorekeeper.sqlite3"
        shutil.copy(template, path)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("migrated_postgres")
    _truncate_postgres(url)
    return url


@pytest.fixture
def app_config(database_url: str, tmp_path: Path) -> dict[str, Any]:
    """The configuration tests use; override it in a module to change a setting."""
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
    }


@pytest.fixture
def app(
    app_config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    from scorekeeper import create_app
    from scorekeeper.extensions import db

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app(app_config)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def runner(app: Any) -> Any:
    return app.test_cli_runner()
