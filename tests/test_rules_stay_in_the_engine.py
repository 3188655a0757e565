"""No module outside the engine decides by a variant's or a point's key, and no template or
script by a sale either: the rules live in ``scorekeeper/rules/`` (issue 17). Iterating the
engine's data is fine; comparing against a literal such as ``== "sell-out"`` or
``in ("high", "low")`` re-derives a rule elsewhere. A template is given what it needs by the
page model (``row.sale_words``, not ``row.sale == 'sold'``); a script by the page's data."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from jinja2 import Environment, nodes

from scorekeeper import rules

PACKAGE = Path(rules.__file__).resolve().parent.parent
ENGINE = PACKAGE / "rules"
TEMPLATES = PACKAGE.parent / "templates"
SCRIPTS = PACKAGE.parent / "static" / "js"
#: The keys a rule is written against: every variant's and every point's.
KEYS = frozenset(rules.VARIANTS) | frozenset(rules.POINTS)
#: What a template or a script must not compare against: those keys, and the sales of a
#: Sell-Out hand (``sold``, ``kept``, ``pitched``).
PAGE_LITERALS = KEYS | frozenset(sale.value for sale in rules.Sale)


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


# --- Templates ------------------------------------------------------------------------------

#: Jinja tests that compare (``x is eq 'sold'``), and filters that take one (``selectattr``).
_COMPARING_TESTS = frozenset({"eq", "equalto", "==", "ne", "!=", "sameas", "in"})
_COMPARING_FILTERS = frozenset({"select", "reject", "selectattr", "rejectattr"})


def _template_literals(node: nodes.Node) -> Iterator[str]:
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (nodes.Tuple, nodes.List)):
        for item in node.items:
            yield from _template_literals(item)


def template_comparisons(source: str) -> list[tuple[int, str]]:
    """Each (line, literal) where a template compares against a key or a sale: ``==``,
    ``!=``, ``in``, a comparing test (``is eq``) or a filter that compares (``selectattr``)."""
    tree = Environment(extensions=["jinja2.ext.i18n"]).parse(source)
    found = []
    for node in tree.find_all((nodes.Compare, nodes.Test, nodes.Filter)):
        if isinstance(node, nodes.Compare):
            operands = [node.expr, *(op.expr for op in node.ops)]
        elif isinstance(node, nodes.Test) and node.name in _COMPARING_TESTS:
            operands = [node.node, *node.args]
        elif isinstance(node, nodes.Filter) and node.name in _COMPARING_FILTERS:
            operands = list(node.args)
        else:
            continue
        found += [
            (node.lineno, k) for o in operands for k in _template_literals(o) if k in PAGE_LITERALS
        ]
    return sorted(found)


def test_the_template_check_finds_a_comparison_against_a_key_or_a_sale() -> None:
    source = (
        "{% if row.sale == 'sold' %}{% endif %}\n"
        "{% if key in ['high', 'low'] %}{% endif %}\n"
        "{{ rows | selectattr('sale', 'equalto', 'kept') | list }}\n"
        "{% if 'pitched' is sameas row.sale %}{% endif %}\n"
        "{% set words = {'kept': _('Kept')} %}{{ form['point_' ~ key] }}\n"
        "{% if job.state == 'failed' %}{% endif %}\n"
    )
    assert template_comparisons(source) == [
        (1, "sold"),
        (2, "high"),
        (2, "low"),
        (3, "kept"),
        (4, "pitched"),
    ]


def test_no_template_compares_against_a_key_or_a_sale() -> None:
    offences = [
        f"{path.relative_to(TEMPLATES.parent)}:{line}: {literal!r}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for line, literal in template_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert offences == []


# --- Scripts --------------------------------------------------------------------------------

_JS_TOKEN = re.compile(
    r"""(?P<space>\s+)|(?P<comment>//[^\n]*|/\*.*?\*/)"""
    r"""|(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)"""
    r"""|(?P<word>[A-Za-z_$][\w$]*|\d[\w.]*)"""
    r"""|(?P<punct>===|!==|==|!=|=>|&&|\|\||\?\?|\.\.\.|[^\s\w])""",
    re.DOTALL,
)
#: After these a ``/`` starts a regular expression, not a division.
_BEFORE_REGEX = frozenset("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "=>", "&&", "||"}
_REGEX = re.compile(r"/(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*")
_EQUALITY = frozenset({"===", "!==", "==", "!="})
#: An attribute selector that matches a value: ``[value="sold"]``.
_SELECTOR = re.compile(r"""\[[\w-]+\s*[~|^$*]?=\s*["']?([\w-]+)["']?\s*\]""")


def _js_tokens(source: str) -> list[tuple[str, str, int]]:
    """The script's tokens as (kind, text, line), comments and spaces left out; a string's
    text is its value (what is between the quotes)."""
    tokens: list[tuple[str, str, int]] = []
    at, line = 0, 1
    while at < len(source):
        last = tokens[-1][1] if tokens else "("
        if source[at] == "/" and last in _BEFORE_REGEX and source[at : at + 2] not in ("//", "/*"):
            found = _REGEX.match(source, at)
            if found:
                tokens.append(("regex", found.group(), line))
                at = found.end()
                continue
        match = _JS_TOKEN.match(source, at)
        assert match is not None, f"cannot read the script at line {line}"
        kind, text = match.lastgroup or "", match.group()
        if kind == "string":
            tokens.append((kind, text[1:-1], line))
        elif kind in ("word", "punct"):
            tokens.append((kind, text, line))
        line += text.count("\n")
        at = match.end()
    return tokens


def script_comparisons(source: str) -> list[tuple[int, str]]:
    """Each (line, literal) where a script compares against a key or a sale: beside ``===``,
    ``!==``, ``==`` or ``!=``, after ``case``, given to ``includes`` or ``indexOf`` (or in an
    array they are called on), or as the value an attribute selector matches."""
    tokens = _js_tokens(source)
    found = []
    for i, (kind, text, line) in enumerate(tokens):
        if kind != "string":
            continue
        for value in _SELECTOR.findall(text):
            if value in PAGE_LITERALS:
                found.append((line, value))
        if text not in PAGE_LITERALS:
            continue
        before = tokens[i - 1][1] if i else ""
        after = tokens[i + 1][1] if i + 1 < len(tokens) else ""
        called = [t for _, t, _ in tokens[max(0, i - 3) : i]] in (
            [".", "includes", "("],
            [".", "indexOf", "("],
        )
        # A literal in an array literal that is searched: ["sold", "kept"].includes(sale).
        depth, j = 0, i
        while j < len(tokens) and tokens[j][1] not in (";",):
            if tokens[j][1] == "[":
                depth += 1
            elif tokens[j][1] == "]":
                if depth == 0:
                    break
                depth -= 1
            j += 1
        searched = (
            j + 2 < len(tokens)
            and tokens[j][1] == "]"
            and tokens[j + 1][1] == "."
            and tokens[j + 2][1] in ("includes", "indexOf")
        )
        if before in _EQUALITY or after in _EQUALITY or before == "case" or called or searched:
            found.append((line, text))
    return found


def test_the_script_check_finds_a_comparison_against_a_key_or_a_sale() -> None:
    source = (
        'if (sale === "sold") { x = a / b; }\n'
        "if ('kept' !== hand.sale) {}\n"
        "switch (variant) { case `sell-out`: break; }\n"
        'const points = ["high", "low"].includes(key);\n'
        "form.querySelector('input[value=\"pitched\"]');\n"
        "// if (sale === 'sold') in a comment\n"
        'const words = { kept: "kept" }; const re = /"sold"/g; words.kept.indexOf("jack");\n'
    )
    assert script_comparisons(source) == [
        (1, "sold"),
        (2, "kept"),
        (3, "sell-out"),
        (4, "high"),
        (4, "low"),
        (5, "pitched"),
        (7, "jack"),
    ]


def test_no_script_compares_against_a_key_or_a_sale() -> None:
    offences = [
        f"{path.relative_to(SCRIPTS.parent.parent)}:{line}: {literal!r}"
        for path in sorted(SCRIPTS.glob("*.js"))
        for line, literal in script_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert offences == []
