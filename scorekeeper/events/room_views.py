"""What an event's room reads: a table card's code (``/events/<id>/tables/<n>``, which leads
to the game the table plays in the round on), the standings, the room's board and the stamp
it polls, the printed lists (seats, table cards, standings and payouts), and a league's
seasons. Read-only pages: nothing here changes the event (the director's screen does,
``views``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers.response import Response as BaseResponse

from .. import operations
from ..live import broker as live
from ..operations.errors import NotFound
from . import queries

bp = Blueprint("event_room", __name__)

ViewResult = str | BaseResponse


# --- The tables' phones ---------------------------------------------------------------------------


@bp.get("/events/<id:event_id>/tables/<id:number>")
def table(event_id: int, number: int) -> ViewResult:
    """A table card's code: the game this table plays in the round on."""
    game_id = operations.events.table_game(event_id, number)
    if game_id is None:
        operations.events.load_event(event_id, games=False)  # NotFound for no such event
        return render_template("events/table_waiting.html", event_id=event_id, number=number)
    return redirect(url_for("games.show", game_id=game_id))


# --- Standings and the room's board ---------------------------------------------------------------


@bp.get("/events/<id:event_id>/standings")
def standings(event_id: int) -> str:
    view = queries.room(event_id)
    return render_template(
        "events/standings.html", view=view, event=view.event, money=queries.money(view)
    )


@bp.get("/events/<id:event_id>/board")
def board(event_id: int) -> str:
    """The room's board for a TV: the standings (unless hidden until the end), the round
    clock, and each table's state; it follows every hand as it is saved. Fetched again by
    its script, it is drawn once for each state of the event (the two boards of a hall and
    a third opened later share it)."""
    stamp = queries.stamp(event_id)
    if stamp is None:
        raise NotFound("no-event", id=event_id)

    def draw() -> str:
        view = queries.room(event_id)
        return render_template("events/board.html", view=view, event=view.event, stamp=stamp)

    return live.drawn_once(("event", event_id, stamp), draw)


@bp.get("/events/<id:event_id>/version.json")
def version(event_id: int) -> BaseResponse:
    """What the room's board polls: a stamp that changes with every hand at every table."""
    found = queries.stamp(event_id)
    if found is None:
        raise NotFound("no-event", id=event_id)
    return jsonify(version=found)


# --- Printed --------------------------------------------------------------------------------------


def _printed(event_id: int, template: str, name: str, **context: Any) -> BaseResponse:
    from ..pdf.printed_sheet import document_context
    from ..pdf.views import printed, requested_paper

    paper = requested_paper()
    state = operations.events.load_event(event_id)

    def html() -> str:
        return render_template(
            template, state=state, event=state.event, **context, **document_context(paper)
        )

    key = ("event", name, event_id, queries.stamp(event_id), request.host, str(request.args))
    return printed(key, f"event-{event_id}-{name}.pdf", html, paper=paper)


@bp.get("/events/<id:event_id>/seats.pdf")
def seats_pdf(event_id: int) -> BaseResponse:
    """The seat list: each player's table and seat (the round in play, or the next)."""
    state = operations.events.load_event(event_id)
    number, tables, byes = queries.round_tables(state, request.args.get("round", type=int))
    return _printed(
        event_id, "events/seats_pdf.html", "seats", number=number, tables=tables, byes=byes
    )


@bp.get("/events/<id:event_id>/tables.pdf")
def tables_pdf(event_id: int) -> BaseResponse:
    """A card for every table, with the code its phones scan."""
    from ..serving.join import code_for

    state = operations.events.load_event(event_id)
    count = max(queries.table_count(state), 1)
    cards = [
        (n, code_for(url_for("event_room.table", event_id=event_id, number=n)))
        for n in range(1, count + 1)
    ]
    return _printed(event_id, "events/tables_pdf.html", "tables", cards=cards)


@bp.get("/events/<id:event_id>/standings.pdf")
def standings_pdf(event_id: int) -> BaseResponse:
    """The final standings and payouts."""
    view = queries.room(event_id)
    return _printed(
        event_id, "events/standings_pdf.html", "standings", view=view, money=queries.money(view)
    )


# --- Seasons --------------------------------------------------------------------------------------


@bp.get("/seasons/<id:season_id>")
def season(season_id: int) -> str:
    """A season's table: every player's points over its events, and attendance."""
    table = operations.seasons.season_table(season_id)
    return render_template("events/season.html", table=table)
