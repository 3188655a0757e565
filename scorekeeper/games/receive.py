"""The one way a hand comes in: the game page's own post (``games.show``) and the phone's
JSON door (``offline.queued_hand``) both call ``receive_hand``, and only render its
``Outcome``: HTML for one, JSON for the other.

A hand is placed by the number of the hand its form was opened for and by its one-time key;
a page's own form must also be of the game's version (a phone's kept hand was tapped on an
older page, so only its number and key count). The form is read and checked under the
game's lock (``operations.hands.record_hand`` calls ``checked`` with the game as locked), so
a hand saved reads the game once. What can come of it:

- ``saved``: recorded as the next hand;
- ``already-saved``: the key recorded this very hand before (a second tap, a lost answer);
- ``undone``: the key's hand was recorded and undone since: nothing is saved;
- ``conflict``: the game is not where the form was: another phone recorded its hand, hands
  were undone, the page is stale, or the key's hand was saved with other taps (a page brought
  back by Back). Nothing is saved and the taps are kept: the hands recorded meanwhile, and
  this hand beside the one in its place, point by point, for the table to choose: it is the
  next hand, or a correction of the recorded one, or it is dropped;
- ``same``: tapped as the last hand was: the table is asked first;
- ``refused``: nothing is saved, and the form says why.

Every outcome is worked out here, once, for both doors; a conflict's hand beside the
recorded one is ``compare``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .. import operations, rules
from ..i18n import N_, gettext
from ..operations.errors import Conflict, KeyUsed, SameAsLast
from ..operations.rows import Loaded
from ..sheets.words import describe_hand
from ..web.routing import parse_id
from . import form_class, forms
from .compare import Disagreement, compared, hand_of


class Kind(StrEnum):
    """What came of a hand sent in (the JSON door's ``status``)."""

    SAVED = "saved"
    ALREADY_SAVED = "already-saved"
    UNDONE = "undone"
    MOVED_ON = "conflict"
    SAME = "same"
    REFUSED = "refused"


@dataclass(frozen=True)
class Recorded:
    """A hand recorded since the form was opened, in a sentence."""

    number: int
    said: str


@dataclass(frozen=True)
class Outcome:
    """What came of a hand sent in, with what either door needs to say it."""

    kind: Kind
    #: The form as checked, its taps kept (to show again), or None when the hand was saved.
    form: forms.HandFormBase | None
    #: The game as it now is (None when the hand was saved: the page after reads it).
    loaded: Loaded | None
    #: The hand saved, saved before, undone since, or repeated (``same``); for a conflict,
    #: the hand the form was opened for.
    number: int | None = None
    #: The hand in a sentence ("Ana made 3."; "Hand 5 was already saved: ...").
    said: str = ""
    #: Why a hand was refused, or what changed under a form (a conflict with no hand in its
    #: place); said above the form.
    messages: tuple[str, ...] = ()
    #: A conflict: the hands recorded from the form's hand number on.
    recorded: tuple[Recorded, ...] = ()
    #: A conflict: this hand beside the recorded one in its place, if one is.
    disagreement: Disagreement | None = None
    #: A conflict: the hand it may be saved as, the next one (None once the game is over).
    next_number: int | None = None
    #: Whether the game is over (after the hand saved, or as found).
    finished: bool = False

    @property
    def conflict(self) -> bool:
        """Whether the game was not where the form was (the table is to choose)."""
        return self.kind is Kind.MOVED_ON


class _Refused(Exception):
    """The posted hand form was refused before anything was written (its errors say why)."""


#: What a form that cannot be placed is told (nothing is saved).
KEY_NOT_VALID = N_("This form's key is not valid; nothing was saved. Tap the hand in again.")
NO_VERSION = N_(
    "This form does not say which state of the game it was made from; "
    "reload the page and try again. Nothing was saved."
)
NO_NUMBER = N_(
    "The hand number is not valid; nothing was saved. Reload the page and tap the hand in again."
)


def receive_hand(game_id: int, data: Mapping[str, str], *, sent_by_phone: bool) -> Outcome:
    """Record the hand form ``data`` posted as the next hand of game ``game_id``, once, and
    say what came of it.

    ``sent_by_phone``: a hand the page's script sent (at once, or kept while offline) to the
    JSON door: it must carry its own key and number, and the game's version is not checked
    (a kept hand was tapped on an older page). Otherwise the page's own form: a form without
    a key gets one (as a form shown does), and its version must be the game's.
    ``as_number`` in ``data`` is the table's choice after a conflict: it is that hand. Raises
    ``NotFound`` when there is no such game.
    """
    try:
        given = data.get("token") or (None if sent_by_phone else operations.hands.new_key())
        key = operations.hands.posted_key(given)
    except ValueError:
        key = None
    if key is None:
        return _refused_unread(game_id, data, gettext(KEY_NOT_VALID))
    numbers = _numbers(data)
    if numbers is None or (sent_by_phone and numbers["number"] is None):
        return _refused_unread(game_id, data, gettext(NO_NUMBER), key=key)
    version = None if sent_by_phone else numbers["version"]
    if not sent_by_phone and version is None:
        return _refused_unread(game_id, data, gettext(NO_VERSION), key=key)
    number = numbers["as_number"] or numbers["number"]
    # The form as checked under the lock (the last, if a raced key made the write try again).
    shown: list[forms.HandFormBase] = []

    def checked(loaded: Loaded) -> rules.Hand:
        # A signed game takes no hand from whoever may not change it (``Signed``): said in
        # the signature's words, not as a conflict or a game over to correct.
        operations.trail.check_unlocked(loaded)
        result = loaded.result
        form = form_class.hand_form(loaded.game, result.next_dealer, formdata=data)
        shown.append(form)
        if number is not None and number != len(loaded.hands) + 1:
            raise Conflict(Conflict.STALE)  # another phone, or an undo: said as a conflict
        if result.finished:
            form.form_errors.append(
                gettext(
                    "The game is over: %(winner)s won. Undo or edit a hand to change it.",
                    winner=result.winner,
                )
            )
            raise _Refused
        if not form.validate_on_submit():
            raise _Refused
        return form.to_hand(result.next_dealer)

    try:
        result = operations.hands.record_hand(
            game_id,
            checked,
            version=version,
            key=key,
            number=number,
            ask_if_same=True,
            again=numbers["again"],
        )
    except _Refused:
        return _refused(game_id, shown[-1])
    except rules.RuleError as error:
        shown[-1].attach_error(error)
        return _refused(game_id, shown[-1])
    except SameAsLast as same:
        return _same(game_id, shown[-1], same.number)
    except KeyUsed as used:
        return _key_used(game_id, data, used)
    except Conflict as conflict:
        if conflict.code == Conflict.BUSY:
            form = shown[-1] if shown else None
            return _refused_unread(
                game_id, data, operations.errors.explain(conflict), key=key, form=form
            )
        return _moved_on(game_id, data, number, version_moved=version is not None)
    return Outcome(
        Kind.SAVED,
        None,
        None,
        number=len(result.hands),
        said=describe_hand(result, result.hands[-1]),
        finished=result.finished,
    )


#: The numbers a hand form posts: the game's version it was opened at, the hand it is for,
#: the hand the table said it is after a conflict, the last hand it repeats (when asked).
NUMBERS = ("version", "number", "as_number", "again")


def _numbers(data: Mapping[str, str]) -> dict[str, int | None] | None:
    """The numbers the form posted (each None if not posted), or None if one is not a number
    (``routing.parse_id``, the one parser of a number in a request)."""
    found: dict[str, int | None] = {}
    for name in NUMBERS:
        raw = data.get(name) or ""
        found[name] = parse_id(raw) if raw else None
        # A hand is numbered from 1 (the version may be 0).
        if raw and (found[name] is None or (name != "version" and found[name] == 0)):
            return None
    return found


def _form_for(loaded: Loaded, data: Mapping[str, str], usual: str | None) -> forms.HandFormBase:
    """This game's hand form read from ``data`` and checked (its errors on it), as if it
    were for a hand ``usual`` was due to deal."""
    form = form_class.hand_form(loaded.game, usual, formdata=data)
    form.validate()
    return form


def _refused_unread(
    game_id: int,
    data: Mapping[str, str],
    message: str,
    *,
    key: str | None = None,
    form: forms.HandFormBase | None = None,
) -> Outcome:
    """A form refused before its hand was read: said above it, its taps kept, and a new key
    unless its own is sound (the next Save must not send a key that cannot be placed)."""
    loaded = operations.loading.load(game_id)
    if form is None:
        form = form_class.hand_form(loaded.game, loaded.result.next_dealer, formdata=data)
    if key is None:
        form.token.data = operations.hands.new_key()
    form.form_errors.append(message)
    return Outcome(
        Kind.REFUSED,
        form,
        loaded,
        messages=(message,),
        finished=loaded.result.finished,
    )


def _refused(game_id: int, form: forms.HandFormBase) -> Outcome:
    """The form's hand refused (the form or the engine says why, next to each field)."""
    loaded = operations.loading.load(game_id)
    messages = (*form.form_errors, *(message for _, message in form.needing_attention()))
    return Outcome(
        Kind.REFUSED, form, loaded, messages=tuple(messages), finished=loaded.result.finished
    )


def _same(game_id: int, form: forms.HandFormBase, number: int) -> Outcome:
    """The hand is tapped as the last one was: ask first ("Same as hand 5 — again?")."""
    loaded = operations.loading.load(game_id)
    form.same_as = number
    result = loaded.result
    return Outcome(
        Kind.SAME, form, loaded, number=number, said=describe_hand(result, result.hands[number - 1])
    )


def _key_used(game_id: int, data: Mapping[str, str], used: KeyUsed) -> Outcome:
    """Answer a form sent again with the hand it saved the first time, never a second one;
    a form whose taps were changed since (Back) is a conflict with that hand."""
    if used.game_id != game_id:
        return _refused_unread(
            game_id, data, gettext("This form was opened for another game; nothing was saved here.")
        )
    loaded = operations.loading.load(game_id)
    result = loaded.result
    if not used.kept or used.number > len(result.hands):
        said = gettext(
            "This form saved hand %(number)s before, and it was undone since; nothing was saved.",
            number=used.number,
        )
        return Outcome(Kind.UNDONE, None, loaded, number=used.number, said=said)
    saved = result.hands[used.number - 1]
    form = _form_for(loaded, data, saved.usual_dealer)
    mine = hand_of(form, saved.usual_dealer)
    if mine is not None and mine == saved.hand:
        said = gettext(
            "Hand %(number)s was already saved: %(hand)s",
            number=used.number,
            hand=describe_hand(result, saved),
        )
        return Outcome(
            Kind.ALREADY_SAVED,
            None,
            loaded,
            number=used.number,
            said=said,
            finished=result.finished,
        )
    # Its key is spent: the next Save from this form needs a new one.
    form.token.data = operations.hands.new_key()
    return _conflict(loaded, form, used.number, against=used.number, from_this_form=True)


def _moved_on(
    game_id: int, data: Mapping[str, str], number: int | None, *, version_moved: bool
) -> Outcome:
    """The game moved since the form was opened: the hands recorded in its place (or why it
    does not fit any more), this hand beside the one in its place; its taps kept."""
    loaded = operations.loading.load(game_id)
    hands = loaded.result.hands
    against = number if number is not None and number <= len(hands) else None
    usual = hands[against - 1].usual_dealer if against is not None else loaded.result.next_dealer
    form = _form_for(loaded, data, usual)
    message = ""
    if against is None:
        next_number = len(hands) + 1
        if number is not None and number > next_number:
            message = gettext(
                "Hand %(number)s is not the next hand any more: hands were undone on another "
                "phone, and hand %(next)s is next. Nothing was saved.",
                number=number,
                next=next_number,
            )
        elif version_moved:
            message = gettext(
                "The score sheet changed since this form was opened (another phone corrected "
                "or undid a hand): check the standings. Nothing was saved; the taps are kept."
            )
    return _conflict(loaded, form, number, against=against, message=message)


def _conflict(
    loaded: Loaded,
    form: forms.HandFormBase,
    number: int | None,
    *,
    against: int | None,
    from_this_form: bool = False,
    message: str = "",
) -> Outcome:
    result = loaded.result
    start = (against or number or len(result.hands) + 1) - 1
    recorded = tuple(Recorded(h.number, describe_hand(result, h)) for h in result.hands[start:])
    disagreement = None
    if against is not None:
        disagreement = compared(form, loaded, against, from_this_form=from_this_form)
    if number is not None:
        form.number.data = str(number)
    return Outcome(
        Kind.MOVED_ON,
        form,
        loaded,
        number=number,
        messages=(message,) if message else (),
        recorded=recorded,
        disagreement=disagreement,
        next_number=None if result.finished else len(result.hands) + 1,
        finished=result.finished,
    )
