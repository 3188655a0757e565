"""The one parser for the numbers in addresses (``/games/<id:game_id>``, ``?page=2``), and
the one lookup of a variant an address names.

Every route that names a row by its number (a game, a player, a night, a hand) reads it
with the ``id`` converter, so a number no row can have is a plain 404 (not found)
before any database sees it: SQLite cannot even bind one above 2^63, and PostgreSQL's
id columns hold 32 bits. A number in a query string or a form (a page, a version, a hand
number, a night offered) is read with ``parse_id``, by the same rule.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

from .. import rules
from ..operations.errors import NotFound

#: The largest number a row can have: the id (and hand number) columns are 32-bit integers.
MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    """A whole number from 0 to ``MAX_ID`` (digits only); anything else matches no route."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs["max"] = MAX_ID
        super().__init__(map, *args, **kwargs)


def parse_id(raw: str | None) -> int | None:
    """Read a whole number from 0 to ``MAX_ID`` written in ASCII digits; anything else
    (a sign, a space, a fullwidth or Arabic-Indic digit, nothing) is None."""
    if raw is None or not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(MAX_ID))):
        return None
    value = int(raw)
    return value if value <= MAX_ID else None


def find_variant(key: str) -> rules.Variant:
    """The variant an address names (``/games/new/<variant_key>``); ``NotFound`` (a 404 that
    says which name is unknown) for any other name. The engine's one lookup, as a page
    answers it."""
    try:
        return rules.find_variant(key)
    except ValueError:
        raise NotFound("no-variant", name=repr(key)) from None


def init_app(app: Flask) -> None:
    app.url_map.converters["id"] = IdConverter
