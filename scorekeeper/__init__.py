"""Pitch Scorekeeper: a scorekeeper for Auction Pitch and its family.

The package root stays free of Flask so that ``scorekeeper.rules`` (the engine)
and the offline ``score`` command load only the standard library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create and configure the web app (see ``scorekeeper.app``)."""
    from .app import create_app as _create_app

    return _create_app(test_config)
