"""Pages of a long list: which rows to show, and the links to the others."""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, request
from flask_babel import lazy_gettext as _l

from .routing import parse_id

#: The highest page number asked for that is read as one (a million pages of games).
MAX_PAGE = 999_999


@dataclass(frozen=True)
class Page:
    """Page ``number`` (from 1) of ``total`` rows, ``size`` rows a page."""

    number: int
    size: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages


def requested_page() -> int:
    """Read ``?page=`` (default 1); anything but a whole number from 1 is a 400 with a message."""
    raw = request.args.get("page", "1")
    number = parse_id(raw)
    if number is None or not 1 <= number <= MAX_PAGE:
        abort(
            400,
            _l(
                "%(page)s is not a page number: pages are numbered 1, 2, 3 and so on.",
                page=repr(raw[:20]),
            ),
        )
    return number


def page_of(total: int, size: int, what: object) -> Page:
    """Check the requested page exists in a list of ``total`` rows (404 with a message if not).

    ``what`` names the list: a lazy string (``lazy_gettext``), so it reads as the message does.
    """
    page = Page(requested_page(), size, total)
    if page.number > page.pages:
        abort(
            404,
            _l(
                "There is no page %(number)s of %(what)s: it has %(pages)s.",
                number=page.number,
                what=what,
                pages=page.pages,
            ),
        )
    return page
