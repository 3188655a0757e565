"""A clone tests alone: no test needs a path above the project root.

CI clones the project beside a copy of ``shared/``, but a developer's clone has nothing
beside it, and ``make test`` must pass there too. So every path a test module builds from
its own file (``Path(__file__).resolve().parents[3] / "shared"``, ``ROOT.parent``, ``"../"``)
is followed here, without running it: one that leaves the project is allowed only where
the module checks that it is there (``if not NAME.is_dir(): pytest.skip(...)``, or
``if NAME.is_dir():``) before using it. tests/examples holds the spec's worked examples
for everything else; tests/rules/test_rules_record.py compares them with ../shared when
that is there.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
#: The checks that a path is there, which make using a path above the project root safe.
CHECKS = {"is_dir", "exists", "is_file"}


def _level(node: ast.AST, file_level: int, names: dict[str, int]) -> int | None:
    """How many folders below the project root ``node``'s path is, for a path made from
    ``__file__``, a name holding one, ``.parent``, ``.parents[N]``, ``.resolve()`` and
    ``/ "part"``; None for anything else. A path that went above the root at any step is
    ``ABOVE`` (going down again from there, it does not come back into the project)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Path":
        if len(node.args) == 1 and isinstance(node.args[0], ast.Name):
            return _level(node.args[0], file_level, names)
        return None
    if isinstance(node, ast.Name):
        return file_level if node.id == "__file__" else names.get(node.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in ("resolve", "absolute") and not node.args:
            return _level(node.func.value, file_level, names)
        return None
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        return _up(_level(node.value, file_level, names), 1)
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "parents"
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, int)
    ):
        return _up(_level(node.value.value, file_level, names), 1 + node.slice.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        level = _level(node.left, file_level, names)
        if not isinstance(node.right, ast.Constant) or not isinstance(node.right.value, str):
            return _up(level, -1)  # a name or an expression: one part, never ".."
        for part in node.right.value.split("/"):
            level = _up(level, 1 if part == ".." else 0 if part in ("", ".") else -1)
        return level
    return None


#: The level of a path that went above the project root.
ABOVE = -1


def _up(level: int | None, folders: int) -> int | None:
    """``level`` moved up ``folders`` folders (down, if negative); above the root it stays."""
    if level is None or level == ABOVE:
        return level
    return ABOVE if level - folders < 0 else level - folders


def _checked_names(tree: ast.AST) -> set[str]:
    """The names an ``if`` (or a conditional expression) checks are there: ``NAME.is_dir()``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.IfExp):
            for call in ast.walk(node.test):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr in CHECKS
                    and isinstance(call.func.value, ast.Name)
                ):
                    found.add(call.func.value.id)
    return found


def _root_name(node: ast.AST) -> str | None:
    """The name a path expression starts from: ``ROOT`` in ``ROOT.parent / "x"``."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        elif isinstance(node, ast.BinOp):
            node = node.left
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.Call) and len(node.args) == 1:
            node = node.args[0]
        else:
            return None


def paths_above_the_root(source: str, relative: str) -> list[str]:
    """Where the module ``relative`` (its path in the project) builds a path above the
    project root that it does not check is there first: ``line: the expression``."""
    tree = ast.parse(source)
    file_level = len(Path(relative).parts)
    names: dict[str, int] = {}
    checked = _checked_names(tree)
    found = []
    # In order of the source, so that a name is known before it is used.
    nodes = sorted(
        (n for n in ast.walk(tree) if isinstance(n, ast.expr | ast.Assign)),
        key=lambda n: (n.lineno, n.col_offset, -getattr(n, "end_col_offset", 0)),
    )
    reported: set[int] = set()
    # What a name is given is judged as the name (checked or not), not again on its own.
    given = {
        id(part)
        for node in nodes
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets)
        for part in ast.walk(node.value)
    }
    for node in nodes:
        if id(node) in given:
            continue
        if isinstance(node, ast.Assign):
            level = _level(node.value, file_level, names)
            for target in node.targets:
                if isinstance(target, ast.Name) and level is not None:
                    names[target.id] = level
                    if level < 0 and target.id not in checked:
                        found.append(f"{node.lineno}: {ast.unparse(node)}")
                        reported.add(node.lineno)
            continue
        if _root_name(node) in names:
            continue  # made from a name: its assignment is what is checked (above)
        level = _level(node, file_level, names)
        if level is not None and level < 0 and node.lineno not in reported:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
            reported.add(node.lineno)
    return found


def test_no_test_needs_a_path_above_the_project_root() -> None:
    offenders = {
        path.relative_to(REPO).as_posix(): paths_above_the_root(
            path.read_text(encoding="utf-8"), path.relative_to(REPO).as_posix()
        )
        for path in sorted(TESTS.rglob("*.py"))
    }
    assert {path: lines for path, lines in offenders.items() if lines} == {}


def test_the_check_finds_the_spec_examples_read_from_beside_the_project() -> None:
    # How tests/web/test_ten_point.py read the worked examples before they came from
    # tests/examples: a clone on its own failed three of its tests.
    old = (
        "EXAMPLES = Path(__file__).resolve().parents[3] / 'shared' / 'spec' / 'examples'\n"
        "def test_moon(client):\n"
        "    example = json.loads((EXAMPLES / 'ten-point-moon.json').read_text())\n"
    )
    assert paths_above_the_root(old, "tests/web/test_ten_point.py") == [
        "1: EXAMPLES = Path(__file__).resolve().parents[3] / 'shared' / 'spec' / 'examples'"
    ]


def test_the_check_follows_names_parents_and_dot_dot_and_allows_a_checked_path() -> None:
    source = (
        "ROOT = Path(__file__).resolve().parents[1]\n"  # the project root: fine
        "EXAMPLES = ROOT / 'tests' / 'examples'\n"  # inside: fine
        "SIBLING = ROOT.parent / 'shared'\n"  # above, never checked
        "UP = ROOT / 'tests' / '..' / '..' / 'elsewhere'\n"  # above, through ..
        "SPEC = Path(__file__).parent.parent.parent / 'shared'\n"  # above, checked below
        "def test_spec():\n"
        "    if not SPEC.is_dir():\n"
        "        pytest.skip('no ../shared beside the project')\n"
        "    read(Path(__file__).parents[2] / 'x')\n"  # above, in an expression
    )
    assert paths_above_the_root(source, "tests/test_x.py") == [
        "3: SIBLING = ROOT.parent / 'shared'",
        "4: UP = ROOT / 'tests' / '..' / '..' / 'elsewhere'",
        "9: Path(__file__).parents[2] / 'x'",
    ]
