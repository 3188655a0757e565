"""What ``make messages`` reads from the command line's modules: the marked strings, as from
any module, and the help texts of its commands (each command's docstring, each option's
``help=``), which click shows and ``cli.main`` translates by their English.

Babel calls ``extract`` for ``scorekeeper/cli/*.py`` (``babel.cfg``), so a help text is in
the catalogue as soon as it is written, as a marked string is.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_python

#: The decorators whose function's docstring is a command's help.
_COMMANDS = frozenset({"command", "group"})
#: The calls whose ``help=`` is a parameter's or command's help.
_HELPED = frozenset({"option", "argument", "command", "group"})


def _called(node: ast.expr) -> str | None:
    """The name a decorator or call ends in: ``click.command(...)`` and ``main.command()``
    give ``command``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def help_texts(source: str) -> Iterator[tuple[int, str]]:
    """Each (line, help text) of the commands and options in ``source``, cleaned as click
    cleans them (``inspect.cleandoc``)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(
            _called(d) in _COMMANDS for d in node.decorator_list
        ):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.lineno, doc
        if isinstance(node, ast.Call) and _called(node) in _HELPED:
            for keyword in node.keywords:
                value = keyword.value
                if (
                    keyword.arg == "help"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    yield node.lineno, inspect.cleandoc(value.value)


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Any,
) -> Iterator[Any]:
    """Babel's extractor for the command line's modules: its Python extractor's strings,
    then the help texts (each as its extractor gives one: line, function, text, comments)."""
    source = fileobj.read()
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)
    encoding = str(options.get("encoding", "utf-8"))
    for line, text in help_texts(source.decode(encoding)):
        yield line, None, text, []
