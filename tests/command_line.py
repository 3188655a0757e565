"""Run the ``scorekeeper`` command: in this process, through click's CliRunner on
``scorekeeper.cli:main`` (most tests: what it prints and the status it ends with), or as a
real process, as a user at the table runs it (one smoke test per command, and the tests
of what only a process shows: signals, a real standard output, a fresh interpreter).

Both give the same shape, ``returncode``, ``stdout`` and ``stderr`` (text, or bytes with
``text=False``), so a test says the same thing of either. The environment is given as
changes to this process's (``None`` takes a variable out), for both ways of running.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The installed console script.
SCRIPT = Path(sys.executable).parent / "scorekeeper"

Changes = Mapping[str, str | None]


@dataclass(frozen=True)
class Ran:
    """What a command run in this process said, as ``subprocess.run`` would report it."""

    returncode: int
    stdout: Any
    stderr: Any


def environment(changes: Changes | None = None) -> dict[str, str]:
    """This process's environment with ``changes`` made (``None`` takes a variable out)."""
    env = dict(os.environ)
    for name, value in (changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def invoke(
    *args: str,
    env: Changes | None = None,
    stdin: str | bytes | None = None,
    text: bool = True,
    fresh_stack: bool = False,
) -> Ran:
    """Run ``scorekeeper args`` in this process. An exception the command lets out fails the
    test (a real process would print its traceback). With ``fresh_stack`` it runs on a new
    thread, whose stack starts as empty as a new process's: for input nested deeply enough
    to overflow Python's stack, the depth at which it overflows is then a process's."""
    from click.testing import CliRunner

    from scorekeeper.cli import main

    def run() -> Any:
        return CliRunner().invoke(
            main,
            list(args),
            input=stdin,
            env=env,
            catch_exceptions=False,
            prog_name=SCRIPT.name,  # as a process is named by its script: "see scorekeeper --help"
        )

    if fresh_stack:
        done: list[Any] = []
        failed: list[BaseException] = []

        def on_a_thread() -> None:
            try:
                done.append(run())
            except BaseException as error:  # raised again below, in the test's thread
                failed.append(error)

        thread = threading.Thread(target=on_a_thread, name="scorekeeper-command")
        thread.start()
        thread.join()
        if failed:
            raise failed[0]
        result = done[0]
    else:
        result = run()
    if text:
        return Ran(result.exit_code, result.stdout, result.stderr)
    return Ran(result.exit_code, result.stdout_bytes, result.stderr_bytes)


def run_process(
    *args: str,
    env: Changes | None = None,
    stdin: str | bytes | None = None,
    text: bool = True,
    cwd: Path | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[Any]:
    """Run the installed ``scorekeeper`` as a real process, as a user at the table would."""
    if text and isinstance(stdin, bytes):
        stdin = stdin.decode()
    return subprocess.run(
        [str(SCRIPT), *args],
        input=stdin,
        capture_output=True,
        text=text,
        encoding="utf-8" if text else None,
        env=environment(env),
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


def run_python(code: str, cwd: Path) -> str:
    """Run ``code`` in a fresh interpreter of this Python, in ``cwd``: it must end well within
    60 s. Its output (a probe of what an import loads, say)."""
    completed = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return completed.stdout
