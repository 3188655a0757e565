"""The house's seams: views reach the data only through ``operations`` and ``queries``."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
#: What a view must not import: the database layer, its rows and its session.
FORBIDDEN = {"sqlalchemy", "scorekeeper.data.models", "scorekeeper.data.extensions.db"}


def _package_of(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])


def _imports(path: Path, package: str) -> set[str]:
    """The modules (and names) a file imports, relative imports made absolute: ``from ..
    import models`` in package ``scorekeeper.games`` is ``scorekeeper.data.models``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)


def test_the_views_are_found() -> None:
    views = sorted(PACKAGE.rglob("views.py"))
    assert len(views) >= 6, views


def test_no_view_imports_sqlalchemy_or_the_models() -> None:
    offenders = {
        str(path.relative_to(PACKAGE.parent)): sorted(
            n for n in _imports(path, _package_of(path)) if _forbidden(n)
        )
        for path in sorted(PACKAGE.rglob("views.py"))
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_import_check_sees_the_models_and_the_session_imported_relatively(
    tmp_path: Path,
) -> None:
    source = tmp_path / "views.py"
    source.write_text(
        "from ..data import models\n"
        "from ..data.extensions import csrf, db\n"
        "from sqlalchemy.orm import Session\n"
        "import sqlalchemy as sa\n"
    )
    caught = sorted(n for n in _imports(source, "scorekeeper.games") if _forbidden(n))
    assert caught == [
        "scorekeeper.data.extensions.db",
        "scorekeeper.data.models",
        "sqlalchemy",
        "sqlalchemy.orm",
        "sqlalchemy.orm.Session",
    ]


#: The data layer: the only modules that may import the database's parts. ``operations``
#: writes and reads games; a feature's ``queries`` (and history's ``filters``, which build
#: its queries) read; ``stats`` keeps the counted statistics that operations update; the
#: rest are the database itself (and ``live``, which tells open boards of a committed change
#: through it). Everything else (views, PDFs, the command line, the seed
#: and backup commands) calls these.
DATA_LAYER = (
    "operations/",
    "stats/",
    "data/",
    "queries.py",
    "history/filters.py",
    "app.py",  # it hands the app to the database: ``db.init_app``
    "live/broker.py",  # the change broker: LISTENs on its own line (a trigger NOTIFYs)
)


def _in_data_layer(path: Path) -> bool:
    relative = path.relative_to(PACKAGE).as_posix()
    return any(
        relative.startswith(part) if part.endswith("/") else relative.endswith(part)
        for part in DATA_LAYER
    )


def test_only_the_data_layer_imports_sqlalchemy_or_the_models() -> None:
    offenders = {
        str(path.relative_to(PACKAGE.parent)): sorted(
            n for n in _imports(path, _package_of(path)) if _forbidden(n)
        )
        for path in sorted(PACKAGE.rglob("*.py"))
        if not _in_data_layer(path)
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_the_data_layer_list_names_only_what_exists() -> None:
    files = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")]
    for part in DATA_LAYER:
        assert any(f.startswith(part) if part.endswith("/") else f.endswith(part) for f in files), (
            part
        )


#: The feature folders: each is a blueprint's pages. ``operations`` is below all of them.
FEATURES = ("games", "setup", "nights", "players", "history", "auth", "events", "trail")
#: The folders a feature holds only these files in (anything else is a layer's).
FEATURE_ROLES = {"__init__.py", "views.py", "forms.py", "queries.py"}
#: The features' named second blueprints and helpers, each with the reason it is not a
#: layer's: the JSON door and the rules card are pages of their own; ``receive`` is the one
#: way a hand comes in, which the game page's post and the JSON door both call and only
#: render (HTML, JSON); the history's filters are its form read from a query string;
#: ``access`` is the organiser's guard; the setup's refusals are the engine's refusals said
#: in its form's words (its labels, its choices), by code, as the form shows them; the
#: hand form's ``form_class`` builds a table's form class (the variant's own fields), kept
#: once a table and language, apart from what every hand form reads (``forms``); ``compare``
#: sets a form's hand beside a recorded one for ``receive``'s conflict and a chosen correction;
#: the setup's ``shape`` reads the shape of the game the form sent and draws it back; an
#: event's knockout and what its room reads (the board, the standings, the printed lists)
#: are blueprints of their own beside the director's screen.
FEATURE_EXTRAS = {
    "games/compare.py",
    "games/form_class.py",
    "games/offline.py",
    "games/receive.py",
    "games/rules_card.py",
    "history/filters.py",
    "auth/access.py",
    "events/knockout_views.py",
    "events/room_views.py",
    "auth/directors.py",
    "setup/refusals.py",
    "setup/shape.py",
}


def _imported_modules(path: Path) -> set[str]:
    return {n for n in _imports(path, _package_of(path)) if n.startswith("scorekeeper.")}


def test_operations_imports_no_feature_module_and_nothing_of_the_web() -> None:
    below = tuple(f"scorekeeper.{name}" for name in (*FEATURES, "web", "pdf", "cli", "serving"))
    offenders = {
        str(path.relative_to(PACKAGE.parent)): sorted(
            n for n in _imported_modules(path) if n.startswith(below)
        )
        for path in sorted((PACKAGE / "operations").rglob("*.py"))
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_a_feature_folder_holds_only_its_fixed_roles() -> None:
    found = {
        path.relative_to(PACKAGE).as_posix()
        for name in FEATURES
        for path in (PACKAGE / name).glob("*.py")
        if path.name not in FEATURE_ROLES
    }
    assert found == FEATURE_EXTRAS


def test_every_feature_folder_is_a_package_with_its_views() -> None:
    for name in FEATURES:
        assert (PACKAGE / name / "__init__.py").is_file(), name
        assert (PACKAGE / name / "views.py").is_file(), name


def _source_lines(pattern: str) -> list[str]:
    import re

    wanted = re.compile(pattern)
    return [
        f"{path.relative_to(PACKAGE.parent)}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "rules" not in path.relative_to(PACKAGE).parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if wanted.search(line)
    ]


def test_no_page_writes_its_own_not_found() -> None:
    # A "not found" is an operations code (operations/errors.py), said by one error handler.
    assert _source_lines(r"abort\(\s*404") == []


def test_a_variant_is_looked_up_only_by_the_engines_find_variant() -> None:
    assert _source_lines(r"VARIANTS\s*(\.get\(|\[)") == []


#: Where a hand is recorded from, outside the operations layer: the one door.
HAND_DOOR = "games/receive.py"


def _calls(path: Path, name: str) -> list[int]:
    """The lines where a file calls a function named ``name`` (``x.name(...)`` or ``name(...)``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called == name:
                found.append(node.lineno)
    return found


def test_only_receive_hand_records_a_hand_from_the_web_layer() -> None:
    # Both doors (the game page's post, the phone's JSON door) go through receive_hand: the
    # conflicts, Back and the messages exist once.
    callers = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE).as_posix().startswith("operations/")
        and (lines := _calls(path, "record_hand"))
    }
    assert list(callers) == [HAND_DOOR]
    door = (PACKAGE / HAND_DOOR).read_text(encoding="utf-8")
    tree = ast.parse(door)
    receive = next(
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "receive_hand"
    )
    inside = {node.lineno for node in ast.walk(receive) if isinstance(node, ast.Call)}
    assert set(callers[HAND_DOOR]) <= inside


def test_both_hand_doors_call_receive_hand() -> None:
    for door in ("games/views.py", "games/offline.py"):
        assert _calls(PACKAGE / door, "receive_hand"), door


def test_the_call_check_finds_a_call_by_attribute_and_by_name(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text("operations.hands.record_hand(1)\nrecord_hand(2)\nrecord_hands(3)\n")
    assert _calls(source, "record_hand") == [1, 2]


#: What ends a session or closes the pool's connections by hand. Only the data layer and
#: ``operations`` may: a long job or a command asks for it through them
#: (``database.read_then_release``, ``database.command_context``).
SESSION_ENDERS = {"release", "close_all", "remove", "dispose"}
#: The folders that may call them.
SESSION_KEEPERS = ("data/", "operations/")


def _session_ends(path: Path) -> list[str]:
    """Where a file calls ``database.release``/``close_all`` (imported or through the
    module), or ``db.session.remove``/``db.engine.dispose``: ``name:line``."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("database")
        for alias in node.names
        if alias.name in SESSION_ENDERS
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        if isinstance(called, ast.Name) and called.id in imported:
            found.append(f"{called.id}:{node.lineno}")
        elif isinstance(called, ast.Attribute) and called.attr in SESSION_ENDERS:
            owner = ast.unparse(called.value)
            if owner in ("database", "db.session", "db.engine") or owner.endswith(".database"):
                found.append(f"{owner}.{called.attr}:{node.lineno}")
    return found


def test_only_the_data_layer_and_operations_end_a_session_or_close_the_connections() -> None:
    offenders = {
        str(path.relative_to(PACKAGE.parent)): _session_ends(path)
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE).as_posix().startswith(SESSION_KEEPERS)
    }
    assert {path: calls for path, calls in offenders.items() if calls} == {}


def test_the_session_check_sees_each_way_of_ending_one(tmp_path: Path) -> None:
    source = tmp_path / "history.py"
    source.write_text(
        "from ..data.database import release, close_all as shut\n"
        "from ..data import database\n"
        "release()\n"
        "shut()\n"
        "database.close_all()\n"
        "db.session.remove()\n"
        "db.engine.dispose()\n"
        "lock.release()\n"
    )
    assert _session_ends(source) == [
        "release:3",
        "shut:4",
        "database.close_all:5",
        "db.session.remove:6",
        "db.engine.dispose:7",
    ]


#: A module outside the engine longer than this says why in its docstring.
LONGEST = 400
#: The words that start that reason.
LONG_BECAUSE = "Long because"


def _long_without_reason(root: Path) -> dict[str, int]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(("rules/", "data/migrations/")):
            continue  # the engine, and the migrations' frozen copies
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > LONGEST and LONG_BECAUSE not in (ast.get_docstring(ast.parse(text)) or ""):
            found[relative] = lines
    return found


def test_a_long_module_outside_the_engine_says_why_it_is_one_file() -> None:
    # One job a file: past LONGEST lines a module is split, or its docstring says why its
    # parts belong together ("Long because ...").
    assert _long_without_reason(PACKAGE) == {}


def test_the_length_check_finds_a_long_module_and_takes_its_reason(tmp_path: Path) -> None:
    body = "x = 1\n" * (LONGEST + 1)
    (tmp_path / "long.py").write_text(f'"""A module."""\n{body}', encoding="utf-8")
    (tmp_path / "kept.py").write_text(f'"""A module.\n\nLong because: one job."""\n{body}')
    (tmp_path / "short.py").write_text('"""A module."""\nx = 1\n', encoding="utf-8")
    assert _long_without_reason(tmp_path) == {"long.py": LONGEST + 2}
