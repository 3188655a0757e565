"""What the table recorded: a game's setup and its hands, as plain frozen values.

A ``Game`` is checked when it is built (``Game.create``): seats, partnerships,
first dealer and house rules (RULES.md sections 4, 5 and 9). Hands are checked
when they are scored, because what is allowed depends on the scores so far.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from functools import cached_property
from typing import Any

from .errors import N_, Phrase, RuleError, quote
from .variants import VARIANTS, HouseRules, SmudgeFailed, Variant, find_variant

NAME_MAX = 40
NOTE_MAX = 500
#: The most hands one game may have. A real game is under a hundred; every page, sheet
#: and replay of a game costs time in proportion to its hands (8,000 took 87 s a sheet).
HANDS_MAX = 500
#: A stake as GAME-RECORD.md writes it: a decimal ≥ 0 such as "0.25".
STAKE_PATTERN = re.compile(r"[0-9]+(\.[0-9]+)?")
#: The contract of a pitched Sell-Out hand: the seller plays 4 (RULES.md section 7).
PITCHED_BID = 4


def in_the_hole(score: int) -> bool:
    """A score below zero is "in the hole" (RULES.md section 3): paper rings it."""
    return score < 0


#: Unicode's Default_Ignorable_Code_Point characters (DerivedCoreProperties.txt), which
#: draw nothing: zero-width spaces and joiners, direction marks, variation selectors, tags.
#: The standard library's unicodedata does not carry the property, so it is listed here.
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """What every spelling of one name shares, so that one person is one player: "Ana",
    "ana ", "ANA" in fullwidth letters, "Ana" with a zero-width space in it, and "Ána" with
    its accent combined or precomposed are all one name.

    Unicode's caseless identifier match (NFKC_Casefold): compatibility forms folded (NFKC),
    case folded, characters that draw nothing (default-ignorable) left out; and runs of
    spaces read as one, the edges trimmed. The name itself keeps its spelling."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return _SPACES.sub(" ", _IGNORABLE.sub("", folded)).strip()


class Sale(StrEnum):
    """How a Sell-Out hand's contract came about (RULES.md section 7)."""

    PITCHED = "pitched"
    SOLD = "sold"
    KEPT = "kept"


#: How the hand form offers each sale (N_: translated where shown).
SALE_CHOICES: dict[Sale, str] = {
    Sale.PITCHED: N_("Pitched (seller plays 4)"),
    Sale.SOLD: N_("Sold (seller scores the bid)"),
    Sale.KEPT: N_("Kept (high bidder scores the bid)"),
}

#: How a rules card says each way a Sell-Out hand comes about (RULES.md section 7), in order.
SALE_SENTENCES: dict[Sale, str] = {
    Sale.PITCHED: N_(
        "The player at the dealer's left is the seller, and may pitch at once for %(bid)s, "
        "without an auction."
    ),
    Sale.SOLD: N_(
        "Or the others bid, and the seller sells to the highest bidder, who pitches at that "
        "bid: the seller scores the bid."
    ),
    Sale.KEPT: N_(
        "Or the seller keeps the contract at the highest bid: the highest bidder scores the bid."
    ),
}
#: How a rules card says the two limits on a sold or kept hand (RULES.md section 7).
SALE_LIMITS_SENTENCE = N_(
    "No bid may bring the seller to %(target)s, and the seller must sell if keeping would "
    "bring the highest bidder to %(target)s."
)


@dataclass(frozen=True)
class Hand:
    """One hand as recorded at the table.

    A passed-out hand has ``passed=True`` and nothing else but an optional note and
    dealer. ``points`` maps every point key of the variant to the player who took it,
    or to None for nobody. ``dealer`` is who really dealt it, when someone dealt out of
    turn (GAME-RECORD.md); None means the usual dealer.
    """

    pitcher: str | None = None
    bid: int | None = None
    points: Mapping[str, str | None] = field(default_factory=dict)
    passed: bool = False
    sale: Sale | None = None
    high_bidder: str | None = None
    note: str | None = None
    #: Each seated player's count toward Game (RULES.md section 10), if the table counted.
    game_count: Mapping[str, int] | None = None
    #: Who dealt the hand, if not the usual dealer (GAME-RECORD.md): the rotation, Sell-Out's
    #: seller and a dealer-set pass follow this dealer. None: the usual dealer dealt.
    dealer: str | None = None

    @classmethod
    def passed_out(cls, note: str | None = None, dealer: str | None = None) -> Hand:
        return cls(passed=True, note=note, dealer=dealer)

    def dealt_by(self, dealer: str | None, usual: str | None) -> Hand:
        """This hand as dealt by ``dealer``, when the hand's form names who dealt and
        ``usual`` is who was due to (``GameResult.next_dealer`` for a new hand,
        ``HandResult.usual_dealer`` for one recorded): the dealer is kept only when it
        is not the usual one, so a hand dealt in turn stays as the record writes it."""
        dealt = None if dealer == usual else dealer
        return self if dealt == self.dealer else replace(self, dealer=dealt)


def check_name(name: str, field_name: str) -> None:
    """Check a player's or team's name: 1-40 characters, something that shows (not only
    zero-width characters), no edge spaces, no control characters."""
    if not name or not name_key(name):
        raise RuleError("name-empty", field=field_name)
    if len(name) > NAME_MAX:
        raise RuleError(
            "name-too-long",
            field=field_name,
            name=quote(name[:NAME_MAX] + "…"),
            length=len(name),
            max=NAME_MAX,
        )
    if name != name.strip():
        raise RuleError("name-spaces", field=field_name, name=quote(name))
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        raise RuleError("name-control", field=field_name, name=quote(name))
    if any(unicodedata.category(ch) == "Cs" for ch in name):
        # A lone surrogate (JSON "\ud800") is not text: it cannot be printed or stored.
        raise RuleError("name-surrogate", field=field_name, name=quote(name))


def check_hand_count(count: int) -> None:
    """Refuse a game of more than ``HANDS_MAX`` hands (recorded or imported)."""
    if count > HANDS_MAX:
        raise RuleError("too-many-hands", field="hands", max=HANDS_MAX, count=count)


def check_note(note: str, hand: int | None = None) -> None:
    """Check a note: at most 500 characters, no control characters but line breaks and tabs."""
    if len(note) > NOTE_MAX:
        raise RuleError("note-too-long", hand=hand, field="note", length=len(note), max=NOTE_MAX)
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\n\r\t" for ch in note):
        raise RuleError("note-control", hand=hand, field="note")


def check_called(called: object) -> None:
    """Check ``called`` (RULES.md 11.4): a whole number of played hands, at least 1."""
    if isinstance(called, bool) or not isinstance(called, int) or called < 1:
        raise RuleError("called-range", field="called", value=quote(called))


@dataclass(frozen=True)
class Game:
    """A game's setup: variant, house rules, seats in clockwise order, teams, dealer, stake;
    and ``called``, when a tournament director has called time on it.

    Build it with ``Game.create``, which checks the setup. ``variant`` is the variant
    as this game plays it (its preset shaped by the house rules; ``variant.preset``
    is still the preset's). ``house_rules_given`` keeps exactly the switches the
    table set, so a record exports as it came in.
    """

    variant: Variant
    players: tuple[str, ...]
    house_rules: HouseRules
    house_rules_given: Mapping[str, Any] = field(default_factory=dict)
    teams: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    first_dealer: str | None = None
    stake: str | None = None
    #: The number of played hands after which time was called (RULES.md 11.4), or None.
    #: Not a house rule: it is set during the game (``call_time``), never at the table's
    #: setup, and it belongs to the game so that every replay of it ends alike.
    called: int | None = None

    @classmethod
    def create(
        cls,
        variant: str | Variant,
        players: Sequence[str],
        *,
        house_rules: Mapping[str, Any] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        first_dealer: str | None = None,
        stake: str | Decimal | None = None,
        called: int | None = None,
    ) -> Game:
        """Check a setup against RULES.md sections 4, 5, 9 and 11 and return the game
        (``called``: time called after that many played hands, as ``call_time``)."""
        if isinstance(variant, str):
            try:
                variant = find_variant(variant)
            except ValueError:
                raise RuleError(
                    "unknown-variant",
                    field="variant",
                    actual=quote(variant),
                    allowed=", ".join(VARIANTS),
                ) from None
        players = tuple(players)
        seen: set[str] = set()
        spelled: dict[str, str] = {}
        for name in players:
            check_name(name, "players")
            first = spelled.get(name_key(name))
            if first is not None:
                _refuse_seated_twice(name, first)
            spelled[name_key(name)] = name
            seen.add(name)
        count = len(players)
        if variant.teams_required and count not in (4, 6):
            raise RuleError("seat-count-cinch", field="players", variant=variant.name, count=count)
        if not variant.min_seats <= count <= variant.max_seats:
            raise RuleError(
                "seat-count",
                field="players",
                variant=variant.name,
                min=variant.min_seats,
                max=variant.max_seats,
                count=count,
            )
        variant = variant.base or variant
        rules = variant.house_rules(dict(house_rules or {}))
        frozen_teams = None
        if teams is not None:
            frozen_teams = _check_teams(variant, players, teams)
        elif variant.teams_required:
            raise RuleError("teams-required", field="teams", variant=variant.name)
        side_count = count if frozen_teams is None else len(frozen_teams)
        if rules.smudge_failed is SmudgeFailed.LOSES and side_count != 2:
            raise RuleError(
                "switch-smudge-failed-sides", field="house_rules.smudge_failed", count=side_count
            )
        if first_dealer is not None and first_dealer not in seen:
            raise RuleError("unknown-dealer", field="first_dealer", name=quote(first_dealer))
        if isinstance(stake, Decimal):
            stake = format(stake, "f")
        if stake is not None and not STAKE_PATTERN.fullmatch(stake):
            raise RuleError("bad-stake", field="stake", actual=quote(stake))
        if called is not None:
            check_called(called)
        return cls(
            variant=variant.shaped(rules),
            players=players,
            house_rules=rules,
            house_rules_given=dict(house_rules or {}),
            teams=frozen_teams,
            first_dealer=first_dealer,
            stake=stake,
            called=called,
        )

    def call_time(self, after: int | None) -> Game:
        """The game with time called after ``after`` played hands (RULES.md 11.4), as a
        tournament director calls it; None takes the call back. The game then ends after
        that hand, or the first one after it with one side alone at the top, unless a
        side wins before by the rules of sections 3 to 7."""
        if after is not None:
            check_called(after)
        return replace(self, called=after)

    @property
    def hand_limit(self) -> int | None:
        """The number of played hands after which the game ends unless a side has won
        (RULES.md 11.4): the smaller of the ``hands`` switch and ``called``; None for a
        game that only its target ends."""
        limits = [n for n in (self.house_rules.hands, self.called) if n is not None]
        return min(limits) if limits else None

    @property
    def limit_is_called(self) -> bool:
        """Whether the hand limit in force is time called (``called``), not ``hands``."""
        hands = self.house_rules.hands
        return self.called is not None and (hands is None or self.called < hands)

    @cached_property
    def seated(self) -> frozenset[str]:
        return frozenset(self.players)

    @cached_property
    def side_map(self) -> dict[str, str]:
        """Map each seated player to the side it scores for."""
        return {player: self.side_of(player) for player in self.players}

    @property
    def dealer_first(self) -> str:
        """Who deals hand 1: the named first dealer, else the first seat."""
        return self.first_dealer if self.first_dealer is not None else self.players[0]

    @property
    def stake_amount(self) -> Decimal:
        return Decimal(self.stake) if self.stake is not None else Decimal(0)

    @property
    def sides(self) -> tuple[str, ...]:
        """Name the sides: teams ordered by each team's first seat, else players in seat order."""
        if self.teams is None:
            return self.players
        cached: tuple[str, ...] | None = self.__dict__.get("_sides_order")
        if cached is None:
            seat = {p: i for i, p in enumerate(self.players)}
            ordered = sorted(self.teams, key=lambda team: min(seat[p] for p in team[1]))
            cached = tuple(name for name, _ in ordered)
            object.__setattr__(self, "_sides_order", cached)
        return cached

    def side_of(self, player: str) -> str:
        """Return the side a seated player scores for."""
        if self.teams is None:
            return player
        return self._side_by_player[player]

    def members(self, side: str) -> tuple[str, ...]:
        """Return the players of a side, in seat order."""
        if self.teams is None:
            return (side,)
        return tuple(p for p in self.players if self._side_by_player[p] == side)

    @property
    def _side_by_player(self) -> dict[str, str]:
        # Cached on the frozen instance: side lookups sit on the scoring hot path.
        cached: dict[str, str] | None = self.__dict__.get("_sides_cache")
        if cached is None:
            cached = {p: team for team, members in self.teams or () for p in members}
            object.__setattr__(self, "_sides_cache", cached)
        return cached

    def point_taker(self, side: str, pitcher: str | None) -> str:
        """Name the player credited with a point ``side`` took, when the table named only the
        side (the hand form's team buttons in partnership play).

        RULES.md section 1 credits each point to a player, and so to that player's side; only
        the side scores, so any member would do. The record names one consistently: the
        pitcher, if the pitcher plays for ``side``, else the side's first player in seat
        order. In individual play the side is the player.
        """
        members = self.members(side)
        if not members or (self.teams is None and side not in self.seated):
            raise ValueError(f"unknown side: {side!r}")
        return pitcher if pitcher in members else members[0]

    def left_of(self, player: str) -> str:
        """Return the player in the next seat clockwise."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def seller_for(self, dealer: str | None) -> str | None:
        """Sell-Out: who sells, keeps or pitches a hand ``dealer`` deals, the player at the
        dealer's left (RULES.md section 7); None in the other variants (or with no dealer)."""
        if dealer is None or not self.variant.sales:
            return None
        return self.left_of(dealer)

    def filled_in(self, hand: Hand, dealer: str | None) -> Hand:
        """Fill in what a Sell-Out hand's sale settles, as the table leaves it untapped: a kept
        or pitched hand is pitched by the seller, and a pitched hand is a contract of 4."""
        if hand.passed or hand.sale not in (Sale.KEPT, Sale.PITCHED):
            return hand
        pitcher = hand.pitcher if hand.pitcher is not None else self.seller_for(dealer)
        bid = hand.bid
        if bid is None and hand.sale is Sale.PITCHED:
            bid = PITCHED_BID
        if (pitcher, bid) == (hand.pitcher, hand.bid):
            return hand
        return replace(hand, pitcher=pitcher, bid=bid)

    @classmethod
    def from_seats(
        cls,
        variant: str | Variant,
        seats: Sequence[tuple[str, str]],
        *,
        dealer_seat: int = 0,
        same: Callable[[str], str] = str,
        house_rules: Mapping[str, Any] | None = None,
        stake: str | Decimal | None = None,
    ) -> Game:
        """Build a game from the seats as a setup form gives them: ``(name, team)`` in
        clockwise order, empty seats and blank teams included, and the seat that deals first.

        An empty seat is skipped; two names that ``same`` makes equal ("Ana", "ana") are one
        player seated twice, and two such team names one team, named as first typed. Teams are
        all blank (no partnerships) or all given. Then ``create`` checks the rest."""
        seen: dict[str, str] = {}
        team_spelled: dict[str, str] = {}
        names: list[str] = []
        teams: dict[str, list[str]] = {}
        first_dealer: str | None = None
        for i, (name, team) in enumerate(seats):
            if not name:
                if i == dealer_seat:
                    raise RuleError(
                        "unknown-dealer",
                        field="first_dealer",
                        name=Phrase(N_("seat {number} (empty)"), number=i + 1),
                    )
                continue
            if same(name) in seen:
                _refuse_seated_twice(name, seen[same(name)])
            seen[same(name)] = name
            team = team_spelled.setdefault(same(team), team)
            names.append(name)
            if i == dealer_seat:
                first_dealer = name
            teams.setdefault(team, []).append(name)
        given = any(teams)  # a team typed for any seat
        if given and "" in teams:
            missing = ", ".join(teams[""])
            raise RuleError("team-player-missing", field="teams", name=missing)
        return cls.create(
            variant,
            names,
            house_rules=house_rules,
            teams=teams if given else None,
            first_dealer=first_dealer,
            stake=stake,
        )


def _refuse_seated_twice(name: str, first: str) -> None:
    """Refuse a player seated a second time: by the same name, or by another spelling of the
    first one's name ("ana", or "Ana" with a zero-width space: see ``name_key``)."""
    if name == first:
        raise RuleError("duplicate-player", field="players", name=quote(name))
    raise RuleError("look-alike-player", field="players", name=quote(name), first=quote(first))


def _check_teams(
    variant: Variant, players: tuple[str, ...], teams: Mapping[str, Sequence[str]]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Check a partnership (RULES.md section 5); keep the teams as the table named them."""
    count = len(players)
    seat = {p: i for i, p in enumerate(players)}
    placed: set[str] = set()
    for team, members in teams.items():
        check_name(team, "teams")
        for name in members:
            if name not in seat:
                raise RuleError(
                    "team-unknown-player", field="teams", name=quote(name), team=quote(team)
                )
            if name in placed:
                raise RuleError("team-player-twice", field="teams", name=quote(name))
            placed.add(name)
    for name in players:
        if name not in placed:
            raise RuleError("team-player-missing", field="teams", name=quote(name))
    if count not in (4, 6):
        raise RuleError("teams-seat-count", field="teams", count=count)
    sizes = sorted(len(m) for m in teams.values())
    if len(sizes) < 2 or len(set(sizes)) != 1 or sizes[0] < 2:
        raise RuleError(
            "teams-shape", field="teams", count=count, sizes=" + ".join(map(str, sizes))
        )
    if variant.teams_required and len(teams) != 2:
        raise RuleError("teams-cinch-two", field="teams", variant=variant.name, teams=len(teams))
    return tuple((team, tuple(members)) for team, members in teams.items())
