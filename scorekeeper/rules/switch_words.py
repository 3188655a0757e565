"""The engine's words for the house-rule switches and a game's other rules (RULES.md 5, 10).

Words only: no rule is decided here. Each value of a switch is one record (``SwitchValue``)
holding everything said about it: how the setup form offers it, how a sheet says a table
changed to it, how a rules card says it in a sentence. The mappings the rest of the app
reads (``SWITCH_CHOICES``, ``SWITCH_WORDS``, ``SWITCH_SENTENCES``) are built from the
records, so a value's words are declared once, side by side. ``CARD_SENTENCES`` and
``SCORING_SENTENCES`` say the rules that are not a switch's value.

A value is written as its text (``"holder"``): the switches' enums are in variants.py,
which imports this module and re-exports its names, and a test checks that every value
here is one of its switch's. Every string is marked with N_ and translated where shown;
``%(name)s`` is filled from the game's data (``bid``, ``min``, ``target``, ``points``...).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import N_


@dataclass(frozen=True)
class SwitchValue:
    """One value of a switch and what is said about it (None: nowhere says it that way)."""

    #: The switch (``"all_pass"``) and its value as the record writes it (``"dealer-takes"``).
    switch: str
    value: str
    #: How the setup form offers the value; None for a value the form does not offer.
    choice: str | None = None
    #: How a sheet says the switch, when a table changed it to this value.
    words: str | None = None
    #: How a rules card says the rule in a sentence.
    sentence: str | None = None


#: Every value said anywhere, switch by switch; the setup form offers a switch's choices in
#: this order.
SWITCH_VALUES: tuple[SwitchValue, ...] = (
    SwitchValue(
        "low_to",
        "holder",
        choice=N_("Low goes to the player who was dealt it"),
        words=N_("Low goes to the player who was dealt it"),
        sentence=N_("Low scores for the player who was dealt it, even if another wins it."),
    ),
    SwitchValue(
        "low_to",
        "taker",
        choice=N_("Low goes to the player who wins it in a trick"),
        words=N_("Low goes to the player who wins it"),
        sentence=N_("Low scores for the player who wins it in a trick."),
    ),
    SwitchValue(
        "smudge",
        "not-in-hole",
        choice=N_("A made smudge bid wins, unless the pitcher is in the hole"),
        words=N_("a smudge wins unless the pitcher is in the hole"),
        sentence=N_(
            "%(name)s: a made bid of %(bid)s wins the game at once, unless the pitcher's side "
            "was in the hole before the hand."
        ),
    ),
    SwitchValue(
        "smudge",
        "always",
        choice=N_("A made smudge bid always wins"),
        words=N_("a smudge always wins, even from the hole"),
        sentence=N_("%(name)s: a made bid of %(bid)s wins the game at once, even from the hole."),
    ),
    SwitchValue(
        "smudge",
        "off",
        choice=N_("No smudge: the top bid is an ordinary bid"),
        words=N_("no smudge"),
        sentence=N_("%(name)s: none; a bid of %(bid)s is an ordinary bid."),
    ),
    SwitchValue(
        "all_pass",
        "dealer-takes",
        choice=N_("The dealer must take the bid at the minimum"),
        words=N_("if all pass, the dealer must take the bid"),
        sentence=N_("If everyone passes, the dealer must take the bid at %(min)s."),
    ),
    SwitchValue(
        "all_pass",
        "redeal-same-dealer",
        choice=N_("Redeal by the same dealer"),
        words=N_("if all pass, the same dealer redeals"),
        sentence=N_("If everyone passes, the same dealer deals again."),
    ),
    SwitchValue(
        "all_pass",
        "redeal-next-dealer",
        choice=N_("Redeal by the next dealer"),
        words=N_("if all pass, the next dealer deals"),
        sentence=N_("If everyone passes, the next dealer deals."),
    ),
    SwitchValue(
        "all_pass",
        "dealer-set",
        choice=N_("The dealer's side is set back by the minimum bid"),
        words=N_("if all pass, the dealer is set back"),
        sentence=N_(
            "If everyone passes, the hand is not played: the dealer's side is set back %(min)s "
            "and the next dealer deals."
        ),
    ),
    SwitchValue(
        "game_tie",
        "nobody",
        words=N_("a tied Game goes to nobody"),
        sentence=N_("If the game-count is tied, nobody scores Game."),
    ),
    SwitchValue(
        "win_rule",
        "count-out",
        choice=N_("Count-out: a side goes out on any points it takes"),
        words=N_("a side can go out on points it took defending"),
        sentence=N_(
            "If several sides reach %(target)s in a hand, the pitcher's side goes out first if "
            "it made its bid, then the others in count-out order: %(points)s."
        ),
    ),
    SwitchValue(
        "win_rule",
        "bidder-only",
        choice=N_("Bidder only: only a made bid goes out"),
        words=N_("only a made bid goes out"),
        sentence=N_(
            "Only a side that wins a bid and makes it goes out; a side past %(target)s on "
            "defence plays on."
        ),
    ),
    # First to target is Cinch's own rule, not a choice for a table.
    SwitchValue(
        "win_rule",
        "first-to-target",
        sentence=N_("Only one side scores in a hand, so the first side to reach %(target)s wins."),
    ),
    SwitchValue(
        "pitcher_scores",
        "all",
        choice=N_("Every point the pitcher's side took"),
        words=N_("a made bid scores every point taken"),
        sentence=N_("If the pitcher's side takes at least its bid, it scores every point it took."),
    ),
    SwitchValue(
        "pitcher_scores",
        "bid",
        choice=N_("Only the bid"),
        words=N_("a made bid scores only the bid"),
        sentence=N_("If the pitcher's side takes at least its bid, it scores only the bid."),
    ),
    SwitchValue(
        "smudge_failed",
        "set-back",
        choice=N_("Set back by the bid, like any bid"),
        words=N_("a failed smudge is only set back"),
        sentence=N_("A failed bid of %(bid)s is set back like any other bid."),
    ),
    SwitchValue(
        "smudge_failed",
        "loses",
        choice=N_("Loses the game at once (two sides only)"),
        words=N_("a failed smudge loses the game at once"),
        sentence=N_("A failed bid of %(bid)s loses the game at once."),
    ),
    # The numeric switches are said with their numbers where the sheet is made; these two
    # values turn a rule off, and are said in words.
    SwitchValue("smudge_bid", "None", words=N_("no smudge bid")),
    SwitchValue("gap", "0", words=N_("no gap rule")),
)


def _choices() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for said in SWITCH_VALUES:
        if said.choice is not None:
            out.setdefault(said.switch, {})[said.value] = said.choice
    return out


#: How the setup form offers each value of a switch, by switch.
SWITCH_CHOICES: dict[str, dict[str, str]] = _choices()

#: How a sheet says a switch a table changed from the preset, by (switch, value as text).
SWITCH_WORDS: dict[tuple[str, str], str] = {
    (said.switch, said.value): said.words for said in SWITCH_VALUES if said.words is not None
}

#: How a rules card says each value of a switch in a sentence, by (switch, value as text).
SWITCH_SENTENCES: dict[tuple[str, str], str] = {
    (said.switch, said.value): said.sentence for said in SWITCH_VALUES if said.sentence is not None
}

#: How a rules card says the game's other rules, one sentence each, by rule.
CARD_SENTENCES: dict[str, str] = {
    "bids": N_("Bids go from %(min)s to %(max)s."),
    # A lowest bid of 0 is the dealer's side naming trump when all pass (RULES.md section 6).
    "bids_from_zero": N_(
        "Bids go up to %(max)s; if everyone passes, the dealer's side may name trump "
        "with a bid of 0."
    ),
    "no_smudge": N_("No bid wins the game at once: there is no smudge."),
    "point": N_("%(name)s, worth %(value)s: %(help)s."),
    "target": N_("A game is won at %(target)s."),
    # RULES.md 11.4: a game played to a number of hands, with or without a target.
    "no_target": N_("No score wins the game: only the count of hands ends it."),
    "hands": N_(
        "Hands to play: %(hands)s; then the side with the most points wins, and while the "
        "top is shared the game goes on until one side is alone at the top."
    ),
    "gap": N_("A side at %(target)s or more that leads every other side by %(gap)s or more wins."),
}

#: How a rules card says a hand scores, by the game's scoring (``Scoring``'s values: RULES.md
#: sections 3 and 6). Section 3's made bid is the ``pitcher_scores`` switch's sentence.
SCORING_SENTENCES: dict[str, dict[str, str]] = {
    "standard": {
        "set_back": N_("If it takes fewer, it is set back: it loses the bid and scores nothing."),
        "defenders": N_("Every other side scores the points it took."),
    },
    "cinch": {
        "made": N_(
            "If the bidding side takes at least its bid, the side that took more points "
            "scores the difference; on a tie nobody scores."
        ),
        "set_back": N_(
            "If it takes fewer, the other side scores %(total)s plus what it fell short by; "
            "no score ever goes down."
        ),
    },
}
