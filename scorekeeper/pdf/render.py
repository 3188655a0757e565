"""Lay out HTML as PDF with WeasyPrint, and put printed parts together with pypdf.

Nothing here knows Flask or the database: it takes finished HTML strings, so the
same functions run in the web process and in the worker processes that lay out a
long history on every core.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

# WeasyPrint (and so the fetcher, which subclasses its URLFetcher) is imported only
# when something is printed: it takes over a second, and most requests print nothing.
from .urls import BASE_URL, static_url

if TYPE_CHECKING:
    from weasyprint import CSS


@dataclass(frozen=True)
class Printed:
    """A laid-out PDF, how many pages it has, and the page (from 0) each element id is on."""

    pdf: bytes
    pages: int
    anchors: Mapping[str, int] = field(default_factory=dict)


#: The print stylesheet, under the static folder.
PRINT_CSS = "css/print.css"


def print_stylesheet(static_folder: str | Path) -> CSS:
    """The print stylesheet, parsed once per process (and again when the file changes).

    Parsing it costs about as much as laying out a short sheet, and a history lays
    out a hundred. It is loaded through the same fetcher as everything else.
    """
    folder = Path(static_folder).resolve()
    return _parsed_stylesheet(str(folder), (folder / PRINT_CSS).stat().st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _parsed_stylesheet(static_folder: str, _mtime_ns: int) -> CSS:
    from weasyprint import CSS

    from .fetcher import StaticFilesOnly

    return CSS(url=static_url(PRINT_CSS), url_fetcher=StaticFilesOnly(static_folder))


def write_pdf(html: str, static_folder: str | Path) -> Printed:
    """Lay out one HTML document as a PDF with the print stylesheet, loading only static files.

    The stylesheet is given as a user stylesheet, so a document's own ``<style>``
    (the paper size) overrides it.
    """
    from weasyprint import HTML

    from .fetcher import StaticFilesOnly

    document = HTML(
        string=html, base_url=BASE_URL, url_fetcher=StaticFilesOnly(static_folder)
    ).render(
        stylesheets=[print_stylesheet(static_folder)],
        # Presentational hints (HTML attributes read as CSS) stay off: WeasyPrint
        # before 69 could be injected with CSS through them, and we need none.
        presentational_hints=False,
    )
    anchors: dict[str, int] = {}
    for number, page in enumerate(document.pages):
        for name in page.anchors:
            anchors.setdefault(name, number)
    return Printed(document.write_pdf(), len(document.pages), anchors)


def merge(parts: Sequence[bytes], numbers: bytes | None = None, title: str | None = None) -> bytes:
    """Put PDFs one after another; stamp the pages of ``numbers`` over them, page for page."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part)))
    if numbers is not None:
        stamps = PdfReader(io.BytesIO(numbers)).pages
        if len(stamps) != len(writer.pages):
            raise ValueError(
                f"the page numbers have {len(stamps)} pages for {len(writer.pages)} pages"
            )
        for page, stamp in zip(writer.pages, stamps, strict=True):
            page.merge_page(stamp)
    if title:
        writer.add_metadata({"/Title": title, "/Producer": "Pitch Scorekeeper (WeasyPrint, pypdf)"})
    # Every part embeds its own copy of the fonts and stamps; share what is identical.
    writer.compress_identical_objects()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
