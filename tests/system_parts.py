"""The system parts some tests need beyond Python, found as the code under test finds them.

A test that needs a part calls ``require(...)``. Where the part is missing it fails in CI
(CI=true: .ci/run installs every part) and is skipped elsewhere; tests/conftest.py counts
the skip (by its message) for the one line at the end of the run that names what to
install. The same line names the two parts whose absence skips nothing:
libharfbuzz-subset0 (WeasyPrint then subsets fonts itself, and its warning on import is
let pass only while the library is really missing) and PostgreSQL (the database tests
then run on SQLite only).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

#: How the summary line starts (tests/test_fresh_machine.py looks for it).
SUMMARY_START = "Missing here:"
#: The Debian package whose absence WeasyPrint warns about, and the warning it gives.
HARFBUZZ_SUBSET = "libharfbuzz-subset0"
HARFBUZZ_WARNING_FILTER = (
    "ignore:HarfBuzz-Subset will be required by future versions of WeasyPrint"
    ":DeprecationWarning:weasyprint.text.ffi"
)
#: The names WeasyPrint's text/ffi.py asks cffi's dlopen for, in its order.
HARFBUZZ_SUBSET_NAMES = (
    "libharfbuzz-subset-0",
    "harfbuzz-subset",
    "harfbuzz-subset-0.0",
    "libharfbuzz-subset.so.0",
    "libharfbuzz-subset.0.dylib",
    "libharfbuzz-subset-0.dll",
)


@dataclass(frozen=True)
class Part:
    """A program a test runs (or a file it reads: a font), and the Debian package that
    installs it."""

    package: str
    path: Path | None = None
    command: str | None = None
    #: Whether the part is a program (run, so executable) rather than a file to read.
    program: bool = True

    def find(self) -> Path | None:
        """The executable file (or the readable one), or None; /dev/null bound over it
        counts as missing."""
        if self.path is not None:
            usable = os.access(self.path, os.X_OK if self.program else os.R_OK)
            found = self.path if self.path.is_file() and usable else None
            return found
        where = shutil.which(self.command or "")
        return Path(where) if where else None

    def missing_message(self) -> str:
        name = str(self.path) if self.path is not None else self.command
        return f"{name} is missing: install Debian's {self.package} package (.ci/run does)"


PARTS: dict[str, Part] = {
    "chromium": Part("chromium", path=Path("/usr/bin/chromium")),
    "poppler-utils": Part("poppler-utils", command="pdftoppm"),
    # The PDFs' font for the letters DejaVu lacks (Chinese, Japanese, Korean names).
    "fonts-wqy-microhei": Part(
        "fonts-wqy-microhei",
        path=Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
        program=False,
    ),
    # The scripts' pure parts are tested with Node's own test runner (tests/test_scripts.py).
    "nodejs": Part("nodejs", command="node"),
}


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def skip_or_fail_in_ci(message: str) -> NoReturn:
    """Fail in CI, where everything is installed; skip with ``message`` elsewhere."""
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def require(package: str) -> Path:
    """The executable of the part ``package``; fail in CI or skip elsewhere if it is missing."""
    part = PARTS[package]
    found = part.find()
    if found is not None:
        return found
    skip_or_fail_in_ci(part.missing_message())


def missing_package(skip: BaseException) -> str | None:
    """The package whose absence made ``skip`` (one ``require`` raised), or None."""
    if not isinstance(skip, pytest.skip.Exception):
        return None
    return next((p.package for p in PARTS.values() if skip.msg == p.missing_message()), None)


def harfbuzz_subset_present() -> bool:
    """Whether WeasyPrint will load HarfBuzz's subset library: the same cffi dlopen, names
    and order as its own check, so the answer is the one WeasyPrint will get."""
    from cffi import FFI

    ffi = FFI()
    for name in HARFBUZZ_SUBSET_NAMES:
        try:
            ffi.dlopen(name, ffi.RTLD_NOW)
        except OSError:
            continue
        return True
    return False


def summary_line(skipped: dict[str, int], harfbuzz_missing: bool, sqlite_only: int) -> str | None:
    """The one line naming what to install, or None when nothing was missing."""

    def tests(count: int) -> str:
        return f"{count} test{'' if count == 1 else 's'} skipped"

    missing = [f"{package} ({tests(count)})" for package, count in sorted(skipped.items())]
    packages = sorted(skipped)
    if harfbuzz_missing:
        missing.append(f"{HARFBUZZ_SUBSET} (PDFs made without it)")
        packages.append(HARFBUZZ_SUBSET)
    parts = []
    if missing:
        parts.append(", ".join(missing) + ": apt-get install " + " ".join(packages))
    if sqlite_only:
        parts.append(
            f"PostgreSQL ({sqlite_only} database tests ran on SQLite only): "
            "set TEST_DATABASE_URL to a PostgreSQL database to run them there too"
        )
    return f"{SUMMARY_START} " + "; ".join(parts) if parts else None
