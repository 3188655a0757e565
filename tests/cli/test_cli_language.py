"""The command line speaks the language asked for: ``scorekeeper --lang ro``, or the
environment's (LANG=ro_RO.UTF-8), in its output and in its errors.

The environment's language is read when the command starts (``scorekeeper.cli:main``), so
click's CliRunner, given the environment, is asked as a process would be; the score
command is run as a real process in tests/cli/test_cli_score.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from command_line import Ran, invoke

from scorekeeper.cli.main import main

RECORD = Path(__file__).resolve().parent / "records" / "pedro-count-out-by-the-pedro.json"
#: The text sheet's words, and their Romanian.
SHEET_WORDS = {
    "Players:": "Jucători:",
    "Dealer": "Împarte",
    "Winner:": "Câștigător:",
    "Settlement:": "Decontare:",
}
#: A record with no players.
NO_PLAYERS = b'{"format": "pitch-scorekeeper/1", "variant": "auction-pitch"}'


def _environment(**language: str) -> dict[str, str | None]:
    """This process's environment with no language set, then ``language`` (as changes)."""
    names = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    return dict.fromkeys(names, None) | language


def _run(*args: str, env: dict[str, str | None], stdin: bytes | None = None) -> Ran:
    """Run the command with the environment ``env`` (in this process)."""
    return invoke(*args, env=env, stdin=stdin)


def _invoke(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def test_score_with_lang_ro_prints_the_sheet_in_romanian() -> None:
    romanian = _invoke("--lang", "ro", "score", str(RECORD))
    english = _invoke("--lang", "en", "score", str(RECORD))
    assert romanian.exit_code == english.exit_code == 0
    for english_word, romanian_word in SHEET_WORDS.items():
        assert romanian_word in romanian.output and english_word not in romanian.output
        assert english_word in english.output and romanian_word not in english.output


def test_lang_ro_ro_in_the_environment_makes_the_command_line_romanian() -> None:
    romanian = _run("score", str(RECORD), env=_environment(LANG="ro_RO.UTF-8"))
    english = _run("score", str(RECORD), env=_environment(LANG="en_US.UTF-8"))
    assert romanian.returncode == english.returncode == 0, romanian.stderr
    for english_word, romanian_word in SHEET_WORDS.items():
        assert romanian_word in romanian.stdout and english_word not in romanian.stdout
        assert english_word in english.stdout
    # --lang wins over the environment.
    chosen = _run("--lang", "en", "score", str(RECORD), env=_environment(LANG="ro_RO.UTF-8"))
    assert chosen.stdout == english.stdout


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("--lang", "ro"), _environment()),
        ((), _environment(LANG="ro_RO.UTF-8")),
    ],
    ids=["lang option", "LANG"],
)
def test_a_bad_record_is_refused_in_romanian_on_stderr_with_status_two(
    args: tuple[str, ...], env: dict[str, str]
) -> None:
    refused = _run(*args, "score", "-", env=env, stdin=NO_PLAYERS)
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert refused.stderr.count("\n") == 1  # exactly one line
    assert "lipsește cheia obligatorie „players”" in refused.stderr
    assert "required key" not in refused.stderr and "record:" not in refused.stderr
    english = _run("score", "-", env=_environment(), stdin=NO_PLAYERS)
    assert english.stderr == 'record: required key "players" is missing\n'


def test_import_all_names_a_bad_game_and_its_place_in_romanian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    broken = tmp_path / "broken.json"
    one_player = {"format": "pitch-scorekeeper/1", "variant": "auction-pitch", "players": ["Ann"]}
    broken.write_text(
        json.dumps(
            {
                "format": "pitch-scorekeeper/collection-1",
                "games": [{"record": dict(one_player, hands=[])}],
            }
        )
    )
    refused = CliRunner().invoke(main, ["--lang", "ro", "import-all", str(broken)])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("partida 1: players: ")
    assert "game 1" not in refused.stderr
    english = CliRunner().invoke(main, ["--lang", "en", "import-all", str(broken)])
    assert english.stderr.startswith("game 1: players: ")


def test_set_password_asks_and_refuses_a_short_password_in_romanian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    refused = CliRunner().invoke(main, ["--lang", "ro", "set-password"], input="abc\nabc\n")
    assert refused.exit_code == 2
    assert refused.stdout.startswith("Parola: ")
    assert "Repetați pentru confirmare: " in refused.stdout
    assert refused.stderr == "eroare: alegeți o parolă de cel puțin 4 caractere\n"
    assert not (tmp_path / "instance").exists()  # nothing was written


def test_backup_refuses_to_copy_the_database_onto_itself_in_romanian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    itself = str(folder / "scorekeeper.sqlite3")
    refused = CliRunner().invoke(main, ["--lang", "ro", "backup", itself])
    assert refused.exit_code == 2, refused.output
    assert refused.stderr == "eroare: fișierul copiei nu poate fi chiar baza de date\n"
    english = CliRunner().invoke(main, ["--lang", "en", "backup", itself])
    assert english.stderr == "error: the backup file cannot be the database itself\n"


def test_a_missing_record_file_is_named_in_romanian_on_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "lipsa.json"
    romanian = _run("--lang", "ro", "score", str(missing), env=_environment())
    assert romanian.returncode == 2
    assert romanian.stderr == f"{missing}: acest fișier nu există\n"
    folder = _run("--lang", "ro", "score", str(tmp_path), env=_environment())
    assert folder.returncode == 2
    assert folder.stderr == f"{tmp_path}: este un dosar, nu un fișier\n"
