"""RULES.md section 9: every rejected hand names the hand and the field, on one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_helpers import NS_EW, assert_one_line, hand, hands

from scorekeeper.rules import Game, Hand, RuleError, loads_record, parse_record, score_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# Two good hands before the bad one, so every error is placed at hand 3.
GOOD = {
    "auction-pitch": ["A 2: A A B C", "B 2: B B A C"],
    "pitch-six": ["A 3: A A A B C C", "B 3: B B B A C C"],
    "sell-out": ["sold C 1: C C - -", "sold A 1: A A - -"],
    "cinch": ["A 7: A A A A A A", "B 7: B B B B B B"],
}


def _points(**takers: str | None) -> dict[str, str | None]:
    base: dict[str, str | None] = {"high": "A", "low": "A", "jack": "B", "game": "C"}
    base.update(takers)
    return base


# (id, variant, bad hand, code, field, message)
HAND_ERRORS = [
    (
        "a pitcher who is not seated",
        "auction-pitch",
        "Zed 2: A A B C",
        "unknown-player",
        "pitcher",
        'hand 3: pitcher "Zed" is not seated in the game',
    ),
    (
        "a point taker who is not seated",
        "auction-pitch",
        "A 2: A A Zed C",
        "unknown-player",
        "points.jack",
        'hand 3: Jack taker "Zed" is not seated in the game',
    ),
    (
        "a high bidder who is not seated",
        "sell-out",
        "kept A 2 Zed: A A A A",
        "unknown-player",
        "high_bidder",
        'hand 3: high bidder "Zed" is not seated in the game',
    ),
    (
        "a bid above the range",
        "auction-pitch",
        "A 5: A A A A",
        "bid-above-max",
        "bid",
        "hand 3: bid 5 is above the maximum of 4 for Auction Pitch",
    ),
    (
        "a bid below the range",
        "auction-pitch",
        "A 1: A A A A",
        "bid-below-min",
        "bid",
        "hand 3: bid 1 is below the minimum of 2 for Auction Pitch",
    ),
    (
        "a negative bid",
        "cinch",
        "A -1: A A A A A A",
        "bid-below-min",
        "bid",
        "hand 3: bid -1 is below the minimum of 0 for Cinch",
    ),
    (
        "a bid above fourteen in cinch",
        "cinch",
        "A 15: A A A A A A",
        "bid-above-max",
        "bid",
        "hand 3: bid 15 is above the maximum of 14 for Cinch",
    ),
    (
        "a contract of 0 outside cinch",
        "auction-pitch",
        "A 0: A A A A",
        "bid-zero",
        "bid",
        "hand 3: a contract of 0 is only allowed in Cinch",
    ),
    (
        "a contract of 0 in sell-out",
        "sell-out",
        "sold B 0: B B B B",
        "bid-zero",
        "bid",
        "hand 3: a contract of 0 is only allowed in Cinch",
    ),
    (
        "high left to nobody",
        "auction-pitch",
        "A 2: - A B C",
        "point-nobody",
        "points.high",
        "hand 3: High cannot be credited to nobody: someone always takes it",
    ),
    (
        "low left to nobody",
        "auction-pitch",
        "A 2: A - B C",
        "point-nobody",
        "points.low",
        "hand 3: Low cannot be credited to nobody: someone always takes it",
    ),
    (
        "the last trick left to nobody",
        "pitch-six",
        "A 3: A A A A - A",
        "point-nobody",
        "points.last_trick",
        "hand 3: Last trick cannot be credited to nobody: someone always takes it",
    ),
    (
        "high left to nobody in cinch",
        "cinch",
        "C 7: - A A A A A",
        "point-nobody",
        "points.high",
        "hand 3: High cannot be credited to nobody: someone always takes it",
    ),
    (
        "a pitched hand that is not a contract of 4",
        "sell-out",
        "pitched A 3: A A A A",
        "pitched-bid",
        "bid",
        "hand 3: a pitched hand is a contract of 4, not 3",
    ),
    (
        "a pitched hand not pitched by the seller",
        "sell-out",
        "pitched B 4: B B B B",
        "pitched-pitcher",
        "pitcher",
        'hand 3: in a pitched hand the seller "A" pitches, not "B"',
    ),
    (
        "a sold hand bought by the seller",
        "sell-out",
        "sold A 2: A A A A",
        "sold-to-seller",
        "pitcher",
        'hand 3: in a sold hand the buyer cannot be the seller "A"',
    ),
    (
        "a passed-out hand where the dealer must take the bid",
        "auction-pitch",
        "pass",
        "passed-not-allowed",
        "passed",
        "hand 3: the hand cannot be passed out: with the house rule all_pass = dealer-takes "
        "the dealer must take the bid at 2",
    ),
    (
        "a cinch bid of 0 by the dealer's opponent",
        "cinch",
        "B 0: B B B B B B",
        "bid-zero-pitcher",
        "pitcher",
        'hand 3: a bid of 0 (naming trump after all passed) is made by the dealer "C" '
        'or the dealer\'s partner, not "B"',
    ),
]


@pytest.mark.parametrize(
    ("variant", "bad", "code", "field", "message"),
    [row[1:] for row in HAND_ERRORS],
    ids=[row[0] for row in HAND_ERRORS],
)
def test_a_rejected_hand_names_the_hand_and_the_field_on_one_line(
    variant, bad, code, field, message
):
    teams = NS_EW if variant == "cinch" else None
    players = ["A", "B", "C", "D"] if variant == "cinch" else ["A", "B", "C"]
    game = Game.create(variant, players, teams=teams)
    with pytest.raises(RuleError) as caught:
        score_game(game, [*hands(variant, *GOOD[variant]), hand(bad, variant)])
    error = caught.value
    assert (error.code, error.hand, error.field) == (code, 3, field)
    assert assert_one_line(error) == message
    assert str(error).startswith("hand 3: ")


def test_a_point_key_the_variant_does_not_have_is_rejected():
    game = Game.create("auction-pitch", ["A", "B", "C"])
    bad = Hand(pitcher="A", bid=2, points=_points(joker="A"))
    with pytest.raises(RuleError) as caught:
        score_game(game, [*hands("auction-pitch", *GOOD["auction-pitch"]), bad])
    error = caught.value
    assert (error.code, error.hand, error.field) == ("point-unknown", 3, "points.joker")
    assert assert_one_line(error) == (
        'hand 3: Auction Pitch has no "joker" point; its points are high, low, jack, game'
    )


def test_a_point_of_the_variant_left_out_is_rejected():
    game = Game.create("auction-pitch", ["A", "B", "C"])
    points = _points()
    del points["game"]
    bad = Hand(pitcher="A", bid=2, points=points)
    with pytest.raises(RuleError) as caught:
        score_game(game, [*hands("auction-pitch", *GOOD["auction-pitch"]), bad])
    error = caught.value
    assert (error.code, error.hand, error.field) == ("point-missing", 3, "points.game")
    assert assert_one_line(error) == (
        'hand 3: the "game" point is missing; every point of Auction Pitch must be given '
        "(a name, or null for nobody where allowed)"
    )


# B sells hand 1 to A at 4 (A 4, B 4); C sells hand 2 to B at 1 (B 5, C 2).
SELLER_A_AT_FOUR = ["sold A 4: A A A A", "sold B 1: B C - -"]


def test_a_sell_out_bid_that_gives_the_seller_game_names_the_hand_and_the_bid():
    # Hand 3 is dealt by C, so A (at 4) sells.
    game = Game.create("sell-out", ["A", "B", "C"])
    good = hands("sell-out", *SELLER_A_AT_FOUR)
    with pytest.raises(RuleError) as caught:
        score_game(game, [*good, hand("sold C 3: C C C C", "sell-out")])
    error = caught.value
    assert dict(score_game(game, good).scores) == {"A": 4, "B": 5, "C": 2}
    assert (error.code, error.hand, error.field) == ("sale-gives-game", 3, "bid")
    assert assert_one_line(error) == (
        'hand 3: a bid of 3 would give the seller "A" game by itself (4 + 3 reaches 7)'
    )


def test_a_kept_hand_that_gives_the_high_bidder_game_names_the_hand_and_the_sale():
    game = Game.create("sell-out", ["A", "B", "C"])
    good = hands("sell-out", *SELLER_A_AT_FOUR)
    with pytest.raises(RuleError) as caught:
        score_game(game, [*good, hand("kept A 2 B: A A A A", "sell-out")])
    error = caught.value
    assert (error.code, error.hand, error.field) == ("kept-gives-game", 3, "sale")
    assert assert_one_line(error) == (
        'hand 3: "A" must sell: keeping would give the high bidder "B" game (5 + 2 reaches 7)'
    )


def test_a_hand_recorded_after_the_game_was_won_is_refused_as_in_the_example():
    expected = (EXAMPLES / "hand-after-win.error.txt").read_text(encoding="utf-8").strip()
    game = Game.create("auction-pitch", ["Ann", "Bob"])
    with pytest.raises(RuleError) as caught:
        score_game(game, hands("auction-pitch", "Bob 4: Bob Bob Bob Bob", "Ann 2: Ann Ann Ann Ann"))
    error = caught.value
    assert (error.code, error.hand, error.field) == ("hand-after-win", 2, None)
    assert assert_one_line(error) == expected
    with pytest.raises(RuleError) as caught:
        loads_record((EXAMPLES / "hand-after-win.json").read_bytes())
    assert str(caught.value) == expected


def test_an_error_keeps_its_code_and_parameters_for_translation():
    game = Game.create("auction-pitch", ["A", "B", "C"])
    with pytest.raises(RuleError) as caught:
        score_game(game, [hand("A 5: A A A A")])
    error = caught.value
    assert error.params == {"bid": 5, "max": 4, "variant": "Auction Pitch"}
    assert error.detail == "bid 5 is above the maximum of 4 for Auction Pitch"
    assert error.place == "hand 1"


# --- Errors in the game's setup name the field, not a hand.

SETUP_ERRORS = [
    (
        "an unknown house rule",
        "auction-pitch",
        "A B C",
        {"house_rules": {"trump": "hearts"}},
        "unknown-switch",
        "house_rules",
    ),
    (
        "a target out of range",
        "auction-pitch",
        "A B C",
        {"house_rules": {"target": 0}},
        "switch-range",
        "house_rules.target",
    ),
    (
        "a payout out of range",
        "pedro",
        "A B C",
        {"house_rules": {"payout_in_hole": -2}},
        "switch-range",
        "house_rules.payout_in_hole",
    ),
    (
        "a switch value that is not allowed",
        "auction-pitch",
        "A B C",
        {"house_rules": {"smudge": "sometimes"}},
        "switch-value",
        "house_rules.smudge",
    ),
    (
        "smudge on a variant without a smudge bid",
        "pedro",
        "A B C",
        {"house_rules": {"smudge": "not-in-hole"}},
        "switch-no-smudge",
        "house_rules.smudge",
    ),
    (
        "unequal teams",
        "auction-pitch",
        "A B C D E F",
        {"teams": {"X": ["A", "B", "C", "D"], "Y": ["E", "F"]}},
        "teams-shape",
        "teams",
    ),
    (
        "teams with five players",
        "auction-pitch",
        "A B C D E",
        {"teams": {"X": ["A", "B"], "Y": ["C", "D", "E"]}},
        "teams-seat-count",
        "teams",
    ),
    (
        "a seat count the variant does not allow",
        "pitch-six",
        "A B",
        {},
        "seat-count",
        "players",
    ),
    ("eight at auction pitch", "auction-pitch", "A B C D E F G H", {}, "seat-count", "players"),
    (
        "a first dealer who is not seated",
        "auction-pitch",
        "A B",
        {"first_dealer": "Zed"},
        "unknown-dealer",
        "first_dealer",
    ),
    ("a player seated twice", "auction-pitch", "A B A", {}, "duplicate-player", "players"),
    ("a bad stake", "auction-pitch", "A B", {"stake": "-1"}, "bad-stake", "stake"),
]


@pytest.mark.parametrize(
    ("variant", "players", "setup", "code", "field"),
    [row[1:] for row in SETUP_ERRORS],
    ids=[row[0] for row in SETUP_ERRORS],
)
def test_a_rejected_setup_names_the_field_on_one_line(variant, players, setup, code, field):
    with pytest.raises(RuleError) as caught:
        Game.create(variant, players.split(), **setup)
    error = caught.value
    assert (error.code, error.hand, error.field) == (code, None, field)
    assert assert_one_line(error).startswith(f"{field}: ")


@pytest.mark.parametrize(
    "name",
    ["Bo\nb", "Bo\rb", "Bo\u2028b", "Bo\x85b", "Zed\u2029", "\ud800", 'Q"uote\\', "\x00"],
)
def test_an_error_about_a_strange_name_stays_on_one_line(name):
    # Fixed in the engine: a newline in a name or key from the input split the message.
    game = Game.create("auction-pitch", ["A", "B"])
    bad = Hand(pitcher=name, bid=2, points={"high": "A", "low": "A", "jack": None, "game": None})
    with pytest.raises(RuleError) as caught:
        score_game(game, [bad])
    assert caught.value.code == "unknown-player"
    assert assert_one_line(caught.value).startswith("hand 1: pitcher ")


# --- RULES.md section 11 and a hand's own dealer: each refusal has its code and one line.

# (id, variant, players, setup, code, field, message)
SECTION_11_SETUP_ERRORS = [
    (
        "the ten beside pedro's game",
        "pedro",
        "A B",
        {"house_rules": {"points": ["high", "low", "jack", "game", "pedro", "ten"]}},
        "switch-points-ten-game",
        "house_rules",
        "house_rules: points cannot have both ten and game in Pedro: its Game is the ten of trumps",
    ),
    (
        "the dealer set when all pass in cinch",
        "cinch",
        "A B C D",
        {"teams": NS_EW, "house_rules": {"all_pass": "dealer-set"}},
        "switch-dealer-set",
        "house_rules.all_pass",
        'house_rules.all_pass: all_pass = "dealer-set" cannot be played in Cinch, '
        "whose scoring is its own",
    ),
    (
        "the dealer set when all pass in sell-out",
        "sell-out",
        "A B C",
        {"house_rules": {"all_pass": "dealer-set"}},
        "switch-dealer-set",
        "house_rules.all_pass",
        'house_rules.all_pass: all_pass = "dealer-set" cannot be played in Sell-Out, '
        "whose scoring is its own",
    ),
    (
        "no hands at all",
        "auction-pitch",
        "A B",
        {"house_rules": {"hands": 0}},
        "switch-hands",
        "house_rules.hands",
        "house_rules.hands: hands must be null or a whole number from 1 to 200, not 0",
    ),
    (
        "more hands than a game is played to",
        "cinch",
        "A B C D",
        {"teams": NS_EW, "house_rules": {"hands": 201}},
        "switch-hands",
        "house_rules.hands",
        "house_rules.hands: hands must be null or a whole number from 1 to 200, not 201",
    ),
    (
        "hands written as a string",
        "sell-out",
        "A B C",
        {"house_rules": {"hands": "12"}},
        "switch-hands",
        "house_rules.hands",
        'house_rules.hands: hands must be null or a whole number from 1 to 200, not "12"',
    ),
    (
        "no target and no hands",
        "pedro",
        "A B",
        {"house_rules": {"target": None}},
        "switch-target-null",
        "house_rules.target",
        "house_rules.target: target can be null only with hands set: a game ends at a target "
        "or after its hands",
    ),
    (
        "a smudge that wins without a target",
        "auction-pitch",
        "A B",
        {"house_rules": {"hands": 10, "target": None, "smudge": "not-in-hole"}},
        "switch-no-target-smudge",
        "house_rules.smudge",
        'house_rules.smudge: without a target no smudge wins, so smudge can only be "off", '
        'not "not-in-hole"',
    ),
    (
        "a failed moon that loses without a target",
        "ten-point",
        "A B C D",
        {
            "teams": NS_EW,
            "house_rules": {"hands": 10, "target": None, "smudge_failed": "loses"},
        },
        "switch-no-target-smudge-failed",
        "house_rules.smudge_failed",
        "house_rules.smudge_failed: without a target no failed smudge loses the game, "
        'so smudge_failed can only be "set-back", not "loses"',
    ),
    (
        "time called after no hand",
        "auction-pitch",
        "A B",
        {"called": 0},
        "called-range",
        "called",
        "called: time is called after a number of played hands, a whole number of at least 1, "
        "not 0",
    ),
    (
        "time called after true",
        "auction-pitch",
        "A B",
        {"called": True},
        "called-range",
        "called",
        "called: time is called after a number of played hands, a whole number of at least 1, "
        "not true",
    ),
]


@pytest.mark.parametrize(
    ("variant", "players", "setup", "code", "field", "message"),
    [row[1:] for row in SECTION_11_SETUP_ERRORS],
    ids=[row[0] for row in SECTION_11_SETUP_ERRORS],
)
def test_a_refused_section_11_setup_is_its_own_code_on_one_line(
    variant, players, setup, code, field, message
):
    with pytest.raises(RuleError) as caught:
        Game.create(variant, players.split(), **setup)
    error = caught.value
    assert (error.code, error.hand, error.field) == (code, None, field)
    assert assert_one_line(error) == message


# (id, record changes, code, hand, field, message): a hand's own dealer in the record.
DEALER_RECORD_ERRORS = [
    (
        "a dealer who is not seated",
        {"dealer": "Zed"},
        "unknown-player",
        3,
        "dealer",
        'hand 3: dealer "Zed" is not seated in the game',
    ),
    (
        "a dealer who is not a name",
        {"dealer": 2},
        "wrong-type",
        3,
        "dealer",
        "hand 3: dealer: must be a player's name, not a number",
    ),
    (
        "a dealer of null",
        {"dealer": None},
        "wrong-type",
        3,
        "dealer",
        "hand 3: dealer: must be a player's name, not null",
    ),
]


@pytest.mark.parametrize("passed", [False, True], ids=["played", "passed"])
@pytest.mark.parametrize(
    ("changes", "code", "number", "field", "message"),
    [row[1:] for row in DEALER_RECORD_ERRORS],
    ids=[row[0] for row in DEALER_RECORD_ERRORS],
)
def test_a_hands_own_dealer_is_refused_unless_a_seated_player(
    changes, code, number, field, message, passed
):
    played = {"pitcher": "A", "bid": 2, "points": _points()}
    third = {"passed": True} if passed else played
    record = {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "house_rules": {"all_pass": "redeal-next-dealer"},
        "players": ["A", "B", "C"],
        "hands": [played, played, {**third, **changes}],
    }
    with pytest.raises(RuleError) as caught:
        parse_record(record)
    error = caught.value
    assert (error.code, error.hand, error.field) == (code, number, field)
    assert assert_one_line(error) == message


def test_a_hand_dealt_by_someone_not_seated_is_refused_by_the_engine_too():
    game = Game.create("sell-out", ["A", "B", "C"])
    with pytest.raises(RuleError) as caught:
        score_game(game, [Hand.passed_out(dealer="Zed")])
    error = caught.value
    assert (error.code, error.hand, error.field) == ("unknown-player", 1, "dealer")
    assert assert_one_line(error) == 'hand 1: dealer "Zed" is not seated in the game'


# (id, top-level fields of the record, code, message): ``called`` in the record.
CALLED_RECORD_ERRORS = [
    (
        "called as a string",
        {"called": "8"},
        "wrong-type",
        "called: must be a whole number, not a string",
    ),
    ("called as null", {"called": None}, "wrong-type", "called: must be a whole number, not null"),
    (
        "called below one",
        {"called": -3},
        "called-range",
        "called: time is called after a number of played hands, a whole number of at least 1, "
        "not -3",
    ),
    (
        "called past 32 bits",
        {"called": 2**31},
        "number-too-large",
        "called: the number is too large; it can be at most 2147483647",
    ),
]


@pytest.mark.parametrize(
    ("top", "code", "message"),
    [row[1:] for row in CALLED_RECORD_ERRORS],
    ids=[row[0] for row in CALLED_RECORD_ERRORS],
)
def test_time_called_in_a_record_is_a_whole_number_of_hands(top, code, message):
    record = {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "players": ["A", "B"],
        "hands": [],
        **top,
    }
    with pytest.raises(RuleError) as caught:
        parse_record(record)
    error = caught.value
    assert (error.code, error.hand, error.field) == (code, None, "called")
    assert assert_one_line(error) == message


def test_a_hand_after_time_was_called_and_a_side_won_on_points_is_refused():
    # RULES.md 11.4's example, shorter: time called after 2 played hands, B alone at the
    # top after them (A 3, B 5); a third hand is refused.
    game = Game.create("auction-pitch", ["A", "B"], called=2)
    texts = ["A 2: A A B B", "B 2: B B A B", "A 2: A A A A"]
    with pytest.raises(RuleError) as caught:
        score_game(game, hands("auction-pitch", *texts))
    error = caught.value
    assert (error.code, error.hand, error.field) == ("hand-after-win", 3, None)
    assert assert_one_line(error) == (
        "hand 3: the game was already won by B at hand 2; no hand can be recorded after that"
    )
