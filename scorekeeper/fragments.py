"""Pieces of pages kept once rendered, by everything they are made of.

After each hand a phone is shown the game page again: the same score sheet rows as
before and one more, and the same rows of tap buttons. Drawing those through Jinja
was most of the page's time (bench/hotspots.py). Here each piece is rendered once per
language and kept, keyed by the values it shows: a changed hand, an error on a field
or another language is another key, so a kept piece is never out of date. The HTML
stays in the templates; the oldest pieces make way (a few MB at most).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from flask import Flask, current_app
from markupsafe import Markup
from wtforms import Field

from .i18n import current_locale
from .lru import LRU, per_app


class Fragments:
    """A bounded, thread-safe store of rendered template pieces."""

    def __init__(self, size: int = 4096) -> None:
        self._kept: LRU[Markup] = LRU(size)

    def render(self, template: str, key: Hashable, **context: Any) -> Markup:
        """Render ``template`` with ``context``, or give back what it gave for ``key`` (which
        must name everything in ``context`` that the template shows) in this language."""
        full_key = (template, current_locale(), key)
        found = self._kept.get(full_key)
        if found is None:
            found = Markup(current_app.jinja_env.get_template(template).render(context))
            self._kept.put(full_key, found)
        return found


def fragments() -> Fragments:
    return per_app("scorekeeper.fragments", Fragments)


class Kept:
    """What templates call as ``kept.…``: the pieces above, each with its key."""

    @staticmethod
    def sheet_rows(rows: Sequence[Any], edit_url_0: str) -> Markup:
        """The game page's score sheet rows, a hand each; ``edit_url_0`` is hand 0's "correct"
        link, renumbered per row (url_for once, not sixty times), or empty: no links."""
        store = fragments()
        made = []
        for row in rows:
            edit_url = edit_url_0.replace("/hands/0/", f"/hands/{row.number}/")
            made.append(
                store.render("games/_sheet_row.html", (row, edit_url), row=row, edit_url=edit_url)
            )
        return Markup("\n").join(made)

    @staticmethod
    def tap_buttons(field: Field, extra_class: str = "") -> Markup:
        """A field's row of tap buttons, with its legend and errors (``_forms.tap_buttons``)."""
        key = (
            field.id,
            field.name,
            str(field.label.text),
            str(field.description),
            tuple(
                (value, str(label), checked) for value, label, checked, _ in field.iter_choices()
            ),
            tuple(str(error) for error in field.errors),
            bool(getattr(field, "options_required", False)),
            extra_class,
        )
        return fragments().render("_tap_buttons.html", key, field=field, extra_class=extra_class)

    @staticmethod
    def form_errors(form: Any) -> Markup:
        """A form's errors that belong to no field (``_forms.form_errors``); usually none."""
        errors = tuple(str(error) for error in form.form_errors)
        if not errors:
            return Markup()
        return fragments().render("_form_errors.html", errors, errors=errors)

    @staticmethod
    def field(field: Field) -> Markup:
        """A field with its label, hint and errors (``_forms.field``), as it stands now."""
        key = (
            type(field),
            field.id,
            field.name,
            str(field.label.text),
            str(field.description),
            field._value(),
            tuple(str(error) for error in field.errors),
            tuple(sorted(vars(field.flags).items())),
        )
        return fragments().render("_field.html", key, field=field)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["kept"] = Kept()
