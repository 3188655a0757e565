"""The game night pages: the list of nights, one night with its settlement, and its PDF."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, localcontext

from babel import numbers
from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response as BaseResponse

from .. import operations, rules
from ..i18n import current_locale, day, gettext, isolated, ngettext
from ..operations.errors import NotFound
from ..rules.night import EXACT
from ..web.paging import page_of
from . import forms, queries

bp = Blueprint("nights", __name__, url_prefix="/nights")

ViewResult = str | BaseResponse | tuple[str, int]

NIGHTS_PAGE = 25
RECENT_LOOSE_GAMES = 8


@bp.app_template_filter("stake")
def stake(value: str) -> str:
    """A stake as the table set it, every decimal kept, as the locale writes it (``0,333``)."""
    with localcontext(EXACT):  # a stake may have more digits than the default context's 28
        return numbers.format_decimal(
            Decimal(value), locale=current_locale(), decimal_quantization=False
        )


def _night(night_id: int) -> queries.NightRow:
    night = queries.night(night_id)
    if night is None:
        raise NotFound("no-night", id=night_id)
    return night


def _list_page(form: forms.NightForm) -> str:
    page = page_of(queries.night_count(), NIGHTS_PAGE, _l("the game nights"))
    return render_template(
        "nights/index.html",
        nights=queries.night_lines(page.offset, page.size),
        page=page,
        form=form,
    )


@bp.get("")
def index() -> str:
    """List the game nights, newest first, with a form to start tonight's."""
    today = date.today()
    name = gettext("Game night %(date)s", date=day(today))
    form = forms.NightForm(data={"name": name, "date": today})
    return _list_page(form)


@bp.post("")
def start() -> ViewResult:
    """Start a game night: from now on new games join it."""
    form = forms.NightForm()
    if not form.validate_on_submit():
        return _list_page(form), 400
    night_id = operations.nights.start_night(*form.values())
    flash(
        gettext("%(night)s has started: new games join it.", night=isolated(form.name.data)),
        "info",
    )
    return redirect(url_for("nights.show", night_id=night_id))


def _night_page(
    night: queries.NightRow,
    edit: forms.NightForm | None = None,
    add: forms.AddGameForm | None = None,
) -> str:
    if edit is None:
        edit = forms.NightForm(
            prefix="edit", data={"name": night.name, "place": night.place, "date": night.date}
        )
    return render_template(
        "nights/night.html",
        night=queries.night_view(night),
        edit=edit,
        add=add or forms.AddGameForm(prefix="add"),
        loose=queries.loose_games(RECENT_LOOSE_GAMES),
        variants=rules.VARIANTS,
    )


@bp.get("/<id:night_id>")
def show(night_id: int) -> str:
    """Show a night: each game's result, every player's balance and the payments that settle it."""
    return _night_page(_night(night_id))


@bp.post("/<id:night_id>/edit")
def edit(night_id: int) -> ViewResult:
    """Change a night's name, place or date."""
    night = _night(night_id)
    form = forms.NightForm(prefix="edit")
    if not form.validate_on_submit():
        return _night_page(night, edit=form), 400
    operations.nights.edit_night(night_id, *form.values())
    flash(gettext("The night was saved."), "info")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.post("/<id:night_id>/end")
def end(night_id: int) -> ViewResult:
    """End a night: new games no longer join it."""
    _night(night_id)
    operations.nights.end_night(night_id)
    flash(gettext("The night is over: new games join no night until the next one starts."), "info")
    return redirect(url_for("nights.show", night_id=night_id))


@bp.post("/<id:night_id>/delete")
def delete(night_id: int) -> ViewResult:
    """Delete a night; its games stay, in no night."""
    night = _night(night_id)
    name = night.name
    moved = operations.nights.delete_night(night_id)
    flash(
        ngettext(
            "%(night)s was deleted; its %(num)s game was kept.",
            "%(night)s was deleted; its %(num)s games were kept.",
            moved,
            night=isolated(name),
        ),
        "info",
    )
    return redirect(url_for("nights.index"))


@bp.post("/<id:night_id>/games")
def add_game(night_id: int) -> ViewResult:
    """Add a game to the night (moving it from another night if it was in one)."""
    night = _night(night_id)
    form = forms.AddGameForm(prefix="add")
    if form.validate_on_submit():
        try:
            previous = operations.nights.add_game(night_id, form.game.data)
        except NotFound as error:
            form.game.errors = [operations.errors.explain(error)]
        else:
            if previous:
                message = gettext(
                    "Game %(id)s is now part of this night (it was moved from night %(night)s).",
                    id=form.game.data,
                    night=previous,
                )
            else:
                message = gettext("Game %(id)s is now part of this night.", id=form.game.data)
            flash(message, "info")
            return redirect(url_for("nights.show", night_id=night_id))
    return _night_page(night, add=form), 400


@bp.post("/<id:night_id>/games/<id:game_id>/remove")
def remove_game(night_id: int, game_id: int) -> ViewResult:
    """Take a game out of the night; the game itself is kept."""
    _night(night_id)
    operations.nights.remove_game(night_id, game_id)
    flash(
        gettext("Game %(id)s was taken out of this night (the game is kept).", id=game_id), "info"
    )
    return redirect(url_for("nights.show", night_id=night_id))


@bp.get("/<id:night_id>.pdf")
def pdf(night_id: int) -> BaseResponse:
    """Print the night's results and settlement to PDF (``?paper=a4`` or ``letter``)."""
    from ..pdf.printed_sheet import document_context
    from ..pdf.views import printed, requested_paper

    paper = requested_paper()
    night = _night(night_id)

    def html() -> str:
        return render_template(
            "nights/night_pdf.html", night=queries.night_view(night), **document_context(paper)
        )

    return printed(queries.night_key(night), f"night-{night_id}.pdf", html, paper=paper)
