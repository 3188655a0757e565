"""No module outside the engine decides by a variant's or a point's key: the rules live in
``scorekeeper/rules/`` (issue 17). Iterating the engine's data is fine; comparing against a
literal such as ``== "sell-out"`` or ``in ("high", "low")`` re-derives a rule elsewhere."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

from scorekeeper import rules

PACKAGE = Path(rules.__file__).resolve().parent.parent
ENGINE = PACKAGE / "rules"
#: The keys a rule is written against: every variant's and every point's.
KEYS = frozenset(rules.VARIANTS) | frozenset(rules.POINTS)


def _literals(node: ast.expr, names: Mapping[str, ast.expr]) -> Iterator[str]:
    """The string constants a comparison operand is or holds: a literal, a tuple, list or set
    of them, ``frozenset(...)`` of one, or a module-level name bound to any of those."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for element in node.elts:
            yield from _literals(element, names)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        if node.func.id in ("frozenset", "set", "tuple"):
            yield from _literals(node.args[0], names)
    elif isinstance(node, ast.Name) and node.id in names:
        yield from _literals(names[node.id], {})


def key_comparisons(source: str) -> list[tuple[int, str]]:
    """Each (line, key) where ``source`` compares against a variant or point key literal."""
    tree = ast.parse(source)
    names: dict[str, ast.expr] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Name):
            names[target.id] = value
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            found += [(node.lineno, k) for o in operands for k in _literals(o, names) if k in KEYS]
        elif isinstance(node, ast.match_case):
            for pattern in ast.walk(node.pattern):
                if isinstance(pattern, ast.MatchValue):
                    line = pattern.lineno
                    found += [(line, k) for k in _literals(pattern.value, names) if k in KEYS]
    return found


def test_the_check_finds_a_comparison_against_a_variant_or_point_key() -> None:
    source = (
        'if variant.key == "sell-out": pass\n'
        'if key in ("high", "low"): pass\n'
        'if "cinch" != game.variant.key: pass\n'
        "match key:\n"
        '    case "jack": pass\n'
        'SHOWN = frozenset({"three", "none"})\n'
        "if point.key in SHOWN: pass\n"
        'if name == "players" or [k for k in POINTS if k]: pass\n'
    )
    assert key_comparisons(source) == [
        (1, "sell-out"),
        (2, "high"),
        (2, "low"),
        (3, "cinch"),
        (5, "jack"),
        (7, "three"),
    ]


def test_no_module_outside_the_engine_compares_against_a_variant_or_point_key() -> None:
    offences = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {key!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if ENGINE not in path.parents
        for line, key in key_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert offences == []
