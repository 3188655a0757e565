"""The history's filters: who played, which game, between which dates, finished or not.

The form checks shapes only (a date is a date, a variant is one we know, the player
is on the roster); the query applies them. The same filters drive the page and the PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from flask_babel import lazy_gettext as _l
from sqlalchemy import ColumnElement, Select, exists, func, select
from wtforms import DateField, Form, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional, ValidationError

from .. import rules
from ..data import models
from ..data.extensions import db
from ..i18n import N_, day, gettext
from ..rules.game import name_key
from ..web.forms import WRITTEN

#: The status filter's values and their labels (translated where shown).
STATUSES = {"": N_("Finished or not"), "finished": N_("Finished"), "playing": N_("Not finished")}


class DayField(DateField):
    """A date typed as YYYY-MM-DD; anything else gets an example, not just "not valid"."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(
                gettext(
                    "%(field)s: write the date as YYYY-MM-DD, like 2026-03-14.",
                    field=self.label.text,
                )
            ) from None


class HistoryForm(Form):
    """The filter form, read from the query string (a GET form: it changes nothing)."""

    player = StringField(
        _l("Player"), validators=[Optional(), Length(max=rules.NAME_MAX)], render_kw=WRITTEN
    )
    variant = SelectField(_l("Game"), choices=[], validate_choice=False)
    date_from = DayField(_l("From"), validators=[Optional()], format="%Y-%m-%d")
    date_to = DayField(_l("To"), validators=[Optional()], format="%Y-%m-%d")
    status = SelectField(_l("Finished?"), choices=[], validate_choice=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.variant.choices = [
            SelectChoice("", gettext("Any game")),
            *(SelectChoice(v.key, gettext(v.name)) for v in rules.VARIANTS.values()),
        ]
        self.status.choices = [SelectChoice(v, gettext(label)) for v, label in STATUSES.items()]

    def validate_player(self, field: StringField) -> None:
        name = (field.data or "").strip()
        if (
            name
            and db.session.execute(
                select(models.Player.id).where(models.Player.name_key == name_key(name))
            ).first()
            is None
        ):
            raise ValidationError(
                gettext("Nobody called %(name)s has played here.", name=repr(name))
            )

    def validate_variant(self, field: SelectField) -> None:
        if field.data and field.data not in rules.VARIANTS:
            raise ValidationError(
                gettext(
                    "%(variant)s is not a game we keep score of; choose one from the list.",
                    variant=repr(str(field.data)[:40]),
                )
            )

    def validate_date_to(self, field: DateField) -> None:
        if field.data and self.date_from.data and field.data < self.date_from.data:
            raise ValidationError(gettext("The end date comes before the start date."))

    def validate_status(self, field: SelectField) -> None:
        if (field.data or "") not in STATUSES:
            choices = ", ".join(gettext(label) for label in STATUSES.values())
            raise ValidationError(gettext("Choose one of: %(choices)s.", choices=choices))


@dataclass(frozen=True)
class HistoryFilters:
    """Checked filters, as plain values."""

    player: str | None = None
    variant: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    status: str = ""

    @classmethod
    def from_form(cls, form: HistoryForm) -> HistoryFilters:
        return cls(
            player=(form.player.data or "").strip() or None,
            variant=form.variant.data or None,
            date_from=form.date_from.data,
            date_to=form.date_to.data,
            status=form.status.data or "",
        )

    def args(self) -> dict[str, str]:
        """The filters as query-string arguments (for links to pages and to the PDF)."""
        out = {
            "player": self.player or "",
            "variant": self.variant or "",
            "date_from": self.date_from.isoformat() if self.date_from else "",
            "date_to": self.date_to.isoformat() if self.date_to else "",
            "status": self.status,
        }
        return {k: v for k, v in out.items() if v}

    def words(self) -> str:
        """Say the filters in words, in the current language:
        ``games with Ann · Auction Pitch · from Jan 1, 2026``."""
        parts = []
        if self.player:
            parts.append(gettext("games with %(player)s", player=self.player))
        if self.variant:
            parts.append(gettext(rules.find_variant(self.variant).name))
        if self.date_from and self.date_to:
            parts.append(
                gettext("%(start)s to %(end)s", start=day(self.date_from), end=day(self.date_to))
            )
        elif self.date_from:
            parts.append(gettext("from %(date)s", date=day(self.date_from)))
        elif self.date_to:
            parts.append(gettext("up to %(date)s", date=day(self.date_to)))
        if self.status:
            parts.append(gettext(STATUSES[self.status]).lower())
        return " · ".join(parts)

    def query(self) -> Select[tuple[models.Game]]:
        """Select the matching games, newest first."""
        query = select(models.Game).where(*self._conditions(by_seats=False))
        return query.order_by(models.Game.created_at.desc(), models.Game.id.desc())

    def count(self) -> Select[Any]:
        """Count the matching games.

        A player's games are found from the seats' index here: the list's query checks
        each game in date order instead, which is quicker for a page but not for all.
        """
        return select(func.count()).select_from(models.Game).where(*self._conditions(by_seats=True))

    def _conditions(self, *, by_seats: bool) -> list[ColumnElement[bool]]:
        game = models.Game
        conditions: list[ColumnElement[bool]] = []
        if self.player:
            seat, player = models.Seat, models.Player
            if by_seats:
                conditions.append(
                    game.id.in_(
                        select(seat.game_id)
                        .join(player, player.id == seat.player_id)
                        .where(player.name_key == name_key(self.player))
                    )
                )
            else:
                conditions.append(
                    exists()
                    .where(seat.game_id == game.id)
                    .where(seat.player_id == player.id)
                    .where(player.name_key == name_key(self.player))
                )
        if self.variant:
            conditions.append(game.variant == self.variant)
        if self.date_from:
            conditions.append(game.created_at >= datetime.combine(self.date_from, time.min))
        if self.date_to and self.date_to < date.max:
            end = datetime.combine(self.date_to + timedelta(days=1), time.min)
            conditions.append(game.created_at < end)
        if self.status == "finished":
            conditions.append(game.finished.is_(True))
        elif self.status == "playing":
            conditions.append(game.finished.is_(False))
        return conditions
