"""Run a command as on a fresh machine that has only Python: no Chromium, no poppler, no
Node, no libharfbuzz-subset0, no PostgreSQL, no ../shared beside the project, and not in CI.

    sudo .venv/bin/python tests/fresh_machine.py make test
    sudo .venv/bin/python tests/fresh_machine.py .venv/bin/python -m pytest tests/pdf -q

Nothing is uninstalled. The command runs in a private mount namespace (``unshare
--mount``, so it needs root) in which /dev/null is bound over the Chromium launcher,
pdftoppm, node and every file of the HarfBuzz subset library, and an empty folder over
../shared; CI, TEST_DATABASE_URL and DATABASE_URL are taken out of its environment.
Outside the command everything stays as it was. tests/test_fresh_machine.py runs part
of the suite this way; the whole suite passes this way too (the README says so).
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import system_parts

REPO = Path(__file__).resolve().parents[1]
#: What the environment of a developer's fresh machine does not have.
UNSET = ("CI", "TEST_DATABASE_URL", "DATABASE_URL")


def harfbuzz_subset_files() -> list[Path]:
    """Every file the dynamic loader could open as HarfBuzz's subset library."""
    found: set[Path] = set()
    listing = subprocess.run(
        ["ldconfig", "-p"], capture_output=True, text=True, check=False
    ).stdout.splitlines()
    for line in listing:
        if "libharfbuzz-subset" in line and "=>" in line:
            found.add(Path(line.split("=>", 1)[1].strip()).resolve())
    for folder in ("/usr/lib", "/usr/lib/*-linux-gnu", "/usr/lib64", "/usr/local/lib"):
        found.update(Path(p).resolve() for p in glob.glob(f"{folder}/libharfbuzz-subset*.so*"))
    return sorted(p for p in found if p.is_file())


def hidden_files() -> list[Path]:
    """The files bound over with /dev/null: what a machine with only Python lacks."""
    programs = [part.find() for part in system_parts.PARTS.values()]
    return [p for p in [*programs, *harfbuzz_subset_files()] if p is not None]


def can_hide() -> str | None:
    """Why parts cannot be hidden here (None when they can): a mount namespace needs root."""
    if os.geteuid() != 0:
        return "hiding system parts needs root (a private mount namespace)"
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return "hiding system parts needs unshare and mount (util-linux, mount)"
    probe = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "true"],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        return f"unshare --mount is refused here: {probe.stderr.decode(errors='replace').strip()}"
    return None


def command_line(command: list[str]) -> list[str]:
    """``command`` wrapped to run in a namespace where the parts are hidden."""
    mounts = [f"mount --bind /dev/null {shlex.quote(str(p))}" for p in hidden_files()]
    shared = REPO.parent / "shared"
    if shared.is_dir():
        mounts.append(
            f"mount -t tmpfs -o size=1m,mode=0555 fresh-machine {shlex.quote(str(shared))}"
        )
    script = " && ".join([*mounts, 'exec "$@"'])
    return [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "--",
        "sh",
        "-c",
        script,
        "sh",
        *command,
    ]


def environment(**changes: str) -> dict[str, str]:
    """This process's environment without CI and the databases, then ``changes``."""
    return {k: v for k, v in os.environ.items() if k not in UNSET} | changes


def run(
    command: list[str], *, env: dict[str, str] | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in the project folder as on a fresh machine; capture what it prints."""
    return subprocess.run(
        command_line(command),
        cwd=REPO,
        env=environment() if env is None else env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    reason = can_hide()
    if reason is not None:
        print(f"fresh_machine: {reason}", file=sys.stderr)
        return 2
    print("fresh_machine: hiding " + ", ".join(map(str, hidden_files())), file=sys.stderr)
    return subprocess.run(command_line(argv), cwd=REPO, env=environment(), check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
