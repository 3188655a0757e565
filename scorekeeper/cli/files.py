"""The files the commands read and write, opened by the commands themselves: a file that
cannot be read or written is one line naming it and the problem, in the command line's
language, and status 2 (click's own checks gave a three-line usage error, or a traceback
when the problem showed only on writing)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import NoReturn

import click

from ..i18n import gettext
from ..rules.errors import one_line

#: What stands for standard input or output.
STANDARD = "-"


def refuse(path: str | Path, problem: str) -> NoReturn:
    """Say on one line what is wrong with ``path`` and stop with status 2."""
    click.echo(one_line(f"{path}: {problem}"), err=True)
    sys.exit(2)


def problem_of(error: OSError) -> str:
    """What an OSError says about a file, in words."""
    if isinstance(error, FileNotFoundError):
        return gettext("there is no such file")
    if isinstance(error, IsADirectoryError):
        return gettext("is a folder, not a file")
    return str(error.strerror or error)


def read_bytes(path: str) -> bytes:
    """The bytes of the file at ``path`` ('-': standard input)."""
    if path == STANDARD:
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as file:
            return file.read()
    except (FileNotFoundError, IsADirectoryError) as error:
        refuse(path, problem_of(error))
    except OSError as error:
        refuse(path, gettext("cannot be read (%(reason)s)", reason=problem_of(error)))


def write_text(path: str, text: str) -> None:
    """Write ``text`` to the file at ``path`` ('-': standard output), whole or not at all: a
    file is written beside its place first, then put there (its folders made, as a backup's
    are)."""
    if path == STANDARD:
        click.echo(text, nl=False)
        return
    target = Path(path)
    if target.is_dir():
        refuse(path, gettext("is a folder, not a file"))
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
    except OSError as error:
        with contextlib.suppress(OSError):  # nothing was made there either
            partial.unlink(missing_ok=True)
        refuse(path, gettext("cannot be written (%(reason)s)", reason=problem_of(error)))


def writable_target(path: str) -> Path:
    """A file to write to at ``path``: not a folder, in a folder that is one (or can be
    made); refused on one line otherwise."""
    target = Path(path)
    if target.is_dir():
        refuse(path, gettext("is a folder, not a file"))
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                refuse(path, gettext("a part of the path is a file, not a folder"))
            break
    return target
