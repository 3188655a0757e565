"""Template filters: how scores read on a page (money, numbers and dates, in the language), and
the words the table wrote kept apart from the page's own (names, teams, notes)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from flask import Flask, current_app, has_request_context, request, url_for
from markupsafe import Markup, escape

from ..i18n import current_locale, gettext, isolated
from ..lru import LRU, per_app
from ..rules import in_the_hole
from ..serving.join import board_code


def ringed(score: int) -> Markup:
    """Show a score, with a ring around it when it is in the hole."""
    # Plain string building: a sheet rings hundreds of scores, and Markup.format is slow.
    if in_the_hole(score):
        title = escape(gettext("in the hole"))
        return Markup(f'<span class="ring" title="{title}">&minus;{escape(str(-score))}</span>')
    return escape(str(score))


def bdi(text: object) -> Markup:
    """Words the table wrote (a name, a team, a night, a note), isolated from the page's own
    words around them: a name written right to left, or with a direction override in it,
    cannot reorder what follows it (``<bdi>``: its own direction, from its first letter)."""
    # Plain string building, as ringed: a sheet isolates hundreds of names.
    return Markup(f"<bdi>{escape(text)}</bdi>")


def _drawn(template: str, **context: Any) -> Markup:
    """A piece of a page that reads only what it is given (and the language, the filters and
    ``url_for``): drawn by the template alone, without the page's context processors."""
    return Markup(current_app.jinja_env.get_template(template).render(**context))


#: Drawn sheet rows a process keeps (a row is a few hundred bytes): a sheet of many games.
SHEET_ROWS_KEPT = 4096


def sheet_rows(game: Any, editable: bool) -> Markup:
    """The rows of a game's phone sheet (``games/_sheet_row.html``), each drawn once and kept
    by everything it shows: the row itself (a frozen ``HandRow``: its scores, takers, words),
    its trail mark, the sheet's short names, the language and where the app is served. A
    hand recorded adds a row and moves "latest" (marked on the kept row as it is shown); a
    correction changes the rows it changes; the rest are drawn as they were, without drawing
    them again."""
    kept: LRU[Markup] = per_app("scorekeeper.sheet_rows", lambda: LRU(SHEET_ROWS_KEPT))
    trail = game.trail
    shorts = dict(game.player_shorts)
    context = (
        current_locale(),
        request.script_root,
        game.id,
        bool(editable),
        game.is_partnership,
        len(game.sides),
        tuple(game.player_shorts),
    )
    drawn = []
    for row in game.rows:
        mark = trail.sheet_mark(row.number) if trail else None
        corrected = bool(trail and trail.corrected(row.number))
        key = (context, row, mark, corrected)
        found = kept.get(key)
        if found is None:
            found = _drawn(
                "games/_sheet_row.html",
                row=row,
                mark=mark,
                corrected=corrected,
                shorts=shorts,
                n_sides=len(game.sides),
                partnership=game.is_partnership,
                game_id=game.id,
                editable=editable,
            )
            kept.put(key, found)
        drawn.append(found)
    if drawn:
        # The latest row is kept as any other and marked as shown (after its trail mark, as
        # games/_sheet_row.html opens its classes), so a hand recorded draws only its own row.
        mark = trail.sheet_mark(game.rows[-1].number) if trail else None
        opened = f'class="hand {mark}' if mark else 'class="hand'
        drawn[-1] = Markup(str(drawn[-1]).replace(opened, opened + " latest", 1))
    return Markup("\n").join(drawn)


#: Rows a hand form class keeps drawn: a row per field, language and state it is shown in.
FORM_ROWS_KEPT = 256


def _kept_on_class(form: Any, key: Hashable | None, draw: Callable[[], Markup]) -> Markup:
    """What ``draw`` draws for a hand form, kept on the form's class by ``key`` (a class is one
    table's, in one language: ``HandFormBase.drawn_rows``); drawn afresh when ``key`` is None
    (a row with an error, a counter with counts) or the form's class keeps nothing."""
    kept: dict[Hashable, Markup] | None = getattr(type(form), "drawn_rows", None)
    if key is None or kept is None:
        return draw()
    found = kept.get(key)
    if found is None:
        if len(kept) >= FORM_ROWS_KEPT:
            kept.clear()
        found = kept[key] = draw()
    return found


def form_row(form: Any, macro: str, field: Any, *args: Any) -> Markup:
    """A row of a hand form drawn by a macro of ``_forms.html`` (``tap_buttons``: a row of tap
    buttons; ``field``: the note), drawn once a table and kept by everything the row shows
    that a form may change: its value, its label and help, whether it is required. A row
    with an error is drawn afresh each time. A table draws the same rows every hand: each
    is drawn once, not once a hand."""
    key = (
        None
        if field.errors
        else (
            macro,
            field.name,
            args,
            field.data,
            getattr(field, "options_required", None),
            str(field.label.text),
            str(field.description),
        )
    )
    macros = current_app.jinja_env.get_template("_forms.html").module
    return _kept_on_class(form, key, lambda: Markup(getattr(macros, macro)(field, *args)))


#: Pieces of pages drawn once a language and kept (``drawn_once``): a few per page kind.
PIECES_KEPT = 256


def drawn_once(template: str, **values: Hashable) -> Markup:
    """A piece of a page that depends only on ``values``, the language and where the app is
    served (a script's words, say): drawn once and kept, not drawn again for every page."""
    kept: LRU[Markup] = per_app("scorekeeper.pieces", lambda: LRU(PIECES_KEPT))
    key = (current_locale(), request.script_root, template, tuple(sorted(values.items())))
    return kept.get_or_make(key, lambda: _drawn(template, **values))


def game_counter(form: Any) -> Markup:
    """A hand form's Game counter (``games/_game_counter.html``). An empty one (nothing typed,
    no error) is the same every hand of a table: it is drawn once and kept, as ``form_row``
    keeps the tap rows; one with counts or errors is drawn afresh."""
    counter = form.game_count
    empty = not counter.errors and not any(box.shown for box in counter.boxes.values())
    return _kept_on_class(
        form,
        ("game counter",) if empty else None,
        lambda: _drawn("games/_game_counter.html", form=form),
    )


#: Addresses a process keeps built (a game page asks for some thirty, most the same each time).
URLS_KEPT = 4096


def kept_url_for(endpoint: str, **values: Any) -> str:
    """``url_for`` for the templates, each address built once and kept by its endpoint, its
    values and where the app is served (``request.script_root``): the app's routes never
    change while it runs, and no ``url_defaults`` function adds to them. An address asked
    for relative to the request's blueprint (``.show``), with Flask's own options
    (``_external``, ``_anchor``...), with a value that cannot be a key, or outside a request
    is built by ``url_for`` every time."""
    if (
        endpoint.startswith(".")
        or not has_request_context()
        or any(name.startswith("_") for name in values)
    ):
        return url_for(endpoint, **values)
    try:
        key = (request.script_root, endpoint, *sorted(values.items()))
        hash(key)
    except TypeError:  # a list of values for one query argument, say
        return url_for(endpoint, **values)
    kept: LRU[str] = per_app("scorekeeper.urls", lambda: LRU(URLS_KEPT))
    return kept.get_or_make(key, lambda: url_for(endpoint, **values))


def init_app(app: Flask) -> None:
    app.jinja_env.globals["url_for"] = kept_url_for
    app.jinja_env.filters["ringed"] = ringed
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["isolated"] = isolated
    app.jinja_env.globals["board_join_code"] = board_code
    app.jinja_env.globals["sheet_rows"] = sheet_rows
    app.jinja_env.globals["form_row"] = form_row
    app.jinja_env.globals["game_counter"] = game_counter
    app.jinja_env.globals["drawn_once"] = drawn_once

    @app.context_processor
    def base_context() -> dict[str, Any]:
        return {}
