"""Lay out HTML as PDF with WeasyPrint, and put printed parts together with pypdf.

Nothing here knows Flask or the database: it takes finished HTML strings, so the
same functions run in the web process and in the worker processes that lay out a
long history on every core.
"""

from __future__ import annotations

import functools
import io
import logging
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

# WeasyPrint (and so the fetcher, which subclasses its URLFetcher) is imported only
# when something is printed: it takes over a second, and most requests print nothing.
from .urls import BASE_URL, static_url

if TYPE_CHECKING:
    from pypdf import PageObject, PdfReader, PdfWriter
    from weasyprint import CSS, HTML

log = logging.getLogger(__name__)


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


#: A rule of WeasyPrint's user-agent stylesheet that names a pseudo-element and no element.
_EVERY_ELEMENTS_PSEUDO = re.compile(r"^::([a-z-]+)\s*\{[^}]*\}[ \t]*\n?", re.M)


def lean_user_agent_css(text: str) -> str:
    """WeasyPrint's HTML user-agent stylesheet without its rules for every element's
    pseudo-elements: ``::marker`` is kept for list items only, the footnote and note
    pseudo-elements are left out (no printed document of ours has footnotes)."""

    def scoped(rule: re.Match[str]) -> str:
        return "li" + rule.group(0) if rule.group(1) == "marker" else ""

    return _EVERY_ELEMENTS_PSEUDO.sub(scoped, text)


@functools.cache
def _html_class() -> type[HTML]:
    """WeasyPrint's HTML class, with the user-agent stylesheet of ``lean_user_agent_css``.

    A rule such as ``::marker { ... }`` matches every element, and for each such rule
    WeasyPrint works out one more style for every element of a document: six more for
    every element (measured: nine in ten of the styles of a history's part, and a
    sixth to a quarter of its layout time). If this WeasyPrint's stylesheet is not
    where it was, the class is WeasyPrint's own.
    """
    from weasyprint import CSS, HTML

    try:
        from weasyprint.css.counters import CounterStyle
        from weasyprint.html import UA, UA_STYLESHEET
    except ImportError:  # pragma: no cover - a WeasyPrint that moved its stylesheet
        log.warning("WeasyPrint's user-agent stylesheet was not found; using it as it is")
        return HTML
    # Its @counter-style rules go to a counter style of their own: documents take theirs
    # from WeasyPrint's (the same rules), which would refuse them a second time.
    lean = CSS(string=lean_user_agent_css(UA), counter_style=CounterStyle())

    class LeanHTML(HTML):
        def _ua_stylesheets(self, *args: object, **kwargs: object) -> list[CSS]:
            sheets = super()._ua_stylesheets(*args, **kwargs)
            return [lean if sheet is UA_STYLESHEET else sheet for sheet in sheets]

    return LeanHTML


#: How much a layout worker process gives way to others (``nice``): printing can wait a
#: moment, the table's requests cannot.
WORKER_NICENESS = 10


def prepare_worker(static_folder: str | Path) -> None:
    """Ready a layout worker process before its first document: WeasyPrint loaded, the
    stylesheets parsed (the first history after the app starts waits on this), and
    below the web process's priority, so that laying out never takes the processor
    from a hand being saved."""
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # pragma: no cover - a system that does not allow it: print as is
        log.warning("could not lower the layout worker's priority", exc_info=True)
    _html_class()
    print_stylesheet(static_folder)


def write_pdf(html: str, static_folder: str | Path) -> Printed:
    """Lay out one HTML document as a PDF with the print stylesheet, loading only static files.

    The stylesheet is given as a user stylesheet, so a document's own ``<style>``
    (the paper size) overrides it.
    """
    from .fetcher import StaticFilesOnly

    fetcher = StaticFilesOnly(static_folder)
    document = _html_class()(string=html, base_url=BASE_URL, url_fetcher=fetcher).render(
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


def read_pdf(pdf: bytes | PdfReader) -> PdfReader:
    """Parse a PDF, every object of it, ready for ``merge``: a history reads each part as
    it comes back from the workers, while the others are still laid out, so that merging
    at the end only copies (half the time of merging there; bench/pdf_stack.py)."""
    from pypdf import PdfReader

    if not isinstance(pdf, bytes):
        return pdf
    reader = PdfReader(io.BytesIO(pdf))
    for numbers in reader.xref.values():
        for number in numbers:
            reader.get_object(number)
    for number in reader.xref_objStm:
        reader.get_object(number)
    return reader


def merge(
    parts: Sequence[bytes | PdfReader],
    numbers: bytes | PdfReader | None = None,
    title: str | None = None,
) -> bytes:
    """Put PDFs one after another; stamp the pages of ``numbers`` over them, page for page."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(read_pdf(part))
    if numbers is not None:
        stamps = read_pdf(numbers).pages
        if len(stamps) != len(writer.pages):
            raise ValueError(
                f"the page numbers have {len(stamps)} pages for {len(writer.pages)} pages"
            )
        for page, stamp in zip(writer.pages, stamps, strict=True):
            _stamp(writer, page, stamp)
    if title:
        writer.add_metadata({"/Title": title, "/Producer": "Pitch Scorekeeper (WeasyPrint, pypdf)"})
    # Every part embeds its own copy of the fonts and stamps; share what is identical.
    writer.compress_identical_objects()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _stamp(writer: PdfWriter, page: PageObject, stamp: PageObject) -> None:
    """Draw the page ``stamp`` over ``page``, as a form XObject the page calls at its end.

    pypdf's ``merge_page`` does the same by parsing both pages' content streams, which
    took most of a history's merging time; this parses neither. A page whose content
    is not one Flate stream (never one of WeasyPrint's) is merged the slow way.
    """
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, StreamObject

    content = page.get("/Contents")
    stamp_content = stamp.get("/Contents")
    if content is None or stamp_content is None:
        page.merge_page(stamp)
        return
    stream, stamp_stream = content.get_object(), stamp_content.get_object()
    if not (
        isinstance(stream, StreamObject)
        and isinstance(stamp_stream, StreamObject)
        and stream.get("/Filter") in ("/FlateDecode", None)
    ):
        page.merge_page(stamp)
        return
    form = stamp_stream.clone(writer)
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject(stamp.mediabox)
    stamp_resources = stamp["/Resources"].get_object()
    if stamp_resources is None:  # a stamp WeasyPrint laid out always has its resources
        raise ValueError("the page-number stamp has no resources")
    form[NameObject("/Resources")] = stamp_resources.clone(writer)
    # The page's own resources, copied: pages may share one dictionary, and each has its stamp.
    resources = DictionaryObject(page.get("/Resources", DictionaryObject()).get_object())
    xobjects = DictionaryObject(resources.get("/XObject", DictionaryObject()).get_object())
    xobjects[NameObject(STAMP)] = form.indirect_reference
    resources[NameObject("/XObject")] = xobjects
    page[NameObject("/Resources")] = resources
    stream.set_data(b"q\n" + stream.get_data() + b"\nQ\nq " + STAMP.encode() + b" Do Q\n")


#: The name a page calls its page-number stamp by.
STAMP = "/PageNumberStamp"
