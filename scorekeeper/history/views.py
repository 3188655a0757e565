"""The score history: the list of games, and the history printed as one PDF in the background."""

from __future__ import annotations

import math
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response as BaseResponse

from .. import i18n, operations
from ..pdf import history, pool, printer
from ..pdf.jobs import Busy, Job, JobRegistry, Progress
from ..pdf.views import pdf_response, requested_paper
from ..sheets.model import GameView, game_snapshot
from ..stats.queries import roster_names
from ..web.paging import requested_page
from ..web.routing import parse_id
from . import queries
from .filters import HistoryFilters, HistoryForm

bp = Blueprint("history", __name__)

#: Defaults for the settings this feature reads (instance/config.py may set them; the
#: printing settings are in scorekeeper/config.py).
DEFAULTS: dict[str, Any] = {
    "HISTORY_PAGE_SIZE": 25,
}


@bp.record_once
def _set_up(state: Any) -> None:
    app: Flask = state.app
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)


def jobs() -> JobRegistry:
    """The app's printing jobs: the one queue every PDF goes through (``pdf/printer.py``)."""
    return printer.printer().jobs


def _filters() -> tuple[HistoryForm, HistoryFilters | None]:
    form = HistoryForm(request.args)
    if not form.validate():
        return form, None
    return form, HistoryFilters.from_form(form)


#: Where a page starts: ``before`` a game (the next, older page) or ``after`` one (newer).
CURSORS = ("before", "after")


def _cursor() -> tuple[str, int] | None:
    """Read the game a page starts from (``?before=`` or ``?after=`` its number), if any."""
    for name in CURSORS:
        raw = request.args.get(name)
        if raw is not None:
            game_id = parse_id(raw)
            if game_id is None:
                abort(400, _l("%(value)s is not a game number.", value=repr(raw[:20])))
            return name, game_id
    return None


@bp.get("/history")
def index() -> tuple[str, int]:
    """List the games, newest first, filtered by player, game, dates and whether finished."""
    form, filters = _filters()
    page = requested_page()
    cursor = _cursor()
    context: dict[str, Any] = {"form": form, "roster": roster_names(), "filters": filters}
    if filters is None:
        return render_template("history/index.html", **context, games=[], total=0), 400
    size = int(current_app.config["HISTORY_PAGE_SIZE"])
    total = queries.game_count(filters)
    pages = max(1, math.ceil(total / size))
    page = min(page, pages)  # past the end: show the last page
    ids, page = queries.page_of_games(filters, page, size, cursor)
    loaded = operations.loading.load_many(ids)
    games: list[GameView | history.Unscorable] = []
    for game_id in ids:
        found = loaded.get(game_id)
        if isinstance(found, operations.rows.Loaded):
            games.append(game_snapshot(found, chart=False, rows=False))
        elif found is not None:
            games.append(history.Unscorable(game_id, str(found)))
    return render_template(
        "history/index.html",
        **context,
        games=games,
        total=total,
        page=page,
        pages=pages,
        args=filters.args(),
        # The pager's links start from the first game shown (newer) or the last (older).
        newer_from=ids[0] if ids else None,
        older_from=ids[-1] if ids else None,
    ), 200


@bp.get("/history.pdf")
def history_pdf() -> BaseResponse:
    """Print the filtered history (summary, then every sheet) in the background.

    Answers at once with the job's page, which shows the progress and then the
    download link; asking again for the same games finds the same job.
    """
    form, filters = _filters()
    if filters is None:
        messages = [e for errors in form.errors.values() for e in errors]
        abort(400, _l("The history cannot be printed: %(errors)s", errors=" ".join(messages)))
    paper = requested_paper()
    found = queries.games_and_versions(filters)
    limit = int(current_app.config["PDF_HISTORY_MAX_GAMES"])
    if len(found) > limit:
        abort(
            400,
            i18n.ngettext(
                "That is %(num)s game; one PDF prints at most %(limit)s. "
                "Narrow the dates, the player or the game, and print it in parts.",
                "That is %(num)s games; one PDF prints at most %(limit)s. "
                "Narrow the dates, the player or the game, and print it in parts.",
                len(found),
                limit=limit,
            ),
        )
    game_ids = [game_id for game_id, _ in found]
    words = filters.words()
    # The job prints in the request's language (the registry keeps one job per language).
    title = i18n.gettext("Score history")
    # The same games in the same state on the same paper: the same PDF (a second click,
    # or another phone, finds the job already printing).
    state = tuple((game_id, version) for game_id, version in found)
    key = ("history", tuple(sorted(filters.args().items())), paper, state)
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # a LocalProxy hides it
    workers = pool.worker_count(app.config["PDF_WORKERS"])

    def work(progress: Progress) -> bytes:
        with app.app_context():
            return history.history_pdf(
                game_ids,
                paper=paper,
                title=title,
                filters=words,
                static_folder=app.static_folder or "static",
                workers=workers,
                progress=progress,
            )

    try:
        job = jobs().start(key, title, "score-history.pdf", work)
    except Busy:
        return printer.busy_page()
    values: dict[str, Any] = {"job_id": job.id, **filters.args()}
    return redirect(url_for("history.job", **values), 303)


def _job(job_id: str) -> Job:
    job = jobs().get(job_id)
    if job is None:
        abort(
            404,
            _l(
                "This printed history is no longer kept (they are kept for a while after "
                "printing). Print it again from the history page."
            ),
        )
    return job


@bp.get("/history/jobs/<job_id>")
def job(job_id: str) -> str:
    """Show how far the printing has got; refresh until the download is ready."""
    found = _job(job_id)
    refresh = None if found.over else 2
    return render_template("history/job.html", job=found, refresh=refresh, args=_passed_filters())


@bp.get("/history/jobs/<job_id>.json")
def job_status(job_id: str) -> Response:
    """Say how far the printing has got, for scripts."""
    found = _job(job_id)
    return jsonify(
        state=found.state,
        done=found.done,
        total=found.total,
        percent=found.percent,
        stage=found.stage,
        pages=found.pages,
        error=found.error,
        download=url_for("history.download", job_id=found.id) if found.ready else None,
    )


@bp.get("/history/jobs/<job_id>/score-history.pdf")
def download(job_id: str) -> BaseResponse:
    """Download a printed history."""
    found = _job(job_id)
    path = jobs().path(found.id)
    if not found.ready or not path.is_file():
        return redirect(url_for("history.job", job_id=found.id), 303)
    return pdf_response(path.read_bytes(), found.filename, attachment=True)


def _passed_filters() -> dict[str, str]:
    """The filters the job page was reached with, to link back to the same history."""
    _, filters = _filters()
    return filters.args() if filters is not None else {}
