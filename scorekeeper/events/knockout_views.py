"""Fixed teams' knockout on the director's screen: "Start the knockout" (drawn from the
standings once the round robin is over), "Start the games due", and the bracket as the
director's screen, the standings, the room's board and the standings PDF show it
(``knockout_bracket``, a template global: each page draws it from the event it read).

Its games are ordinary games at the event's tables, reached by the table cards' codes
(``/events/<id>/tables/<n>`` leads to the table's newest game)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, flash, redirect, url_for
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response as BaseResponse

from .. import operations
from ..i18n import gettext, ngettext
from ..operations.bracket import Knockout, MatchView
from ..operations.errors import Conflict, OperationError
from ..operations.events import EventInfo, EventState
from ..operations.standings import Standings
from . import forms

bp = Blueprint("knockout", __name__)


# --- What the pages show ----------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesGame:
    """One game of a match: its scores (the top team's first), and who won it."""

    number: int
    game_id: int | None
    top_score: int | None
    bottom_score: int | None
    finished: bool
    top_won: bool
    bottom_won: bool


@dataclass(frozen=True)
class MatchLine:
    """A match as drawn: its table, its teams (None: waiting for an earlier match's
    winner), the games each has won, its games, and the game in play."""

    table: int
    top: str | None
    bottom: str | None
    top_seed: int | None
    bottom_seed: int | None
    top_wins: int
    bottom_wins: int
    winner: str | None
    games: tuple[SeriesGame, ...]
    playing: int | None


@dataclass(frozen=True)
class BracketView:
    """The knockout as a page shows it."""

    size: int
    best_of: int
    started: bool
    rounds: tuple[tuple[str, tuple[MatchLine, ...]], ...]
    champion: str | None
    runner_up: str | None
    due: int
    #: Its games in play (time may be called on them).
    playing: int
    #: Why it cannot start yet (said), or None; and the teams it would draw, seed 1 first.
    refused: str | None
    seeds: tuple[str, ...]


def _round_title(matches: int) -> str:
    if matches == 1:
        return gettext("Final")
    if matches == 2:
        return gettext("Semi-finals")
    if matches == 4:
        return gettext("Quarter-finals")
    return gettext("Round of %(num)s", num=2 * matches)


def _line(view: MatchView, names: dict[int, str], seeds: dict[int, int]) -> MatchLine:
    m = view.match
    games = tuple(
        SeriesGame(
            g.number,
            g.game_id,
            g.score_of(g.top),
            g.score_of(g.bottom),
            g.finished,
            g.winner == g.top,
            g.winner == g.bottom,
        )
        for g in view.games
    )
    playing = view.playing
    return MatchLine(
        table=view.table,
        top=None if m.top is None else names.get(m.top, "?"),
        bottom=None if m.bottom is None else names.get(m.bottom, "?"),
        top_seed=None if m.top is None else seeds.get(m.top),
        bottom_seed=None if m.bottom is None else seeds.get(m.bottom),
        top_wins=m.top_wins,
        bottom_wins=m.bottom_wins,
        winner=None if m.winner is None else names.get(m.winner, "?"),
        games=games,
        playing=None if playing is None else playing.game_id,
    )


def knockout_bracket(state: EventState, standings: Standings) -> BracketView | None:
    """The event's knockout for its pages (None: it has none)."""
    found: Knockout | None = operations.bracket.knockout_of(state)
    if found is None:
        return None
    names = {line.entrant: line.name for line in standings.lines}
    refused = None
    drawn: list[int] = list(found.seeds or ())
    if not found.started:
        error = operations.knockout.refusal(state, standings.engine)
        refused = None if error is None else operations.errors.explain(error)
        drawn = operations.knockout.seeded(standings.engine)[: found.size]
    seeds = {team: i for i, team in enumerate(drawn, start=1)}
    return BracketView(
        size=found.size,
        best_of=found.best_of,
        started=found.started,
        rounds=tuple(
            (_round_title(len(r)), tuple(_line(v, names, seeds) for v in r)) for r in found.rounds
        ),
        champion=None if found.champion is None else names.get(found.champion, "?"),
        runner_up=None if found.runner_up is None else names.get(found.runner_up, "?"),
        due=len(found.due),
        playing=sum(1 for r in found.rounds for v in r if v.playing is not None),
        refused=refused,
        seeds=tuple(names.get(t, "?") for t in drawn),
    )


bp.add_app_template_global(knockout_bracket, "knockout_bracket")


def best_of_said(best_of: int) -> str:
    if best_of == 1:
        return gettext("one game a match")
    return gettext("each match the best of %(num)s games", num=best_of)


bp.add_app_template_global(best_of_said, "knockout_best_of_said")


# --- The director's buttons -------------------------------------------------------------------

_CHANGED = _l(
    "The event changed since this screen was drawn (a game finished, a player added): here "
    "it is as it is now. Check the standings and start again."
)


def _back(event_id: int) -> BaseResponse:
    return redirect(url_for("events.show", event_id=event_id) + "#knockout-title")


@bp.post("/events/<id:event_id>/knockout")
def start(event_id: int) -> BaseResponse:
    """Draw the knockout from the standings and start its first games."""
    form = forms.VersionForm()
    form.validate_on_submit()
    try:
        seeds = operations.knockout.start_knockout(event_id, version=form.seen())
    except Conflict:
        flash(str(_CHANGED), "error")
    except OperationError as error:
        flash(operations.errors.explain(error), "error")
    else:
        flash(
            ngettext(
                "The knockout has started: %(num)s match, its table cards lead to it.",
                "The knockout has started: %(num)s matches, their table cards lead to them.",
                len(seeds) // 2,
            ),
            "info",
        )
    return _back(event_id)


@bp.post("/events/<id:event_id>/knockout/games")
def start_due(event_id: int) -> BaseResponse:
    """Start every match's next game that is due (should one not have started by itself)."""
    form = forms.VersionForm()
    form.validate_on_submit()
    try:
        started = operations.knockout.start_due_games(event_id)
    except OperationError as error:
        flash(operations.errors.explain(error), "error")
    else:
        flash(
            ngettext("%(num)s game started.", "%(num)s games started.", started)
            if started
            else gettext("Every match already has its game."),
            "info",
        )
    return _back(event_id)


@bp.post("/events/<id:event_id>/knockout/setup")
def setup(event_id: int) -> BaseResponse:
    """Change the knockout's size or series before it starts (say, fewer teams came)."""
    form = forms.KnockoutForm()
    if not form.validate_on_submit():
        flash(" ".join(str(e) for errors in form.errors.values() for e in errors), "error")
        return _back(event_id)
    try:
        operations.knockout.set_knockout(
            event_id, form.knockout.data or None, form.best_of.data, version=form.seen()
        )
    except Conflict:
        flash(str(_CHANGED), "error")
    except OperationError as error:
        flash(operations.errors.explain(error), "error")
    else:
        flash(gettext("The knockout is changed."), "info")
    return _back(event_id)


def knockout_form(event: EventInfo) -> forms.KnockoutForm:
    """The director's form to change the knockout, filled in as it is."""
    form = forms.KnockoutForm(
        formdata=None,
        data={
            "knockout": event.knockout_size or 0,
            "best_of": event.best_of or 1,
            "version": str(event.version),
        },
        prefix="",
    )
    return form


bp.add_app_template_global(knockout_form, "knockout_form")
