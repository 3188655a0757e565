"""The one error style of the write and read layer: a code and its parameters.

As the engine's ``RuleError`` does, an ``OperationError`` carries no sentence: its
``code`` names a message template below (marked for the catalogue) and its ``params``
fill it in. The edge that shows it (a page, the command line, a JSON answer) says it
with ``explain`` (the reader's language) or ``message`` (English, as a JSON answer is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..i18n import N_, gettext, ngettext, use_locale

#: Each code's sentence, in English, marked for the catalogue.
MESSAGES: dict[str, str] = {
    "busy": N_("Someone else saved a change at the same moment; try again."),
    "stale": N_(
        "The score sheet changed since this form was opened (another phone saved a "
        "change); here are the fresh standings: check them and enter it again if needed."
    ),
    "no-game": N_("There is no game number %(id)s."),
    "no-hand": N_("Game %(game)s has no hand %(number)s."),
    "no-hand-to-undo": N_("There is no hand to undo."),
    "no-night": N_("There is no game night number %(id)s. It may have been deleted."),
    "not-in-night": N_("Game %(id)s is not part of game night %(night)s."),
    "no-player": N_("There is no player number %(id)s. They may have been merged into another."),
    "no-variant": N_("There is no variant called %(name)s."),
    "no-ready-made": N_("There is no ready-made rule set called %(name)s."),
    "name-taken": N_(
        "%(name)s is already on the roster; if they are the same person, merge them instead"
    ),
    "merged-meanwhile": N_(
        "%(name)s was merged with another player at the same moment (on another phone or "
        "page), so nothing was merged here. Look at the roster again."
    ),
    "merge-self": N_("choose another player to merge: a player cannot be merged with itself"),
    "no-rule-set": N_("There are no saved house rules number %(id)s. They may have been deleted."),
    "rule-set-name-taken": N_(
        "“%(name)s” is already the name of other saved house rules: choose another name."
    ),
    "already-kept": N_(
        "This game is kept already: game %(id)s has the same players, rules and hands."
    ),
    "collection-file": N_(
        "This is a file of every game (from scorekeeper export-all), not one game's record: "
        "add it with scorekeeper import-all on the machine that serves the app."
    ),
    "signed": N_(
        "Game %(game)s was signed by every side at %(at)s, so it is locked: only the "
        "organiser can correct, undo or delete it now (log in as the organiser; without a "
        "password set, set one first with scorekeeper set-password). Nothing was changed."
    ),
    "not-other-side": N_(
        "%(name)s cannot answer for hand %(number)s: a player of another side than the "
        "pitcher's confirms or disputes it. Nothing was changed."
    ),
    "signed-event": N_(
        "Game %(game)s was signed by every side at %(at)s, so it is locked: only the "
        "event's director can correct, undo or delete it now (on the director's screen's "
        "device, or one that entered the director's code). Nothing was changed."
    ),
    "not-director": N_(
        "Only the event's director can do that: on the device that set the event up, or on "
        "one that entered the director's code on the event's screen. Nothing was changed."
    ),
    "bad-director-code": N_(
        "That is not this event's director's code (it is on the director's screen): "
        "check it and enter it again."
    ),
    "not-a-player": N_("%(name)s does not play in this game; nothing was signed."),
    "bad-trail": N_(
        "The record's trail is not shaped as a trail is (at %(place)s); nothing was imported."
    ),
    "time-not-callable": N_(
        "Time cannot be called on game %(id)s now: it is over, time was called already, or "
        "its count of hands ends it with this hand anyway."
    ),
    "not-finished": N_(
        "Game %(id)s is not over yet: play the next game once this one has a winner."
    ),
    "no-event": N_("There is no event number %(id)s. It may have been deleted."),
    "no-season": N_("There is no season number %(id)s. It may have been deleted."),
    "not-in-event": N_("Player number %(id)s is not playing in event %(event)s."),
    "bad-kind": N_("An event is a tournament or a league night, not %(value)s."),
    "bad-format": N_(
        "Choose how the rounds are seated: progressive, round robin, fixed teams or "
        "individual tables (not %(value)s)."
    ),
    "bad-rounds": N_("The number of rounds is a whole number from 1 to %(max)s."),
    "bad-minutes": N_("A round's clock is a whole number of minutes from 1 to %(max)s."),
    "bad-split": N_(
        "Write the prize split as percentages by place, each more than 0, such as 50 30 20."
    ),
    "split-not-100": N_(
        "The prize split adds up to %(total)s%%: the places' shares must add up to 100%%."
    ),
    "event-over": N_("Every round of this event has been played."),
    "round-not-over": N_(
        "Round %(number)s is still being played: start the next round once every table "
        "has finished (call time to end it)."
    ),
    "no-round": N_("No round has started yet."),
    "not-over": N_("The event is not over: its last round has not been played to the end."),
    "too-many-players": N_("An event may have at most %(max)s players."),
    "knockout-not-teams": N_(
        "A knockout follows a round robin of fixed teams: choose the fixed teams format, "
        "or no knockout."
    ),
    "bad-knockout-size": N_("A knockout is of the top %(sizes)s teams."),
    "bad-best-of": N_("A knockout match is the best of 1, 3 or 5 games."),
    "no-knockout": N_("This event has no knockout."),
    "knockout-started": N_("The knockout has already started."),
    "knockout-waiting": N_("The knockout has not started yet."),
    "round-robin-not-over": N_(
        "The knockout starts once every round of the round robin has been played to the end."
    ),
    "knockout-too-big": N_(
        "The knockout has %(size)s places but only %(teams)s teams play: register more "
        "teams, or set up a smaller knockout."
    ),
    "knockout-not-over": N_(
        "The knockout is still being played: the event closes once its final is played."
    ),
    "bad-scoring": N_("A season counts points by placing or by games won, not %(value)s."),
    "bad-placing-points": N_(
        "Write the points by placing as whole numbers for 1st, 2nd, 3rd..., such as 10 8 6 4."
    ),
    "season-name-taken": N_("“%(name)s” is already the name of a season: choose another name."),
    "no-teams": N_(
        "Put every player in a team of two (the fixed teams format) before the first round: "
        "%(names)s has no partner."
    ),
}

#: Codes whose sentence depends on a count (``params["num"]``), said with ngettext.
PLURALS: dict[str, Callable[..., str]] = {
    "win-moves": lambda num, **params: ngettext(
        "%(winner)s now wins at hand %(hand)s; hand %(hands)s would be played after the win.",
        "%(winner)s now wins at hand %(hand)s; hands %(hands)s would be played after the win.",
        num,
        **params,
    ),
    "shared-games": lambda num, **params: ngettext(
        "%(keep)s and %(other)s both sat at game %(games)s, so they are two "
        "people; nothing was merged",
        "%(keep)s and %(other)s both sat at games %(games)s, so they are two "
        "people; nothing was merged",
        num,
        **params,
    ),
    "disputed": lambda num, places, **params: ngettext(
        "Round %(round)s has a disputed hand: %(places)s. Correct it on the table's game page, "
        "or have the other side confirm it, then start the next round.",
        "Round %(round)s has disputed hands: %(places)s. Correct them on the tables' game "
        "pages, or have the other side confirm them, then start the next round.",
        num,
        **params,
        places=gettext("; ").join(_table_hands(table, hands) for table, hands in places),
    ),
}


def _table_hands(table: int, hands: list[int]) -> str:
    """ "table 2, hand 3" or "table 2, hands 1, 4"."""
    return ngettext(
        "table %(table)s, hand %(hands)s",
        "table %(table)s, hands %(hands)s",
        len(hands),
        table=table,
        hands=", ".join(str(n) for n in hands),
    )


class OperationError(Exception):
    """A read or write that cannot be done: ``code`` (a key of ``MESSAGES``) and ``params``."""

    #: The code a subclass raises when none is given.
    default: ClassVar[str] = ""

    def __init__(self, code: str | None = None, **params: Any) -> None:
        self.code = code or self.default
        self.params = params
        super().__init__(self.code)

    def __str__(self) -> str:
        return self.code


class Conflict(OperationError):
    """The game changed since the form was shown (another phone, or a double tap):
    ``Conflict.BUSY`` (two writes at once) or ``Conflict.STALE`` (an older version)."""

    BUSY: ClassVar[str] = "busy"
    STALE: ClassVar[str] = "stale"
    default = STALE


class NotFound(OperationError):
    """The game, hand, night or player does not exist (any more)."""

    default = "no-game"


class AlreadyKept(OperationError):
    """A record identical to a game kept already (``params["id"]``): imported only if asked."""

    default = "already-kept"


class EventError(OperationError):
    """An event's setup or round that cannot be done; its code says why."""


class RosterError(OperationError):
    """A rename or merge that cannot be done; its code says why."""


def message(error: OperationError) -> str:
    """What the error says, in English (a JSON answer, a log)."""
    with use_locale("en"):
        return explain(error)


def explain(error: OperationError) -> str:
    """What the error says, in the reader's language (a page, the command line)."""
    if error.code in PLURALS:
        return PLURALS[error.code](**error.params)
    if error.code == "engine":  # the events engine's refusal (rules/events/errors.py)
        from ..rules.events.errors import MESSAGES as EVENT_MESSAGES

        said = gettext(EVENT_MESSAGES[error.params["engine_code"]]).format(
            **error.params["engine_params"]
        )
        return said[:1].upper() + said[1:] + "."
    return gettext(MESSAGES[error.code], **error.params)


class KeyUsed(Exception):
    """The form's one-time key recorded a hand already (a second tap, Back, a replay).

    ``game_id`` and ``number`` say where; ``kept`` is false when that hand was undone
    since. Nothing is written: the answer is the hand already saved, never a new one.
    """

    def __init__(self, game_id: int, number: int, kept: bool) -> None:
        super().__init__(f"key already used for hand {number} of game {game_id}")
        self.game_id = game_id
        self.number = number
        self.kept = kept


class WinMoves(OperationError):
    """A correction makes the game end earlier: ``winner`` now wins at hand ``won_at``, and
    the hands after it (``removed``) would be played after the win. Nothing is written; the
    same correction with ``cut_after=won_at`` removes them in the same transaction."""

    default = "win-moves"

    def __init__(self, winner: str, won_at: int, removed: tuple[int, ...]) -> None:
        super().__init__(
            self.default,
            num=len(removed),
            winner=winner,
            hand=won_at,
            hands=", ".join(str(number) for number in removed),
        )
        self.winner = winner
        self.won_at = won_at
        self.removed = removed


class SameAsLast(Exception):
    """The hand is the same as the last one recorded (``number``): ask before saving it."""

    def __init__(self, number: int) -> None:
        super().__init__(f"the same as hand {number}")
        self.number = number
