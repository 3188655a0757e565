"""The engine's one error type: a broken rule, with a stable code and its parameters.

The English text is built from a template per code, so a translation can map the
same code and parameters to another language without parsing English.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for the message catalogue; the app translates it where it shows it."""
    return message


class Phrase(str):
    """Words of the engine's own put in a message's parameter (``a list of names for team
    "South"``, ``Jack taker``): the English text, with the ``template`` (marked with N_) and
    the ``params`` it was filled from, so a translation says it by template and parameters
    rather than by reading the English. A parameter that is itself a Phrase is translated too.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Phrase:
        phrase = super().__new__(cls, template.format(**params) if params else template)
        phrase.template = template
        phrase.params = params
        return phrase


#: Message templates, by stable error code. Parameters are filled in with str.format.
#: N_ marks them for the catalogue (scorekeeper/translations): the web app and the command
#: line translate the template by its English text, then fill in the same parameters.
MESSAGES: Mapping[str, str] = {
    # The record's shape (GAME-RECORD.md).
    "not-an-object": N_("must be a JSON object"),
    "invalid-json": N_("is not valid JSON: {detail}"),
    "unknown-key": N_('unknown key "{key}"'),
    "duplicate-key": N_('duplicate key "{key}"'),
    "missing-key": N_('required key "{key}" is missing'),
    "wrong-type": N_("must be {expected}, not {actual}"),
    "bad-format": N_('must be "{expected}", not {actual}'),
    "unknown-variant": N_("unknown variant {actual}; the variants are {allowed}"),
    "name-empty": N_("a name cannot be empty"),
    "name-too-long": N_("{name} is {length} characters long; a name has at most {max}"),
    "name-spaces": N_("{name} has leading or trailing spaces"),
    "name-control": N_("{name} contains a control character"),
    "name-surrogate": N_("{name} contains a lone surrogate, which is not a character"),
    "duplicate-player": N_("{name} is seated twice; names must be unique"),
    "look-alike-player": N_(
        "{name} is {first} written another way (case, width or an invisible character), and "
        "one person cannot sit twice; give another name"
    ),
    "note-too-long": N_("the note is {length} characters long; at most {max} are allowed"),
    "note-control": N_(
        "the note contains a control character (only line breaks and tabs may be used)"
    ),
    "bad-stake": N_('{actual} is not a stake; write a decimal such as "0.25"'),
    "stake-too-long": N_("{actual} is too long for a stake: at most {max} characters"),
    "number-too-large": N_("the number is too large; it can be at most {max}"),
    "too-many-hands": N_("a game has at most {max} hands, not {count}"),
    "passed-false": N_('"passed": false is not allowed; leave the key out for a played hand'),
    "passed-extra": N_('a passed-out hand has only "passed" (and a note or a dealer), not "{key}"'),
    # Seats and partnerships (RULES.md sections 4, 5).
    "seat-count": N_("{variant} seats {min} to {max} players, not {count}"),
    "seat-count-cinch": N_(
        "{variant} is played by 4 players (2 teams of 2) or 6 (2 teams of 3), not {count}"
    ),
    "teams-required": N_("{variant} is played in partnerships: name the teams"),
    "teams-seat-count": N_("partnerships need 4 or 6 players, not {count}"),
    "teams-shape": N_(
        "the teams must split the {count} players into equal teams of 2 or more "
        "(2 teams of 2, 2 of 3 or 3 of 2); got {sizes}"
    ),
    "teams-cinch-two": N_("{variant} is played by exactly 2 teams, not {teams}"),
    "team-unknown-player": N_("{name} is in team {team} but is not seated in the game"),
    "team-player-twice": N_("{name} is in more than one team"),
    "team-player-missing": N_("{name} is not in any team"),
    "unknown-dealer": N_("{name} is not seated in the game"),
    # House rules (RULES.md section 5).
    "unknown-switch": N_('unknown house rule "{switch}"; the house rules are {allowed}'),
    "switch-value": N_("{value} is not allowed for {switch}; allowed: {allowed}"),
    "switch-range": N_("{switch} must be a whole number of at least {min}, not {value}"),
    "switch-no-smudge": N_("{variant} has no smudge bid, so the smudge rule cannot be set"),
    # The shape of the game (RULES.md section 10).
    "switch-not-for-variant": N_(
        "{switch} cannot be changed in {variant}, whose scoring is its own"
    ),
    "switch-bid": N_("{switch} must be a whole number or null, not {value}"),
    "switch-points-list": N_("points must be a list of point names, not {value}"),
    "switch-points-unknown": N_(
        "{point} is not a point a table can play; the points are {allowed}"
    ),
    "switch-points-twice": N_("{point} is listed twice in points"),
    "switch-points-needs": N_("points must include {point}: every hand has one"),
    "switch-points-clash": N_("points cannot have both {one} and {other}"),
    "switch-points-ten-game": N_(
        "points cannot have both ten and game in {variant}: its Game is the ten of trumps"
    ),
    "switch-max-bid-total": N_(
        "max_bid {max_bid} is above {total}, the total value of the points in play"
    ),
    "switch-min-above-max": N_(
        "the lowest bid {min_bid} is above the highest bid {max_bid}; set min_bid or max_bid"
    ),
    "switch-smudge-bid-range": N_(
        "smudge_bid {bid} must be from min_bid {min_bid} to max_bid {max_bid}, or null"
    ),
    "switch-smudge-failed": N_(
        'smudge_failed = "loses" needs a smudge bid and a smudge rule other than "off"'
    ),
    "switch-smudge-failed-sides": N_('smudge_failed = "loses" needs exactly 2 sides, not {count}'),
    # RULES.md section 11.
    "switch-dealer-set": N_(
        'all_pass = "dealer-set" cannot be played in {variant}, whose scoring is its own'
    ),
    "switch-hands": N_("hands must be null or a whole number from 1 to {max}, not {value}"),
    "switch-target-null": N_(
        "target can be null only with hands set: a game ends at a target or after its hands"
    ),
    "switch-no-target-smudge": N_(
        'without a target no smudge wins, so smudge can only be "off", not {value}'
    ),
    "switch-no-target-smudge-failed": N_(
        "without a target no failed smudge loses the game, "
        'so smudge_failed can only be "set-back", not {value}'
    ),
    "called-range": N_(
        "time is called after a number of played hands, a whole number of at least 1, not {value}"
    ),
    # A hand (RULES.md sections 2, 3, 6, 7, 9).
    "unknown-player": N_("{role} {name} is not seated in the game"),
    "bid-below-min": N_("bid {bid} is below the minimum of {min} for {variant}"),
    "bid-above-max": N_("bid {bid} is above the maximum of {max} for {variant}"),
    "bid-zero": N_("a contract of 0 is only allowed in Cinch"),
    "bid-zero-pitcher": N_(
        "a bid of 0 (naming trump after all passed) is made by the dealer "
        "{dealer} or the dealer's partner, not {pitcher}"
    ),
    "point-missing": N_(
        'the "{point}" point is missing; every point of {variant} must be '
        "given (a name, or null for nobody where allowed)"
    ),
    "point-unknown": N_('{variant} has no "{point}" point; its points are {allowed}'),
    "point-nobody": N_("{point_name} cannot be credited to nobody: someone always takes it"),
    "passed-not-allowed": N_(
        "the hand cannot be passed out: with the house rule all_pass = "
        "dealer-takes the dealer must take the bid at {min}"
    ),
    "sale-missing": N_('a played Sell-Out hand needs "sale": "pitched", "sold" or "kept"'),
    "sale-not-allowed": N_('only Sell-Out hands have a "{key}"'),
    "sale-value": N_('"sale" must be "pitched", "sold" or "kept", not {value}'),
    "high-bidder-missing": N_('a kept hand names its "high_bidder"'),
    "high-bidder-not-allowed": N_('"high_bidder" appears only on kept hands'),
    "pitched-bid": N_("a pitched hand is a contract of 4, not {bid}"),
    "pitched-pitcher": N_("in a pitched hand the seller {seller} pitches, not {pitcher}"),
    "kept-pitcher": N_("in a kept hand the seller {seller} pitches, not {pitcher}"),
    "sold-to-seller": N_("in a sold hand the buyer cannot be the seller {seller}"),
    "high-bidder-seller": N_("the high bidder cannot be the seller {seller}"),
    "sale-gives-game": N_(
        "a bid of {bid} would give the seller {seller} game by itself "
        "({score} + {bid} reaches {target})"
    ),
    "kept-gives-game": N_(
        "{seller} must sell: keeping would give the high bidder {high_bidder} "
        "game ({score} + {bid} reaches {target})"
    ),
    "game-count-not-allowed": N_(
        "{variant} does not count Game here (Game is not in play, or it is the ten of "
        'trumps), so a hand has no "game_count"'
    ),
    "game-count-missing": N_(
        'the game count of {name} is missing; "game_count" lists every player'
    ),
    "game-count-unknown": N_("game_count names {name}, who is not seated in the game"),
    "game-count-value": N_(
        "the game count of {name} must be a whole number of at least 0, not {value}"
    ),
    "game-count-total": N_("the game counts add up to {total}; a pack holds only {max}"),
    "game-count-disagrees": N_(
        "game is credited to {taker}, but {leader} counted {high} to {other}'s {low}"
    ),
    "game-count-tied": N_(
        "game is credited to {taker}, but the highest count, {count}, is shared, "
        "so Game goes to nobody"
    ),
    "game-count-nobody": N_(
        "game is credited to nobody, but {leader} counted {high} to {other}'s {low}"
    ),
    "hand-after-win": N_(
        "the game was already won by {winner} at hand {winning_hand}; "
        "no hand can be recorded after that"
    ),
}


#: Codes whose message does not name the field, so a hand's place names it.
_FIELD_NOT_IN_DETAIL = frozenset({"wrong-type", "number-too-large"})


#: Line breaks and other control characters (Cc), line and paragraph separators (Zl, Zp)
#: and lone surrogates (Cs), which cannot even be encoded.
_NOT_ON_ONE_LINE = frozenset({"Cc", "Cs", "Zl", "Zp"})


def one_line(text: str) -> str:
    """Escape the characters that would break a message's line, as Python writes them (``\\n``)."""
    if text.isprintable():
        return text
    return "".join(
        repr(ch)[1:-1] if unicodedata.category(ch) in _NOT_ON_ONE_LINE else ch for ch in text
    )


class RuleError(ValueError):
    """A record or hand that breaks a rule; str(error) is one line naming the place.

    ``code`` and ``params`` are stable, for translation; ``hand`` is the 1-based
    hand number when the error is in a hand, and ``field`` names the field
    (``"bid"``, ``"points.jack"``, ``"house_rules.target"``, ``"players"``...).
    """

    def __init__(
        self,
        code: str,
        *,
        hand: int | None = None,
        field: str | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.hand = hand
        self.field = field
        self.params: dict[str, Any] = params
        super().__init__(self.message)

    @property
    def detail(self) -> str:
        """Say what is wrong, without the place."""
        return MESSAGES[self.code].format(**self.params)

    @property
    def place(self) -> str:
        """Name where the error is: ``hand 3``, ``hand 3: points.jack`` or ``players``."""
        if self.hand is not None:
            # Most hand messages say which field they mean; a wrong type does not.
            if self.code in _FIELD_NOT_IN_DETAIL and self.field is not None:
                return f"hand {self.hand}: {self.field}"
            return f"hand {self.hand}"
        return self.field or "record"

    @property
    def message(self) -> str:
        # Names and keys come from the input: escape anything that would break the line.
        return one_line(f"{self.place}: {self.detail}")

    def at_hand(self, number: int) -> RuleError:
        """Return the same error placed at hand ``number``."""
        return RuleError(self.code, hand=number, field=self.field, **self.params)


def quote(value: object) -> str:
    """Show a value from the input the way it was written in JSON."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)
