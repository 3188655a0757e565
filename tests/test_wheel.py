"""The wheel serves from anywhere: built, installed into a fresh environment, run from nowhere.

``pip wheel .`` builds the package the way a table gets it (``pipx install .`` does the
same); it is installed into a new virtual environment outside the checkout, and
``scorekeeper serve`` runs from an empty folder with a throwaway home: the pages, their CSS,
a game and its printed sheet answer, and the database is made in the user's data folder,
not in site-packages. Building and installing take a while (the dependencies come from
pip's cache, or the package index), so it is done once for the module.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import processes
import pytest
import system_parts

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "tests" / "examples" / "game-record-example.json"
#: What pip says when it cannot get a package: no index and nothing cached.
UNREACHABLE = ("No matching distribution found", "NewConnectionError", "Network is unreachable")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    home: Path
    port: int
    #: What ``serve`` printed by the time it answered.
    printed: str


def _pip(*args: str, python: Path) -> None:
    done = subprocess.run(
        [str(python), "-m", "pip", *args], capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0:
        said = done.stdout + done.stderr
        if any(words in said for words in UNREACHABLE):
            system_parts.skip_or_fail_in_ci(
                f"pip could not get a package to build or install: {said[-500:]}"
            )
        pytest.fail(f"pip {' '.join(args)} failed:\n{said[-3000:]}", pytrace=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(port: int, path: str, body: bytes | None = None) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        if body is None:
            connection.request("GET", path)
        else:
            connection.request(
                "POST", path, body=body, headers={"Content-Type": "application/json"}
            )
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """The wheel, installed into a fresh environment and served from an empty folder."""
    root = tmp_path_factory.mktemp("wheel")
    dist, venv, home, empty = root / "dist", root / "venv", root / "home", root / "empty"
    for folder in (home, empty):
        folder.mkdir()
    _pip(
        "wheel",
        "--no-deps",
        "--quiet",
        "--wheel-dir",
        str(dist),
        str(REPO),
        python=Path(sys.executable),
    )
    (wheel,) = dist.glob("pitch_scorekeeper-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    _pip("install", "--quiet", str(wheel), python=venv / "bin" / "python")

    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XDG_", "SCOREKEEPER_", "VIRTUAL_ENV", "PYTHON"))
        and k not in ("DATABASE_URL", "SECRET_KEY", "TEST_DATABASE_URL")
    }
    env["HOME"] = str(home)
    env[processes.MARK] = os.environ[processes.MARK]  # the suite's own: it ends what it starts
    port = _free_port()
    log = root / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [str(venv / "bin" / "scorekeeper"), "serve", "--port", str(port)],
            cwd=empty,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, log.read_text()
            try:
                if _get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield Installed(wheel, venv, home, port, log.read_text())
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def test_the_installed_wheel_serves_the_pages_their_css_a_game_and_its_sheet(
    installed: Installed,
) -> None:
    port = installed.port
    status, kind, page = _get(port, "/")
    assert (status, kind.split(";")[0]) == (200, "text/html"), page[:300]
    assert b"/static/css/app.css" in page
    status, kind, css = _get(port, "/static/css/app.css")
    assert (status, kind.split(";")[0]) == (200, "text/css") and css.strip()
    status, _, body = _get(port, "/games/import", EXAMPLE.read_bytes())
    assert status == 201, body
    game_id = json.loads(body)["id"]
    status, _, game = _get(port, f"/games/{game_id}")
    assert status == 200 and b"Ann" in game
    status, kind, pdf = _get(port, f"/games/{game_id}/sheet.pdf")
    assert (status, kind, pdf[:5]) == (200, "application/pdf", b"%PDF-")
    assert _get(port, "/healthz")[0] == 200
    assert _get(port, "/sw.js")[0] == 200  # read from the package's static folder


def test_the_installed_copy_keeps_its_database_in_the_users_data_folder(
    installed: Installed,
) -> None:
    data = installed.home / ".local" / "share" / "pitch-scorekeeper"
    assert (data / "scorekeeper.sqlite3").is_file()
    assert f"Database: {data / 'scorekeeper.sqlite3'}\n" in installed.printed
    assert f"Backups: {data / 'backups'} " in installed.printed
    # Nothing of the data in the environment: no instance folder, no database there.
    (site,) = installed.venv.glob("lib/python*/site-packages")
    assert not (site / "instance").exists()
    assert list(installed.venv.rglob("*.sqlite3")) == []
    assert not (site / "scorekeeper" / "secret_key").exists()


def test_the_wheel_holds_every_template_and_static_file_of_the_repository(
    installed: Installed,
) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    for folder in ("templates", "static"):
        files = {p.relative_to(REPO).as_posix() for p in (REPO / folder).rglob("*") if p.is_file()}
        assert files, folder
        assert {
            n.removeprefix("scorekeeper/") for n in names if n.startswith(f"scorekeeper/{folder}/")
        } == files
    # And what the package reads besides its code: the migrations and the translations.
    assert "scorekeeper/data/migrations/alembic.ini" in names
    assert "scorekeeper/translations/ro/LC_MESSAGES/messages.mo" in names
