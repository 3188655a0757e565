"""The history's filters: who played, which game, between which dates, finished or not.

The form checks shapes only (a date is a date, a variant is one we know, the player
is on the roster); the query applies them. The same filters drive the page and the PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Select, exists, select
from wtforms import DateField, Form, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional, ValidationError

from .. import models, rules
from ..extensions import db

STATUSES = {"": "Finished or not", "finished": "Finished", "playing": "Not finished"}


class DayField(DateField):
    """A date typed as YYYY-MM-DD; anything else gets an example, not just "not valid"."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(
                f"{self.label.text}: write the date as YYYY-MM-DD, like 2026-03-14."
            ) from None


class HistoryForm(Form):
    """The filter form, read from the query string (a GET form: it changes nothing)."""

    player = StringField("Player", validators=[Optional(), Length(max=rules.NAME_MAX)])
    variant = SelectField("Game", choices=[SelectChoice("", "Any game")], validate_choice=False)
    date_from = DayField("From", validators=[Optional()], format="%Y-%m-%d")
    date_to = DayField("To", validators=[Optional()], format="%Y-%m-%d")
    status = SelectField(
        "Finished?",
        choices=[SelectChoice(v, label) for v, label in STATUSES.items()],
        validate_choice=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.variant.choices = [
            SelectChoice("", "Any game"),
            *(SelectChoice(v.key, v.name) for v in rules.VARIANTS.values()),
        ]

    def validate_player(self, field: StringField) -> None:
        name = (field.data or "").strip()
        if (
            name
            and db.session.execute(
                select(models.Player.id).where(models.Player.name == name)
            ).first()
            is None
        ):
            raise ValidationError(f"Nobody called {name!r} has played here.")

    def validate_variant(self, field: SelectField) -> None:
        if field.data and field.data not in rules.VARIANTS:
            raise ValidationError(
                f"{str(field.data)[:40]!r} is not a game we keep score of; "
                "choose one from the list."
            )

    def validate_date_to(self, field: DateField) -> None:
        if field.data and self.date_from.data and field.data < self.date_from.data:
            raise ValidationError("The end date comes before the start date.")

    def validate_status(self, field: SelectField) -> None:
        if (field.data or "") not in STATUSES:
            raise ValidationError(f"Choose one of: {', '.join(v for v in STATUSES.values())}.")


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
        """Say the filters in words: ``Ann's games · Auction Pitch · from 2026-01-01``."""
        parts = []
        if self.player:
            parts.append(f"games with {self.player}")
        if self.variant:
            parts.append(rules.VARIANTS[self.variant].name)
        if self.date_from and self.date_to:
            parts.append(f"{self.date_from.isoformat()} to {self.date_to.isoformat()}")
        elif self.date_from:
            parts.append(f"from {self.date_from.isoformat()}")
        elif self.date_to:
            parts.append(f"up to {self.date_to.isoformat()}")
        if self.status:
            parts.append(STATUSES[self.status].lower())
        return " · ".join(parts)

    def query(self) -> Select[tuple[models.Game]]:
        """Select the matching games, newest first."""
        query = select(models.Game)
        if self.player:
            query = query.where(
                exists()
                .where(models.Seat.game_id == models.Game.id)
                .where(models.Seat.player_id == models.Player.id)
                .where(models.Player.name == self.player)
            )
        if self.variant:
            query = query.where(models.Game.variant == self.variant)
        if self.date_from:
            query = query.where(
                models.Game.created_at >= datetime.combine(self.date_from, time.min)
            )
        if self.date_to and self.date_to < date.max:
            end = datetime.combine(self.date_to + timedelta(days=1), time.min)
            query = query.where(models.Game.created_at < end)
        if self.status == "finished":
            query = query.where(models.Game.finished.is_(True))
        elif self.status == "playing":
            query = query.where(models.Game.finished.is_(False))
        return query.order_by(models.Game.created_at.desc(), models.Game.id.desc())
