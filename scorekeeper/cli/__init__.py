"""The ``scorekeeper`` command line (``scorekeeper.cli:main``)."""

from .main import main

__all__ = ["main"]
