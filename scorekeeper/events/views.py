"""Events: tournaments and league nights. The list and the setup, and the director's screen
with everything it changes (registration, the next round's seating, the round clock, who
directs). What the room reads (a table card's code, the standings, the room's board, the
printed lists, a season's table) is ``room_views``; the knockout is ``knockout_views``.

Each table's game is an ordinary game: its phones reach it by the table card's code and
record hands through the usual game page.

Long because the director's screen is one page: every form on it (registration, a round,
the clock, the board's standings, the director's code) posts here and is answered with
that page again, through the helpers they share (the page with its forms, the flashes,
the version a button carries).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response as BaseResponse
from wtforms.fields.choices import SelectChoice

from .. import operations, rules
from ..auth import directors
from ..i18n import day, error_detail, gettext, isolated, ngettext, said
from ..operations.errors import Conflict, EventError, NotFound, OperationError
from ..web.paging import page_of
from . import forms, queries

bp = Blueprint("events", __name__)
bp.add_app_template_global(said, "phrase_said")

ViewResult = str | BaseResponse | tuple[str, int] | tuple[str, int, dict[str, str]]

EVENTS_PAGE = 25
#: An option that is a name the table wrote shows it in its own direction.
NAME_OPTION = {"dir": "auto"}


# --- The list and the setup ------------------------------------------------------------------


def _game_choices() -> list[SelectChoice]:
    """The games an event's tables may play: each preset, each ready-made rule set, each
    saved set of house rules."""
    from ..setup.queries import offered_rule_sets

    choices = [SelectChoice(f"preset:{key}", gettext(v.name)) for key, v in rules.VARIANTS.items()]
    choices += [
        SelectChoice(f"set:{key}", f"{gettext(s.name)} ({gettext(s.preset.name)})")
        for key, s in rules.RULE_SETS.items()
    ]
    choices += [
        SelectChoice(f"saved:{s.id}", f"{isolated(s.name)} ({gettext(s.variant_name)})")
        for s in offered_rule_sets()
    ]
    return choices


def _season_choices() -> list[SelectChoice]:
    return [
        SelectChoice(0, gettext("None: a tournament of its own")),
        *(SelectChoice(s.id, s.name, render_kw=NAME_OPTION) for s in operations.seasons.seasons()),
    ]


def _event_form(**kwargs: Any) -> forms.EventForm:
    form = forms.EventForm(**kwargs)
    form.game.choices = _game_choices()
    form.season.choices = _season_choices()
    return form


def _list_page(form: forms.EventForm, season: forms.SeasonForm | None = None) -> str:
    page = page_of(operations.events.event_count(), EVENTS_PAGE, _l("the events"))
    return render_template(
        "events/index.html",
        events=operations.events.events(page.offset, page.size),
        seasons=operations.seasons.seasons(),
        page=page,
        form=form,
        season_form=season or forms.SeasonForm(prefix="season"),
    )


@bp.get("/events")
def index() -> str:
    """List the events, with the forms to set up a new one or a season."""
    today = date.today()
    form = _event_form(
        data={
            "name": gettext("Pitch tournament %(date)s", date=day(today)),
            "date": today,
            "rounds": 4,
            "game": "preset:auction-pitch",
            "prize_split": "50 30 20",
            "season": 0,
        }
    )
    return _list_page(form)


def _house_rules(form: forms.EventForm) -> tuple[str, dict[str, Any], str | None]:
    """The variant, switches and rule set name the form's game choice stands for."""
    kind, _, key = form.game.data.partition(":")
    name = None
    if kind == "preset":
        variant, house = key, {}
    elif kind == "set":
        ready = rules.find_rule_set(key)
        variant, house, name = ready.variant, ready.house_rules(), gettext(ready.name)
    else:
        saved = operations.rule_sets.rule_set(int(key))
        if saved is None:
            raise NotFound("no-rule-set", id=key)
        variant, house, name = saved.variant, dict(saved.house_rules), saved.name
    if form.hands.data is not None:
        house["hands"] = form.hands.data
    if form.no_target.data:
        house["target"] = None
    return variant, house, name


@bp.post("/events")
def create() -> ViewResult:
    """Set up an event; the director's screen is next."""
    form = _event_form()
    if not form.validate_on_submit():
        return _list_page(form), 400
    try:
        variant, house, rule_set_name = _house_rules(form)
        event_id = operations.event_setup.create_event(
            operations.event_setup.EventSetup(
                name=form.name.data,
                day=form.date.data,
                place=form.place.data or None,
                format=form.format.data,
                variant=variant,
                house_rules=house,
                rule_set_name=rule_set_name,
                rounds=form.rounds.data,
                round_minutes=form.round_minutes.data,
                entry_fee=form.entry_fee.amount,
                prize_split=form.prize_split.numbers if form.entry_fee.amount else None,
                standings_hidden=form.standings_hidden.data,
                season_id=form.season.data or None,
                knockout_size=form.knockout.data or None,
                best_of=form.best_of.data,
            )
        )
    except rules.RuleError as error:
        form.game.errors = [error_detail(error)]
        return _list_page(form), 400
    except OperationError as error:
        form.form_errors.append(operations.errors.explain(error))
        return _list_page(form), 400
    # The browser that sets the event up directs it.
    directors.mark_director(event_id, operations.directors.draw_code(event_id))
    flash(
        gettext("%(event)s is set up: register its players.", event=isolated(form.name.data)),
        "info",
    )
    return redirect(url_for("events.show", event_id=event_id))


@bp.post("/seasons")
def create_season() -> ViewResult:
    """Start a league season."""
    form = forms.SeasonForm(prefix="season")
    if not form.validate_on_submit():
        return _list_page(_event_form(), form), 400
    try:
        season_id = operations.seasons.create_season(
            form.name.data, form.scoring.data, form.placing_points.numbers or []
        )
    except OperationError as error:
        form.name.errors = [operations.errors.explain(error)]
        return _list_page(_event_form(), form), 400
    flash(gettext("The season %(name)s has started.", name=isolated(form.name.data)), "info")
    return redirect(url_for("event_room.season", season_id=season_id))


# --- The director's screen ---------------------------------------------------------------------


def _register_form(state: operations.events.EventState, **kwargs: Any) -> forms.RegisterForm:
    form = forms.RegisterForm(prefix="register", **kwargs)
    from ..stats.queries import roster_names

    playing = {p.name for p in state.players if p.withdrawn_after is None}
    form.roster.choices = [
        SelectChoice(n, n, render_kw=NAME_OPTION) for n in roster_names() if n not in playing
    ]
    return form


def _director_page(
    event_id: int,
    register: forms.RegisterForm | None = None,
    code_form: forms.DirectorCodeForm | None = None,
) -> str:
    view = queries.director(event_id)
    if register is None:
        register = _register_form(view.state)
        register.version.data = str(view.event.version)
    return render_template(
        "events/director.html",
        view=view,
        event=view.event,
        register=register,
        directing=directors.may_direct(event_id),
        director_code=directors.shown_code(event_id),
        code_form=code_form or forms.DirectorCodeForm(prefix="director"),
        format_said=forms.FORMAT_NAMES[view.event.format],
        plan_error_said=operations.errors.explain(view.plan_error) if view.plan_error else None,
        stamp=queries.stamp(event_id),
        variant_name=queries.variant_name(view.event.variant),
        table_count=queries.table_count(view.state),
    )


@bp.get("/events/<id:event_id>")
def show(event_id: int) -> str:
    """The director's screen."""
    return _director_page(event_id)


def _said(error: OperationError) -> None:
    flash(operations.errors.explain(error), "error")


def _back(event_id: int) -> BaseResponse:
    return redirect(url_for("events.show", event_id=event_id))


def _changed(event_id: int, change: Callable[[], object], done: str) -> BaseResponse:
    """Make a change to the event and go back to the director's screen, saying ``done``, or
    what refused it."""
    try:
        change()
    except OperationError as error:
        _said(error)
    else:
        flash(done, "info")
    return _back(event_id)


@bp.post("/events/<id:event_id>/players")
def register(event_id: int) -> ViewResult:
    """Register players: picked from the roster, or added at the door."""
    state = operations.events.load_event(event_id, games=False)
    form = _register_form(state)
    if not form.validate_on_submit():
        return _director_page(event_id, form), 400
    names = form.names()
    if not names:
        form.door.errors = [gettext("Pick players from the roster or type their names.")]
        return _director_page(event_id, form), 400
    try:
        operations.event_setup.register(
            event_id, names, team=form.team.data or None, version=_version(form.version.data)
        )
    except rules.RuleError as error:
        form.door.errors = [error_detail(error)]
        return _director_page(event_id, form), 400
    except OperationError as error:
        _said(error)
        return _back(event_id)
    later = state.next_number > 1
    flash(
        ngettext(
            "%(num)s player registered.",
            "%(num)s players registered.",
            len(names),
        )
        + (
            " " + gettext("They play from round %(round)s.", round=state.next_number)
            if later
            else ""
        ),
        "info",
    )
    return _back(event_id)


def _version(raw: str | None) -> int | None:
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


@bp.post("/events/<id:event_id>/players/<id:player_id>/withdraw")
def withdraw(event_id: int, player_id: int) -> ViewResult:
    """Take a player out from the next round on."""
    form = forms.VersionForm()
    form.validate_on_submit()
    return _changed(
        event_id,
        lambda: operations.event_setup.withdraw(event_id, player_id, version=form.seen()),
        gettext("The player is out from the next round on."),
    )


@bp.post("/events/<id:event_id>/rounds")
def start_round(event_id: int) -> ViewResult:
    """Start the next round: its seating, one game a table, and its clock."""
    form = forms.VersionForm()
    form.validate_on_submit()
    try:
        number = operations.rounds.start_round(event_id, version=form.seen())
    except Conflict:
        flash(
            gettext(
                "The event changed since this screen was drawn (a player added, a round "
                "started): here it is as it is now. Check the seating and start again."
            ),
            "error",
        )
    except OperationError as error:
        _said(error)
    else:
        flash(gettext("Round %(number)s has started.", number=number), "info")
    return _back(event_id)


@bp.post("/events/<id:event_id>/clock/pause")
def pause_clock(event_id: int) -> ViewResult:
    """Pause the round clock (a break)."""
    return _changed(
        event_id, lambda: operations.rounds.pause_clock(event_id), gettext("The clock is paused.")
    )


@bp.post("/events/<id:event_id>/clock/resume")
def resume_clock(event_id: int) -> ViewResult:
    """Run the round clock on after a pause."""
    return _changed(
        event_id, lambda: operations.rounds.resume_clock(event_id), gettext("The clock runs again.")
    )


@bp.post("/events/<id:event_id>/clock/call")
def call_time(event_id: int) -> ViewResult:
    """Call time: every table's game ends after its hand in play."""
    try:
        called = operations.rounds.call_time(event_id)
    except OperationError as error:
        _said(error)
    else:
        flash(
            ngettext(
                "Time called: %(num)s table finishes the hand in play.",
                "Time called: %(num)s tables finish the hand in play.",
                called,
            ),
            "info",
        )
    return _back(event_id)


@bp.post("/events/<id:event_id>/board-standings")
def board_standings(event_id: int) -> ViewResult:
    """Show or hide the standings on the room's board."""
    form = forms.HiddenStandingsForm()
    form.validate_on_submit()
    hidden = form.hidden.data == "1"
    operations.event_setup.set_standings_hidden(event_id, hidden)
    flash(
        gettext("The room's board hides the standings until the end.")
        if hidden
        else gettext("The room's board shows the standings."),
        "info",
    )
    return _back(event_id)


@bp.post("/events/<id:event_id>/finish")
def finish(event_id: int) -> ViewResult:
    """Close the event: its standings are final."""
    try:
        operations.rounds.finish_event(event_id)
    except OperationError as error:
        _said(error)
    else:
        flash(gettext("The event is over: its standings are final."), "info")
    return redirect(url_for("event_room.standings", event_id=event_id))


# --- Who directs --------------------------------------------------------------------------------

#: The event's changes anyone may ask for: becoming its director by its code.
OPEN_TO_ALL = {"events.become_director"}


@bp.before_request
def _director_only() -> BaseResponse | None:
    """The event's own changes (rounds, clock, registration...) are its director's."""
    event_id = (request.view_args or {}).get("event_id")
    if request.method != "POST" or not isinstance(event_id, int):
        return None
    if request.endpoint in OPEN_TO_ALL or directors.may_direct(event_id):
        return None
    operations.events.load_event(event_id, games=False)  # NotFound for no such event
    _said(EventError("not-director"))
    return _back(event_id)


@bp.post("/events/<id:event_id>/director")
def become_director(event_id: int) -> ViewResult:
    """Another device becomes the event's director by the code its director's screen shows."""
    form = forms.DirectorCodeForm(prefix="director")
    if not form.validate_on_submit():
        return _director_page(event_id, code_form=form), 400
    wait = directors.code_attempt(event_id)  # counted before the (slow) check
    if wait:
        seconds = int(wait) + 1
        form.code.errors = [
            ngettext(
                "Too many wrong codes. Try again in %(num)s second.",
                "Too many wrong codes. Try again in %(num)s seconds.",
                seconds,
            )
        ]
        return _director_page(event_id, code_form=form), 429, {"Retry-After": str(seconds)}
    if not operations.directors.check_code(event_id, form.code.data):
        operations.events.load_event(event_id, games=False)  # NotFound for no such event
        form.code.errors = [operations.errors.explain(EventError("bad-director-code"))]
        return _director_page(event_id, code_form=form), 400
    directors.code_succeeded(event_id)
    code = operations.directors.shown(operations.directors.normalised(form.code.data))
    directors.mark_director(event_id, code)
    flash(gettext("This device directs the event now."), "info")
    return _back(event_id)


@bp.post("/events/<id:event_id>/director/code")
def new_director_code(event_id: int) -> ViewResult:
    """Draw a new director's code: the old one no longer works, and every other device that
    directed the event with it no longer does."""
    directors.mark_director(event_id, operations.directors.draw_code(event_id))
    flash(
        gettext(
            "A new director's code: the old one, and the devices that entered it, no longer direct."
        ),
        "info",
    )
    return _back(event_id)


__all__ = ["EventError", "bp"]
