"""The printed score sheet of one game: ``GET /games/<id>/sheet.pdf``."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import Blueprint, Response, abort, current_app, request
from werkzeug.wrappers.response import Response as BaseResponse

from .. import operations
from ..sheets.model import game_snapshot
from . import printed_sheet as sheet
from . import printer
from .jobs import Busy

bp = Blueprint("pdf", __name__)
# Every printed document (the night's settlement too) numbers its pages in its language.
bp.add_app_template_global(sheet.page_of_pages, "page_of_pages")


def pdf_response(body: bytes, filename: str, *, attachment: bool = False) -> Response:
    """Send a PDF; the sheet changes with every hand, so no cache keeps an old one."""
    response = Response(body, mimetype="application/pdf")
    kind = "attachment" if attachment else "inline"
    response.headers["Content-Disposition"] = f'{kind}; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def requested_paper() -> str:
    """The paper of the PDF asked for (``?paper=``, PDF_PAPER, the language): 400 if unknown."""
    try:
        return sheet.paper_size(request.args.get("paper"))
    except sheet.BadPaper as error:
        abort(400, f"{error}.")


def printed(key: Hashable, filename: str, html: Callable[[], str], *, paper: str) -> BaseResponse:
    """Answer with the PDF named ``key`` (kept, or printed by the queue), or say why not."""
    try:
        pdf = printer.printer().print_pdf(key, filename, html, paper=paper)
    except Busy:
        return printer.busy_page()
    except printer.PrintFailed:
        current_app.logger.warning("printing %s failed", filename)
        return printer.failed_page()
    return pdf_response(pdf, filename)


@bp.get("/games/<id:game_id>/sheet.pdf")
def game_sheet(game_id: int) -> BaseResponse:
    """Print one game's score sheet as a PDF (``?paper=a4`` or ``letter``)."""
    paper = requested_paper()
    loaded = operations.loading.load(game_id)

    def html() -> str:
        # The snapshot's own chart is the game page's; the sheet draws a compact one.
        return sheet.sheet_html(game_snapshot(loaded, chart=False), paper=paper)

    return printed(sheet.sheet_key(loaded), f"game-{game_id}-sheet.pdf", html, paper=paper)
