"""The roster and the player pages: statistics, games, results over time; rename and merge."""

from __future__ import annotations

from typing import Any

from babel import numbers
from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from werkzeug.wrappers.response import Response as BaseResponse
from wtforms.fields.choices import SelectChoice

from .. import operations, rules
from ..i18n import current_locale, error_detail, gettext, isolated, ngettext
from ..operations.errors import Conflict, NotFound
from ..sheets import charts
from ..stats import queries
from ..web.errors import render_error
from ..web.paging import page_of
from . import forms

bp = Blueprint("players", __name__, url_prefix="/players")

ViewResult = str | BaseResponse | tuple[str | BaseResponse, int]

ROSTER_PAGE = 50
GAMES_PAGE = 25


@bp.app_template_filter("percent")
def percent(rate: float | None) -> str:
    """A rate as the locale writes a percentage (``25%``; ``25 %``); a dash when there is none."""
    if rate is None:
        return "—"
    return numbers.format_percent(rate, locale=current_locale())


@bp.get("")
def roster() -> str:
    """List the players with games played and won, win rate and net result; sortable."""
    sort = request.args.get("sort", "name")
    if sort not in queries.ROSTER_SORTS:
        allowed = ", ".join(repr(key) for key in queries.ROSTER_SORTS)  # the values ?sort= takes
        abort(
            400,
            _l(
                "The roster cannot be sorted by %(sort)s; choose one of: %(allowed)s.",
                sort=repr(sort[:40]),
                allowed=allowed,
            ),
        )
    page = page_of(queries.player_count(), ROSTER_PAGE, _l("the roster"))
    lines = queries.roster(sort, page.offset, page.size)
    return render_template(
        "players/roster.html",
        lines=lines,
        page=page,
        sort=sort,
        sorts=queries.ROSTER_SORTS,
        money_shown=any(line.totals.money is not None for line in lines),
        look_alikes=queries.unmerged_look_alikes(),
    )


def _player(player_id: int) -> queries.PlayerRow:
    player = queries.player(player_id)
    if player is None:
        raise NotFound("no-player", id=player_id)
    return player


#: A name in a list of choices is shown in its own direction (an option holds no <bdi>).
NAME_OPTION = {"dir": "auto"}


def _merge_form(player: queries.PlayerRow) -> forms.MergeForm:
    """The merge form, its first choice another spelling of this player's name, if any."""
    form = forms.MergeForm(prefix="merge")
    others = queries.other_players(player.id)
    form.other.choices = [
        SelectChoice("0", gettext("Choose a player…")),
        *(SelectChoice(str(i), name, render_kw=NAME_OPTION) for i, name in others),
    ]
    alike = queries.look_alikes(player.id)
    if alike and not form.is_submitted():
        form.other.data = alike[0][0]
    return form


def _choice_label(form: forms.MergeForm) -> str:
    return next(c.label for c in form.other.choices if c.value == str(form.other.data))


def _page(
    player: queries.PlayerRow,
    rename: forms.RenameForm | None = None,
    merge: forms.MergeForm | None = None,
) -> dict[str, Any]:
    totals = queries.player_totals(player.id)
    page = page_of(totals.entered, GAMES_PAGE, _l("%(name)s's games", name=player.name))
    results = queries.player_results(player.id)
    chart = None
    if results.changes:
        chart = Markup(
            charts.results_chart(
                results.labels,
                results.changes,
                unit="money" if results.in_money else "units",
                chart_id=f"results-{player.id}",
            )
        )
    if rename is None:
        rename = forms.RenameForm(prefix="rename", data={"name": player.name})
    return {
        "player": {"id": player.id, "name": player.name, "since": player.created_at},
        "totals": totals,
        "variants": queries.player_variants(player.id),
        "games": queries.player_games(player.id, page.offset, page.size),
        "page": page,
        "chart": chart,
        "results_in_money": results.in_money,
        "rename": rename,
        "merge": merge or _merge_form(player),
        "look_alikes": [name for _, name in queries.look_alikes(player.id)],
        "events": operations.seasons.league_results(player.id),
    }


@bp.get("/<id:player_id>")
def show(player_id: int) -> str:
    """Show a player's statistics, results over time and games, newest first."""
    return render_template("players/player.html", **_page(_player(player_id)))


@bp.post("/<id:player_id>/rename")
def rename(player_id: int) -> ViewResult:
    """Rename a player: every game they played shows the new name."""
    player = _player(player_id)
    form = forms.RenameForm(prefix="rename")
    if form.validate_on_submit():
        try:
            old = operations.players.rename_player(player_id, form.name.data)
        except operations.errors.RosterError as error:
            form.name.errors = [*form.name.errors, _sentence(operations.errors.explain(error))]
        except rules.RuleError as error:
            form.name.errors = [*form.name.errors, _sentence(error_detail(error))]
        else:
            if old != form.name.data:
                flash(
                    gettext(
                        "%(old)s is now called %(new)s in every game.",
                        old=isolated(old),
                        new=isolated(form.name.data),
                    ),
                    "info",
                )
            return redirect(url_for("players.show", player_id=player_id))
    return render_template("players/player.html", **_page(player, rename=form)), 400


@bp.post("/<id:player_id>/merge")
def merge(player_id: int) -> ViewResult:
    """Merge another spelling of this player into this one, keeping every game."""
    player = _player(player_id)
    form = _merge_form(player)
    if form.validate_on_submit() and form.other.data == 0:
        form.other.errors = [gettext("Choose the player to merge into this one.")]
    elif form.validate_on_submit():
        other_name = _choice_label(form)
        try:
            moved = operations.players.merge_players(player_id, form.other.data)
        except operations.errors.RosterError as error:
            form.other.errors = [*form.other.errors, _sentence(operations.errors.explain(error))]
        except (operations.errors.Conflict, operations.errors.NotFound) as error:
            # Both were on the roster a moment ago (the form's choices said so): one was merged
            # away by another request meanwhile (the same two crossed, say).
            gone = player.name if error.params.get("id") == player_id else other_name
            said = operations.errors.explain(Conflict("merged-meanwhile", name=gone))
            still = queries.player(player_id)
            if still is None:
                return render_error(409, said)
            form.other.errors = [said]
            return render_template("players/player.html", **_page(still, merge=form)), 409
        else:
            flash(
                ngettext(
                    "%(other)s was merged into %(name)s: %(num)s game moved.",
                    "%(other)s was merged into %(name)s: %(num)s games moved.",
                    moved,
                    other=isolated(other_name),
                    name=isolated(player.name),
                ),
                "info",
            )
            return redirect(url_for("players.show", player_id=player_id))
    player = _player(player_id)
    return render_template("players/player.html", **_page(player, merge=form)), 400


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."
