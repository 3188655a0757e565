"""Every name prints: a sheet with players named in Chinese, Greek, Cyrillic and Arabic holds
their names as text, and draws each letter with a glyph of a font that has it, never the
empty box of a font that does not (its glyph 0, .notdef)."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from typing import Any

import system_parts
from PIL import Image
from pypdf import PdfReader

from .games import pdf_pages, play_out, store

#: Names from four scripts DejaVu alone drew partly as boxes (Chinese not at all).
NAMES = ["王小明", "Αλέξανδρος", "Дмитрий", "محمد"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _sheet(app: Any, client: Any) -> bytes:
    system_parts.require("fonts-wqy-microhei")  # the font that has the Chinese letters
    game, hands = play_out("auction-pitch", NAMES)
    game_id = store(app, game, hands)
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 200
    data: bytes = response.data
    return data


def glyphs_drawn(data: bytes) -> dict[str, dict[str, int]]:
    """Each embedded font (by name, without its subset tag) and the glyph it draws each
    character with, as its ToUnicode map says (glyph 0 is .notdef: the empty box)."""
    found: dict[str, dict[str, int]] = {}

    def walk(resources: Any) -> None:
        resources = resources.get_object() if resources is not None else {}
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            name = str(font["/BaseFont"]).lstrip("/").split("+")[-1]
            cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            drawn = found.setdefault(name, {})
            for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
                for glyph, code in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                    text = bytes.fromhex(code).decode("utf-16-be", "replace")
                    drawn.setdefault(text, int(glyph, 16))
        for xobject in resources.get("/XObject", {}).values():
            walk(xobject.get_object().get("/Resources"))

    for page in PdfReader(io.BytesIO(data)).pages:
        walk(page.get("/Resources"))
    return found


def test_names_in_four_scripts_are_on_the_sheet_as_text(app: Any, client: Any) -> None:
    (text,) = pdf_pages(_sheet(app, client))
    for name in NAMES:
        assert name in text, name
    # The seats say each name after its number, an Arabic one too (each name is isolated).
    assert "Seats 1 王小明 (dealt first) · 2 Αλέξανδρος · 3 Дмитрий · 4 محمد" in text


def test_every_letter_of_every_name_is_drawn_by_a_font_that_has_it(app: Any, client: Any) -> None:
    drawn = glyphs_drawn(_sheet(app, client))
    letters = {ch for name in NAMES for ch in name}
    for letter in sorted(letters):
        fonts = {font: glyphs[letter] for font, glyphs in drawn.items() if letter in glyphs}
        assert fonts, f"{letter!r} is drawn by no font"
        assert 0 not in fonts.values(), f"{letter!r} is an empty box in {fonts}"
    # The Chinese name is WenQuanYi's (the header, the cells and the chart's bold legend).
    assert {f for f, glyphs in drawn.items() if "王" in glyphs} == {
        "WenQuanYi-Micro-Hei",
        "WenQuanYi-Micro-Hei-Bold",
    }


def test_the_drawn_chinese_glyphs_are_the_fonts_own(app: Any, client: Any) -> None:
    """The glyph the sheet draws for each Chinese letter is the one the installed font maps
    it to: a real drawing, not a substitute."""
    from fontTools.ttLib import TTCollection

    font = TTCollection(str(system_parts.require("fonts-wqy-microhei"))).fonts[0]
    cmap = font.getBestCmap()
    drawn = glyphs_drawn(_sheet(app, client))["WenQuanYi-Micro-Hei"]
    for letter in NAMES[0]:
        assert drawn[letter] == font.getGlyphID(cmap[ord(letter)]) != 0


#: Drawing resolution for comparing letters (dots per inch; the PDF's unit is 1/72 inch).
DPI = 200


def drawn_letters(pdf: Path, word: str, out: Path) -> list[Image.Image]:
    """The middle of each letter of the first ``word`` on page 1 as poppler draws it: the
    page drawn by pdftoppm, cut where pdftotext says the word is into as many equal cells as
    it has letters (Chinese letters are all as wide), each cell's middle kept: an empty box
    is only its outline, so its middle is blank, and a letter's edges may stray into the
    next cell."""
    pdftoppm = system_parts.require("poppler-utils")
    pdftotext = Path(pdftoppm).with_name("pdftotext")
    boxes = out.with_suffix(".html")
    subprocess.run([pdftotext, "-bbox", "-f", "1", "-l", "1", str(pdf), str(boxes)], check=True)
    found = re.search(
        rf'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">{word}</word>',
        boxes.read_text(),
    )
    assert found, f"{word} is not on the page"
    left, top, right, bottom = (float(v) * DPI / 72 for v in found.groups())
    subprocess.run(
        [pdftoppm, "-r", str(DPI), "-png", "-singlefile", "-f", "1", "-l", "1", str(pdf), str(out)],
        check=True,
        timeout=60,
    )
    width, height = (right - left) / len(word), bottom - top
    with Image.open(out.with_suffix(".png")) as picture:
        page = picture.convert("L")
        return [
            page.crop(
                (
                    round(left + (i + 0.25) * width),
                    round(top + 0.25 * height),
                    round(left + (i + 0.75) * width),
                    round(bottom - 0.25 * height),
                )
            )
            for i in range(len(word))
        ]


def difference(one: Image.Image, other: Image.Image) -> float:
    """How unlike two drawings are: the mean difference of their pixels, 0 to 255."""
    from PIL import ImageChops, ImageStat

    return float(ImageStat.Stat(ImageChops.difference(one, other.resize(one.size))).mean[0])


def test_the_sheet_as_poppler_draws_it_shows_three_letters_not_three_empty_boxes(
    app: Any, client: Any, tmp_path: Path
) -> None:
    """An empty box is the same box for every letter no font has: three letters of Unicode's
    private use area come out alike (the check can see boxes); on the sheet 王, 小 and 明 are
    three different drawings."""
    import weasyprint

    unknown = "\ue000\ue001\ue002"
    boxes = tmp_path / "boxes.pdf"
    weasyprint.HTML(string=f"<p style=\"font: 20pt 'DejaVu Sans'\">{unknown}</p>").write_pdf(boxes)
    alike = drawn_letters(boxes, unknown, tmp_path / "boxes")
    assert max(difference(alike[0], other) for other in alike[1:]) < 2  # the same box thrice
    sheet = tmp_path / "names.pdf"
    sheet.write_bytes(_sheet(app, client))
    letters = drawn_letters(sheet, NAMES[0], tmp_path / "names")
    for i, one in enumerate(letters):
        for other in letters[i + 1 :]:
            assert difference(one, other) > 10
    with Image.open(tmp_path / "names.png") as picture:
        ARTIFACTS.mkdir(exist_ok=True)
        picture.crop((0, 0, picture.width, picture.height // 3)).save(
            ARTIFACTS / "pdf-names-in-four-scripts.png"
        )
