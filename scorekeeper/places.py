"""Where the app's files and its data are: a checkout's, or an installed package's.

A checkout (a clone, or an editable install of one) keeps the pages' templates and static
files at the top of the repository, beside the package, and its data in ``instance/``
there. A wheel carries the templates and static files inside the package (pyproject.toml
maps them in when it is built), and an installed copy keeps its data in the user's data
folder (``~/.local/share/pitch-scorekeeper`` on Linux): site-packages is no place for a
database, and a reinstall would lose it. ``SCOREKEEPER_INSTANCE`` names another data
folder in either case (a service's ``/var/lib/pitch-scorekeeper``, a test's own).

Which of the two this is, is told by the package itself: a package that carries its
templates was installed from a wheel; one without them is a checkout's (docs/DECISIONS.md,
"Serving and installing").
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: The package's folder.
PACKAGE = Path(__file__).resolve().parent
#: The name of the app's folder in the user's data folder (the distribution's name).
APP_NAME = "pitch-scorekeeper"


@dataclass(frozen=True)
class Places:
    """Where one run of the app finds its files and keeps its data."""

    #: The pages' Jinja templates (``templates/`` of the repository).
    templates: Path
    #: The CSS, scripts, icons and manifest (``static/`` of the repository).
    static: Path
    #: The data folder: the SQLite database, the secret key, the organiser's password,
    #: printed histories, backups and the optional ``config.py``.
    instance: Path
    #: Installed from a wheel (True), or a checkout's package (False).
    installed: bool

    @property
    def backups(self) -> Path:
        """Where ``scorekeeper backup`` writes a backup when it is not given a file."""
        return self.instance / "backups"


def find_places(environ: Mapping[str, str] = os.environ) -> Places:
    """Where this package's files are, and where its data goes (``SCOREKEEPER_INSTANCE``
    first, else the checkout's ``instance/`` or the user's data folder)."""
    installed = (PACKAGE / "templates").is_dir()
    files = PACKAGE if installed else PACKAGE.parent
    given = environ.get("SCOREKEEPER_INSTANCE")
    if given:
        instance = Path(given).expanduser().absolute()
    elif installed:
        import platformdirs

        instance = platformdirs.user_data_path(APP_NAME, appauthor=False)
    else:
        instance = PACKAGE.parent / "instance"
    return Places(files / "templates", files / "static", instance, installed)
