"""The printed score sheet of one game: ``GET /games/<id>/sheet.pdf``."""

from __future__ import annotations

from flask import Blueprint, Response, abort, request

from ..i18n import gettext
from ..operations import NotFound
from . import sheet

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


@bp.get("/games/<id:game_id>/sheet.pdf")
def game_sheet(game_id: int) -> Response:
    """Print one game's score sheet as a PDF (``?paper=a4`` for A4)."""
    try:
        paper = sheet.paper_size(request.args.get("paper"))
    except sheet.BadPaper as error:
        abort(400, f"{error}.")
    try:
        printed = sheet.game_sheet(game_id, paper=paper)
    except NotFound:
        abort(
            404,
            gettext("There is no game number %(id)s. It may have been deleted.", id=game_id),
        )
    return pdf_response(printed.pdf, f"game-{game_id}-sheet.pdf")
