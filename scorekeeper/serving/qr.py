"""QR codes, drawn here by segno (nothing fetched): as SVG for a page, as text for a terminal."""

from __future__ import annotations

import functools

import segno
from markupsafe import Markup

#: Medium error correction (15 %): a code on a phone held across the table, a little
#: smudged or glared, still reads, and an address stays a small code (version 3, 29 modules).
ERROR = "m"
#: The quiet zone the standard asks for, in modules: scanners find the code by it.
BORDER = 4


def _code(text: str) -> segno.QRCode:
    return segno.make(text, error=ERROR, micro=False, boost_error=False)


@functools.lru_cache(maxsize=256)
def svg(text: str) -> Markup:
    """Draw ``text`` as an inline ``<svg>``: black on white whatever the page's theme (a code
    drawn light on dark is one many scanners cannot read), sized by CSS (a viewBox only).

    Kept once drawn: a code took 2.5 ms to draw, and the game page shows one on every load."""
    drawn = _code(text).svg_inline(
        border=BORDER, dark="#000", light="#fff", omitsize=True, svgclass="qr-code"
    )
    return Markup(drawn)


#: Black on bright white, whatever the terminal's own colours.
BLACK_ON_WHITE = "\033[30;107m"
RESET = "\033[0m"
#: One character draws two modules, one above the other: (top dark, bottom dark).
HALF_BLOCKS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584"}
HALF_BLOCKS[(True, True)] = "\u2588"


def terminal(text: str) -> str:
    """Draw ``text`` for a terminal, two modules to a character (half blocks), black on white
    by ANSI colours, so it scans on a dark terminal as on a light one. One line a row pair,
    each ending in a newline."""
    rows = [[bool(module) for module in row] for row in _code(text).matrix_iter(border=BORDER)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        cells = "".join(HALF_BLOCKS[pair] for pair in zip(top, bottom, strict=True))
        lines.append(f"{BLACK_ON_WHITE}{cells}{RESET}\n")
    return "".join(lines)


def can_draw_on(encoding: str | None) -> bool:
    """Say whether a terminal in ``encoding`` can show the half blocks ``terminal`` draws."""
    try:
        "".join(HALF_BLOCKS.values()).encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
