"""Every problem a command meets is one line on standard error and status 2, never a
traceback or a usage page; and --help is said in the language asked for (``--lang ro``,
which click would read only after answering --help).

The commands run in this process through click's runner; one case, the pdf command's,
runs it as a real process, as a user would."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from click.testing import CliRunner
from command_line import invoke, run_process

from scorekeeper.cli.main import main

RECORD = Path(__file__).resolve().parent / "records" / "pedro-count-out-by-the-pedro.json"


@pytest.fixture(scope="module")
def instance(
    tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path
) -> dict[str, str | None]:
    """An instance folder with a migrated (empty) database, as the commands find it: the
    changes to the environment that point them there."""
    folder = tmp_path_factory.mktemp("instance")
    (folder / "scorekeeper.sqlite3").write_bytes(migrated_sqlite.read_bytes())
    names = ("DATABASE_URL", "SECRET_KEY", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    return dict.fromkeys(names, None) | {"SCOREKEEPER_INSTANCE": str(folder)}


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Paths no command can use, whoever runs it (root included)."""
    base = tmp_path_factory.mktemp("places")
    a_file = base / "a-file.json"
    a_file.write_text("{}")
    return {
        "folder": base,
        "through-a-file": a_file / "x.json",
        "missing": base / "missing.json",
        "in-proc": Path("/proc/x.sqlite3"),
    }


#: Each command with a path it cannot use, and what it reads or writes there.
CASES = [
    ("score", "{folder}"),
    ("score", "{missing}"),
    ("score", "{through-a-file}"),
    ("import-all", "{folder}"),
    ("import-all", "{missing}"),
    ("import-all", "{through-a-file}"),
    ("export-all", "{folder}"),
    ("export-all", "{through-a-file}"),
    ("export-all", "{in-proc}"),
    ("backup", "{folder}"),
    ("backup", "{through-a-file}"),
    ("backup", "{in-proc}"),
    ("pdf 1 -o", "{folder}"),
    ("pdf 1 -o", "{through-a-file}"),
]
#: The case that runs the command as a real process: the pdf command's smoke test (each of
#: the others has its own elsewhere).
AS_A_PROCESS = {("pdf 1 -o", "{folder}")}


@pytest.mark.parametrize(("command", "where"), CASES)
def test_every_command_with_a_path_it_cannot_use_says_so_in_one_line_with_status_2(
    instance: dict[str, str | None], places: dict[str, Path], command: str, where: str
) -> None:
    path = where.format(**{name: str(p) for name, p in places.items()})
    how = run_process if (command, where) in AS_A_PROCESS else invoke
    run = how(*command.split(), path, env=instance)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1, run.stderr  # exactly one line
    assert path in run.stderr
    assert run.stdout == ""


def test_a_usage_error_is_one_line_naming_where_to_read_the_commands_use(
    instance: dict[str, str | None],
) -> None:
    for args, said in (
        (["pdf", "abc"], "see scorekeeper pdf --help"),
        (["nosuch"], "see scorekeeper --help"),
        (["--lang", "xx", "variants"], "see scorekeeper --help"),
        (["import-all"], "see scorekeeper import-all --help"),
    ):
        run = invoke(*args, env=instance)
        assert run.returncode == 2, args
        assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: "), run.stderr
        assert said in run.stderr


def test_a_database_not_set_up_is_one_line_saying_how_to_set_it_up(tmp_path: Path) -> None:
    env = {"DATABASE_URL": None, "SCOREKEEPER_INSTANCE": str(tmp_path / "new")}
    run = invoke("export-all", str(tmp_path / "x.json"), env=env)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert "scorekeeper init-db" in run.stderr


def test_a_backup_into_a_new_folder_is_made_and_export_all_writes_its_file_whole(
    instance: dict[str, str | None], tmp_path: Path
) -> None:
    target = tmp_path / "new" / "folder" / "games.json"
    run = invoke("export-all", str(target), env=instance)
    assert run.returncode == 0, run.stderr
    assert target.read_text().startswith("{")
    assert not target.with_name("games.json.partial").exists()


def _help(*args: str, **env: str) -> str:
    result = CliRunner(env=env).invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


#: Lines of the English help that must not be on a Romanian one.
ENGLISH = (
    "Usage:",
    "Options",
    "Commands",
    "Show this message and exit.",
    "Score the game record",
    "Language of the output",
    "Print the Output document",
)


@pytest.mark.parametrize(
    "args",
    [("--lang", "ro", "--help"), ("--lang=ro", "--help"), ("--lang", "ro", "score", "--help")],
    ids=["group", "group-equals", "command"],
)
def test_lang_ro_says_help_in_romanian(args: tuple[str, ...]) -> None:
    said = _help(*args)
    assert said.startswith("Folosire: ")
    assert "Opțiuni" in said and "Arătați acest mesaj și ieșiți." in said
    assert [line for line in ENGLISH if line in said] == []


def test_the_environments_romanian_says_help_too_and_english_stays_english() -> None:
    said = _help("--help", LANG="ro_RO.UTF-8")
    assert "Comenzi" in said and "Calculați scorul înregistrării" in said
    english = _help("--lang", "en", "--help", LANG="ro_RO.UTF-8")
    assert "Commands:" in english and "Score the game record FILE" in english
    assert "Comenzi" not in english
    serve = _help("--lang", "ro", "serve", "--help")
    assert "[implicit: 127.0.0.1]" in serve and "[default:" not in serve


def test_every_help_text_of_every_command_is_in_the_romanian_catalogue() -> None:
    from tests.i18n.catalogue import romanian

    translated = {m.id for m in romanian() if m.id and m.string}
    missing = []
    for command in [main, *main.commands.values()]:
        texts = [command.__dict__.get("_english_help") or command.help]
        texts += [
            getattr(p, "_english_help", None) or getattr(p, "help", None) for p in command.params
        ]
        missing += [t for t in texts if t and inspect.cleandoc(t) not in translated]
    assert missing == []


def test_a_record_is_still_scored_after_help_was_said_in_another_language() -> None:
    _help("--lang", "ro", "--help")
    result = CliRunner().invoke(main, ["--lang", "en", "score", str(RECORD)])
    assert result.exit_code == 0
    assert "Winner:" in result.output
