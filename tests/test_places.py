"""Where the app finds its files and keeps its data: a checkout's folders, or the data folder.

An installed copy (a wheel in a fresh environment) is tested for real in
tests/test_wheel.py; here, the checkout's side and the bad folders and settings.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from builders import CONFIG
from command_line import invoke

from scorekeeper import create_app
from scorekeeper.config import SettingError
from scorekeeper.places import PACKAGE, find_places

REPO = Path(__file__).resolve().parents[1]


def test_a_checkout_serves_the_repositorys_templates_and_keeps_its_data_in_instance() -> None:
    places = find_places({})
    assert not places.installed
    assert (places.templates, places.static) == (REPO / "templates", REPO / "static")
    assert places.instance == REPO / "instance"
    assert places.backups == REPO / "instance" / "backups"


def test_the_package_of_a_checkout_carries_no_templates_or_static_files_of_its_own() -> None:
    # A package with a templates folder is taken for an installed one (scorekeeper/places.py).
    assert not (PACKAGE / "templates").exists()
    assert not (PACKAGE / "static").exists()


def test_scorekeeper_instance_names_the_data_folder_in_full(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert find_places({"SCOREKEEPER_INSTANCE": "night"}).instance == tmp_path / "night"
    home = Path(os.path.expanduser("~"))
    assert find_places({"SCOREKEEPER_INSTANCE": "~/pitch"}).instance == home / "pitch"


def test_a_data_folder_that_cannot_be_made_is_one_clear_line_and_status_2(tmp_path: Path) -> None:
    taken = tmp_path / "a-file"
    taken.write_text("not a folder")
    env = {"DATABASE_URL": None, "SCOREKEEPER_INSTANCE": str(taken / "data")}
    done = invoke("init-db", env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"error: the data folder {taken / 'data'} cannot be used: Not a directory. "
        "Set SCOREKEEPER_INSTANCE to a folder this user may write in.\n"
    )


@pytest.mark.parametrize("workers", ["two", -1, 1.5, True])
def test_a_pdf_workers_setting_that_is_not_a_whole_number_is_refused_by_name(
    workers: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    with pytest.raises(SettingError, match=r"^PDF_WORKERS is .*: give a whole number"):
        create_app({**CONFIG, "PDF_WORKERS": workers})


def test_every_pdf_workers_setting_the_docs_name_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    for workers in (None, 0, 1, 4):
        assert create_app({**CONFIG, "PDF_WORKERS": workers}).config["PDF_WORKERS"] == (workers)


@pytest.mark.parametrize("idle", ["a minute", -1, True])
def test_a_pdf_worker_idle_setting_that_is_not_seconds_is_refused_by_name(
    idle: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    with pytest.raises(SettingError, match=r"^PDF_WORKER_IDLE_SECONDS is .*: give the seconds"):
        create_app({**CONFIG, "PDF_WORKER_IDLE_SECONDS": idle})
