"""A game's trail as plain values and words for the pages, the board and the printed sheet:
which hands wait for the other side or were disputed, who signed, whether the chain is whole,
and every change said in words ("corrected at 23:40 by the organiser: Jack Ana → Bogdan;
the settlement changed: Cristi pays 0.50, not 0.25")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from .. import operations, rules
from ..i18n import clock, gettext, isolated, money, ngettext
from ..operations.rows import Loaded
from ..operations.trail import (
    CALLED,
    CONFIRMED,
    CORRECTED,
    DELETED,
    DEVICE,
    DIRECTOR,
    DISPUTED,
    LOCKED,
    ORGANISER,
    PLAYER,
    RECORDED,
    REMOVED,
    SIGNED,
    UNDONE,
    UNLOCKED,
    WAITING,
    Entry,
    HandMark,
)


@dataclass(frozen=True)
class Waiting:
    """A hand the other side has not confirmed: who may (their side's name, and the
    names to tap), and who disputed it, if someone did."""

    number: int
    side_words: str
    names: tuple[str, ...]
    disputed_by: str | None


@dataclass(frozen=True)
class TrailView:
    confirm_hands: bool
    marks: Mapping[int, HandMark]
    waiting: tuple[Waiting, ...]
    #: Signatures given for the result as it stands: side → player.
    signed_by: Mapping[str, str]
    #: The sides still to sign (the game is finished and not locked).
    to_sign: tuple[tuple[str, tuple[str, ...]], ...]
    signed_at: Any
    whole: bool
    broken: int | None
    #: The game and its entries, for the words below: worked out when a page asks (the
    #: hand's page, the printed sheet), not for every game page, which shows none.
    game: rules.Game
    chain: tuple[Entry, ...]

    @cached_property
    def footnotes(self) -> tuple[tuple[int | None, str], ...]:
        """The changes after a hand was first saved, in words, for the sheet's footnotes:
        (hand number or None, words)."""
        return tuple((e.hand, entry_words(self.game, e)) for e in self.chain if e.kind in FOOTNOTED)

    @cached_property
    def said(self) -> Mapping[int, tuple[str, ...]]:
        """Every entry of each hand in words, oldest first, for the hand's page."""
        said: dict[int, list[str]] = {}
        for entry in self.chain:
            if entry.hand is not None:
                said.setdefault(entry.hand, []).append(entry_words(self.game, entry))
        return {n: tuple(words) for n, words in said.items()}

    def mark(self, number: int) -> str | None:
        """ "waiting", "disputed", "confirmed" or None (no mark asked)."""
        found = self.marks.get(number)
        if found is None:
            return None
        if not self.confirm_hands and found.state == WAITING:
            return None
        return found.state

    def sheet_mark(self, number: int) -> str | None:
        """The mark the score sheet shows: ``mark``, but "confirmed" only in a game that asks
        for confirmation (elsewhere a tick on every hand would say nothing)."""
        found = self.mark(number)
        return None if found == CONFIRMED and not self.confirm_hands else found

    def corrected(self, number: int) -> bool:
        found = self.marks.get(number)
        return found is not None and found.corrected

    def footnote_of(self, number: int) -> int | None:
        """The footnote number of a hand's first change, if it has one."""
        for place, (hand, _) in enumerate(self.footnotes, start=1):
            if hand == number:
                return place
        return None


def who_words(who: str) -> str:
    if who == ORGANISER:
        return gettext("the organiser")
    if who == DIRECTOR:
        return gettext("the director")
    if who.startswith(PLAYER):
        return isolated(who[len(PLAYER) :])
    if who.startswith(DEVICE):
        return isolated(who[len(DEVICE) :])
    return gettext("a phone")


def side_words(game: rules.Game, names: Sequence[str]) -> str:
    """Who a hand waits for: a team's name when one team holds them all, else the names."""
    sides = {game.side_of(n) for n in names}
    if game.teams is not None and len(sides) == 1:
        return next(iter(sides))
    return gettext(" or ").join(names)


def _taker(name: Any) -> str:
    return isolated(str(name)) if name else gettext("nobody")


def hand_changes(game: rules.Game, before: Any, after: Any) -> list[str]:
    """What a correction changed in a hand, in words: "Jack Ana → Bogdan", "bid 2 → 3" (a
    point by team in partnership play: "Game East-West → North-South")."""
    before, after = before or {}, after or {}

    def taker(name: Any) -> Any:
        if game.teams is not None and isinstance(name, str) and name in game.players:
            return game.side_of(name)
        return name

    said: list[str] = []
    if bool(before.get("passed")) != bool(after.get("passed")):
        said.append(
            gettext("passed out → played")
            if before.get("passed")
            else gettext("played → passed out")
        )
    for key, words in (
        ("dealer", gettext("dealer")),
        ("pitcher", gettext("pitcher")),
        ("bid", gettext("bid")),
        ("sale", gettext("sale")),
        ("high_bidder", gettext("high bidder")),
    ):
        if before.get(key) != after.get(key):
            said.append(f"{words} {_taker(before.get(key))} → {_taker(after.get(key))}")
    old, new = before.get("points") or {}, after.get("points") or {}
    for point in game.variant.points:
        was, now = taker(old.get(point.key)), taker(new.get(point.key))
        if was != now:
            said.append(f"{gettext(point.name)} {_taker(was)} → {_taker(now)}")
    if before.get("game_count") != after.get("game_count"):
        said.append(gettext("the count for Game changed"))
    if before.get("note") != after.get("note"):
        said.append(gettext("the note changed"))
    return said


def _paid(settlement: Any) -> dict[str, tuple[Decimal | None, int]]:
    """What each player pays in all, by a settlement as the record writes it."""
    paid: dict[str, tuple[Decimal | None, int]] = {}
    for payment in (settlement or {}).get("payments", ()):
        amount, units = paid.get(payment["from"], (None, 0))
        if "amount" in payment:
            amount = (amount or Decimal(0)) + Decimal(payment["amount"])
        paid[payment["from"]] = (amount, units + int(payment["units"]))
    return paid


def _pays(name: str, paid: tuple[Decimal | None, int]) -> str:
    if paid[0] is not None:
        return gettext("%(name)s pays %(amount)s", name=isolated(name), amount=money(paid[0]))
    return ngettext(
        "%(name)s pays %(num)s unit", "%(name)s pays %(num)s units", paid[1], name=isolated(name)
    )


def settlement_changes(detail: Any) -> str | None:
    """Who pays otherwise after a change, in words: "the settlement changed: Cristi pays
    0.50, not 0.25"; "the game is now won: ..."; "the game is no longer won"."""
    moved = (detail or {}).get("settlement") if isinstance(detail, dict) else None
    if not moved:
        return None
    before, after = moved.get("before"), moved.get("after")
    old, new = _paid(before), _paid(after)
    if before is None:
        payers = "; ".join(_pays(name, paid) for name, paid in new.items())
        return gettext("the game is now won: %(payments)s", payments=payers)
    if after is None:
        return gettext("the game is no longer won")
    said = []
    for name in sorted(set(old) | set(new), key=lambda n: (n not in new, n)):
        was, now = old.get(name, (None, 0)), new.get(name, (None, 0))
        if was == now:
            continue
        if was[0] is not None or now[0] is not None:
            said.append(
                gettext(
                    "%(name)s pays %(now)s, not %(was)s",
                    name=isolated(name),
                    now=money(now[0] or Decimal(0)),
                    was=money(was[0] or Decimal(0)),
                )
            )
        else:
            said.append(
                gettext(
                    "%(name)s pays %(now)s units, not %(was)s",
                    name=isolated(name),
                    now=now[1],
                    was=was[1],
                )
            )
    if not said:
        said.append(gettext("the game's result changed"))
    return gettext("the settlement changed: %(changes)s", changes="; ".join(said))


def entry_words(game: rules.Game, entry: Entry) -> str:
    """One entry of the trail, in words."""
    at, who = clock(entry.at), who_words(entry.who)
    device = (entry.detail or {}).get("device") if isinstance(entry.detail, dict) else None
    signed = isinstance(entry.detail, dict) and entry.detail.get("signed")
    kind = entry.kind
    if kind == RECORDED:
        said = gettext("recorded at %(at)s by %(who)s", at=at, who=who)
    elif kind == CORRECTED:
        said = gettext("corrected at %(at)s by %(who)s", at=at, who=who)
        changes = hand_changes(game, entry.before, entry.after)
        if changes:
            said += ": " + "; ".join(changes)
    elif kind == UNDONE:
        said = gettext("undone at %(at)s by %(who)s", at=at, who=who)
    elif kind == REMOVED:
        said = gettext(
            "removed at %(at)s by %(who)s: a correction moved the win before it", at=at, who=who
        )
    elif kind == DELETED:
        said = gettext("the game was deleted at %(at)s by %(who)s", at=at, who=who)
    elif kind == CONFIRMED:
        said = gettext("confirmed at %(at)s by %(who)s", at=at, who=who)
    elif kind == DISPUTED:
        said = gettext("disputed at %(at)s by %(who)s", at=at, who=who)
    elif kind == SIGNED:
        side = entry.detail.get("side") if isinstance(entry.detail, dict) else ""
        said = gettext(
            "signed at %(at)s by %(who)s for %(side)s", at=at, who=who, side=isolated(str(side))
        )
    elif kind == LOCKED:
        said = gettext("locked at %(at)s: every side signed", at=at)
    elif kind == UNLOCKED:
        said = gettext("unlocked at %(at)s by %(who)s", at=at, who=who)
    elif kind == CALLED:
        after = entry.detail.get("after") if isinstance(entry.detail, dict) else None
        said = gettext(
            "time called at %(at)s by %(who)s: the game ends after hand %(number)s",
            at=at,
            who=who,
            number=after,
        )
    else:
        said = f"{kind} {at} {who}"
    if device and not entry.who.startswith(DEVICE):
        said += " " + gettext("(on %(device)s)", device=isolated(str(device)))
    moved = settlement_changes(entry.detail) if kind != RECORDED else None
    if moved:
        said += "; " + moved
    if signed:
        said += " " + gettext("(after the game was signed)")
    return said


#: The kinds a printed sheet lists as footnotes: what changed after a hand was first saved.
FOOTNOTED = {CORRECTED, UNDONE, REMOVED, DISPUTED, SIGNED, LOCKED, UNLOCKED, CALLED}


def trail_view(loaded: Loaded) -> TrailView:
    """Read a game's trail and say it."""
    row, game = loaded.row, loaded.game
    chain, checked = operations.trail_check.checked_entries(row)
    marks = operations.trail.marks(chain, len(loaded.hands))
    waiting = []
    if row.confirm_hands:
        for number in range(1, len(loaded.hands) + 1):
            mark = marks.get(number)
            if mark is None or mark.state == CONFIRMED:
                continue
            names = operations.trail.confirmers(game, loaded.hands[number - 1])
            waiting.append(
                Waiting(
                    number,
                    side_words(game, names),
                    names,
                    mark.by if mark.state == DISPUTED else None,
                )
            )
    signatures = operations.trail_signing.signatures(chain, row)
    to_sign: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if loaded.result.finished and row.signed_at is None:
        to_sign = tuple((side, game.members(side)) for side in signatures.missing(game.sides))
    return TrailView(
        confirm_hands=row.confirm_hands,
        marks=marks,
        waiting=tuple(waiting),
        signed_by=dict(signatures.by_side),
        to_sign=to_sign,
        signed_at=row.signed_at,
        whole=checked is None,
        broken=checked,
        game=game,
        chain=tuple(chain),
    )
