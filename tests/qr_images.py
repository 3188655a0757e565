"""Turn the QR codes the app draws back into pictures, and read them with a real decoder.

zxing-cpp (the decoder in many phones' scanning apps) reads a picture; the app draws its
codes as SVG markup for pages and as half-block characters for the terminal. No SVG
rasteriser is installed, so the SVG is drawn here from the markup the page sent: segno
writes each row of dark modules as horizontal strokes, one module thick (``M4 4.5h7m2 0h1``),
and those strokes are painted as they are written, nothing taken from segno itself.
"""

from __future__ import annotations

import re
from io import BytesIO

import zxingcpp
from PIL import Image, ImageDraw

#: Pixels a module is drawn with: a decoder wants a few.
SCALE = 8

VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')
STROKES = re.compile(r'<path[^>]*\bstroke="(#[0-9a-fA-F]{3,6})"[^>]*\bd="([^"]+)"')
COMMAND = re.compile(r"([MmHh])\s*(-?[\d.]+)(?:\s+(-?[\d.]+))?")


def svg_picture(svg: str) -> Image.Image:
    """Paint an SVG as segno draws a QR code (a background, then strokes of width 1)."""
    size = VIEWBOX.search(svg)
    assert size, svg[:200]
    width, height = int(size.group(1)), int(size.group(2))
    assert '<path fill="#fff" d="M0 0h' in svg, "the code has no white background"
    picture = Image.new("L", (width * SCALE, height * SCALE), 255)
    draw = ImageDraw.Draw(picture)
    strokes = STROKES.search(svg)
    assert strokes, svg[:200]
    assert strokes.group(1).lower() in ("#000", "#000000"), strokes.group(1)
    x = y = 0.0
    for letter, first, second in COMMAND.findall(strokes.group(2)):
        if letter == "M":
            x, y = float(first), float(second)
        elif letter == "m":
            x, y = x + float(first), y + float(second)
        else:  # h: a stroke along the row y - 0.5 .. y + 0.5
            end = float(first) + (x if letter == "h" else 0.0)
            top = round((y - 0.5) * SCALE)
            draw.rectangle((round(x * SCALE), top, round(end * SCALE) - 1, top + SCALE - 1), fill=0)
            x = end
    return picture


#: The characters a terminal code is drawn with: (top module dark, bottom module dark).
HALF_BLOCKS = {" ": (False, False), "\u2580": (True, False), "\u2584": (False, True)}
HALF_BLOCKS["\u2588"] = (True, True)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def terminal_picture(lines: list[str]) -> Image.Image:
    """Paint a code a terminal shows: each character is two modules, one above the other."""
    rows = [ANSI.sub("", line).rstrip("\r\n") for line in lines]
    width = max(len(row) for row in rows)
    picture = Image.new("L", (width * SCALE, len(rows) * 2 * SCALE), 255)
    draw = ImageDraw.Draw(picture)
    for r, row in enumerate(rows):
        for c, character in enumerate(row):
            for half, dark in enumerate(HALF_BLOCKS[character]):
                if dark:
                    top = (2 * r + half) * SCALE
                    left = c * SCALE
                    draw.rectangle((left, top, left + SCALE - 1, top + SCALE - 1), fill=0)
    return picture


def decoded(picture: Image.Image) -> list[str]:
    """The text of every QR code zxing-cpp finds in ``picture``."""
    return [
        found.text
        for found in zxingcpp.read_barcodes(picture)
        if found.format == zxingcpp.BarcodeFormat.QRCode
    ]


def png_decoded(png: bytes) -> list[str]:
    """The text of every QR code in a PNG (a browser's screenshot)."""
    return decoded(Image.open(BytesIO(png)).convert("L"))
