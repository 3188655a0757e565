"""Standings, a season's table and prize money, every expected value worked out by hand.

Each case lists the games (round, entrant, won, points for, points against) and the places
that follow from the tie-breaks as the module states them; the engine is never asked.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.rules.events import (
    DEFAULT_ORDER,
    POINTS_FIRST_ORDER,
    Ending,
    EventError,
    EventLine,
    GameScore,
    LeagueBy,
    LeaguePoints,
    Payout,
    Prize,
    Standing,
    TieBreak,
    bye_score,
    describe,
    game_scores,
    payouts,
    prize_pool,
    season_table,
    split_prizes,
    standings,
)

W, L = True, False


def g(rnd, who, won, pf, pa, ending=Ending.TARGET, opponents=()):
    return GameScore(rnd, who, won, pf, pa, ending, tuple(opponents))


def places(table):
    return [(s.entrant, s.place) for s in table]


# --- Each tie-break decides -----------------------------------------------------------------

# Four players, two rounds. 1: W W (21+21, against 10+15). 2: W L (21+18, 12+21).
# 3: W L (21+16, 18+21: fewer points, more against). 4: L L.
TWO_ROUNDS = [
    g(1, 1, W, 21, 10),
    g(2, 1, W, 21, 15),
    g(1, 2, W, 21, 12),
    g(2, 2, L, 18, 21),
    g(1, 3, W, 21, 18),
    g(2, 3, L, 16, 21),
    g(1, 4, L, 10, 21),
    g(2, 4, L, 15, 21),
]


def test_wins_decide_first_then_points():
    table = standings(TWO_ROUNDS)
    # 1 has 2 wins; 2 and 3 have 1 each: 2 has 39 points, 3 has 37; 4 none.
    assert places(table) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    first = table[0]
    assert (first.wins, first.losses, first.points_for, first.points_against) == (2, 0, 42, 25)
    assert (first.difference, first.played, first.byes, first.rounds) == (17, 2, 0, (1, 2))


def test_points_first_puts_points_before_wins():
    # 2 has 39 points, 3 37, 1 42, 4 25: by points 1, 2, 3, 4 too; make 4 the high scorer.
    games = [*TWO_ROUNDS, g(3, 4, L, 30, 31), g(3, 1, L, 0, 21)]
    table = standings(games, order=POINTS_FIRST_ORDER)
    # Points: 1 42, 2 39, 3 37, 4 55.
    assert places(table) == [(4, 1), (1, 2), (2, 3), (3, 4)]


def test_the_difference_breaks_a_tie_on_wins_and_points():
    games = [g(1, 1, W, 20, 10), g(1, 2, W, 20, 15)]
    assert places(standings(games)) == [(1, 1), (2, 2)]


def test_fewer_points_against_breaks_a_tie_on_difference():
    # Same wins, points 20 each... difference needs equal: 20-10 and 20-10 level; so use
    # the order without the difference: wins, points, points against.
    games = [g(1, 1, W, 20, 14), g(1, 2, W, 20, 9)]
    order = [TieBreak.WINS, TieBreak.POINTS, TieBreak.POINTS_AGAINST]
    assert places(standings(games, order=order)) == [(2, 1), (1, 2)]


def test_head_to_head_counts_wins_over_those_still_level():
    # 1 and 2 both win once and lose once, same points for and against; 1 beat 2.
    games = [
        g(1, 1, W, 21, 11, opponents=[2]),
        g(1, 2, L, 11, 21, opponents=[1]),
        g(2, 1, L, 11, 21, opponents=[3]),
        g(2, 2, W, 21, 11, opponents=[3]),
    ]
    assert places(standings(games)) == [(1, 1), (2, 2)]
    # Without head-to-head they share first place.
    table = standings(games, order=[TieBreak.WINS, TieBreak.POINTS])
    assert places(table) == [(1, 1), (2, 1)]
    assert [s.shared for s in table] == [True, True]


def test_head_to_head_among_three_level_counts_only_wins_over_the_three():
    # 1, 2 and 3 each won twice with the same points; 1 beat 2 and 3, 2 beat 3, 3 beat 4 twice.
    games = [
        g(1, 1, W, 10, 5, opponents=[2]),
        g(2, 1, W, 10, 5, opponents=[3]),
        g(1, 2, W, 10, 5, opponents=[3]),
        g(2, 2, W, 10, 5, opponents=[4]),
        g(1, 3, W, 10, 5, opponents=[4]),
        g(2, 3, W, 10, 5, opponents=[4]),
    ]
    # Wins over the level: 1 two, 2 one, 3 none.
    assert places(standings(games)) == [(1, 1), (2, 2), (3, 3)]


def test_target_wins_rank_a_win_at_the_target_above_one_on_most_points_or_called():
    games = [
        g(1, 1, W, 11, 8, Ending.MOST_POINTS),
        g(1, 2, W, 11, 8, Ending.TARGET),
        g(1, 3, W, 11, 8, Ending.CALLED),
    ]
    table = standings(games, order=[TieBreak.WINS, TieBreak.TARGET_WINS, TieBreak.POINTS])
    assert places(table) == [(2, 1), (1, 2), (3, 2)]
    assert [s.target_wins for s in table] == [1, 0, 0]


def test_level_after_everything_share_the_place_and_the_next_place_is_skipped():
    games = [g(1, 1, W, 11, 5), g(1, 2, W, 11, 5), g(1, 3, L, 5, 11)]
    table = standings(games)
    assert [(s.entrant, s.place, s.shared) for s in table] == [
        (1, 1, True),
        (2, 1, True),
        (3, 3, False),
    ]


# --- Byes --------------------------------------------------------------------------------


def test_a_bye_scores_the_rounds_winners_average_rounded_halves_away_from_zero():
    # Round 1 winners: 11 against 6, 12 against 3, 12 against 4: 35/3 = 11.67 -> 12,
    # 13/3 = 4.33 -> 4.
    games = [
        g(1, 1, W, 11, 6),
        g(1, 2, W, 12, 3),
        g(1, 3, W, 12, 4),
        g(1, 4, L, 6, 11),
    ]
    assert bye_score(games, 1, 9) == GameScore(1, 9, True, 12, 4)
    # Two winners: 11 and 12 -> 11.5 -> 12; against 5 and 6 -> 5.5 -> 6.
    halves = [g(2, 1, W, 11, 5), g(2, 2, W, 12, 6)]
    assert bye_score(halves, 2, 9) == GameScore(2, 9, True, 12, 6)
    # Set back below zero: -3 and -4 -> -3.5 -> -4 (away from zero).
    below = [g(3, 1, W, -3, -10), g(3, 2, W, -4, -9)]
    assert bye_score(below, 3, 9) == GameScore(3, 9, True, -4, -10)
    # No winner in the round yet: 0 to 0.
    assert bye_score([], 4, 9) == GameScore(4, 9, True, 0, 0)


def test_a_bye_counts_in_the_standings_as_a_win_at_the_average():
    games = [g(1, 1, W, 11, 6), g(1, 2, W, 12, 3), g(1, 3, L, 6, 11), g(1, 4, L, 3, 12)]
    table = standings(games, byes={1: [5]})
    five = next(s for s in table if s.entrant == 5)
    # 23/2 = 11.5 -> 12 for, 9/2 = 4.5 -> 5 against.
    assert (five.wins, five.points_for, five.points_against) == (1, 12, 5)
    assert (five.played, five.byes, five.rounds) == (0, 1, (1,))
    # Wins 1, 2, 5 (1 each): points 12 (2), 12 (5), 11 (1); 2 and 5 level on points:
    # difference 9 against 7 puts 2 first.
    assert places(table)[:3] == [(2, 1), (5, 2), (1, 3)]
    not_a_win = standings(games, byes={1: [5]}, bye_is_win=False)
    assert next(s for s in not_a_win if s.entrant == 5).wins == 0


def test_a_bye_and_a_game_in_one_round_is_refused():
    with pytest.raises(EventError) as caught:
        standings([g(1, 1, W, 11, 6)], byes={1: [1]})
    assert str(caught.value) == "player 1 has a bye in round 1 and a game in it too"


def test_a_withdrawn_player_keeps_the_rounds_played():
    games = [g(1, 1, W, 11, 6), g(1, 2, L, 6, 11), g(2, 2, W, 11, 2), g(2, 3, L, 2, 11)]
    table = standings(games, withdrawn=[1], entrants=[4])
    one = next(s for s in table if s.entrant == 1)
    assert (one.withdrawn, one.wins, one.points_for, one.rounds) == (True, 1, 11, (1,))
    # Registered with no game yet: all zero, last.
    assert table[-1] == Standing(4, False, 4, 0, 0, 0, 0, 0, 0, ())


# --- Games ended on most points or by time called (RULES.md 11.4) ---------------------------


def _played(game, hands):
    return rules.score_game(game, hands)


def test_a_game_after_its_hands_ends_on_most_points_and_a_called_game_as_called():
    players = ["A", "B", "C", "D"]
    teams = {"North": ["A", "C"], "East": ["B", "D"]}
    game = rules.Game.create("auction-pitch", players, teams=teams, house_rules={"hands": 2})
    # North bids 2 and takes high, low (2); East takes jack and game (2): 2-2.
    # Then North bids 3 and takes high, low, jack (3), East game (1): 5 to 3.
    hands = [
        rules.Hand(pitcher="A", bid=2, points={"high": "A", "low": "C", "jack": "B", "game": "D"}),
        rules.Hand(pitcher="C", bid=3, points={"high": "A", "low": "C", "jack": "A", "game": "B"}),
    ]
    result = _played(game, hands)
    sides = {"North": [1, 3], "East": [2, 4]}
    scores = game_scores(1, result, sides)
    assert scores == (
        GameScore(1, 1, True, 5, 3, Ending.MOST_POINTS, (2, 4)),
        GameScore(1, 3, True, 5, 3, Ending.MOST_POINTS, (2, 4)),
        GameScore(1, 2, False, 3, 5, Ending.MOST_POINTS, (1, 3)),
        GameScore(1, 4, False, 3, 5, Ending.MOST_POINTS, (1, 3)),
    )
    called = rules.Game.create("auction-pitch", players, teams=teams).call_time(2)
    scores = game_scores(1, _played(called, hands), sides)
    assert {s.ending for s in scores} == {Ending.CALLED}
    assert [s.entrant for s in scores if s.won] == [1, 3]
    # The called game's winners rank below a target win on target wins, not on wins.
    table = standings(
        [*scores, g(1, 5, W, 11, 4)],
        order=[TieBreak.WINS, TieBreak.TARGET_WINS],
    )
    assert places(table)[:3] == [(5, 1), (1, 2), (3, 2)]


def test_an_unfinished_game_has_no_standing_and_the_sides_must_match():
    game = rules.Game.create("auction-pitch", ["A", "B", "C"])
    result = _played(game, [])
    with pytest.raises(EventError) as caught:
        game_scores(1, result, {"A": [1], "B": [2], "C": [3]})
    assert caught.value.code == "game-unfinished"
    # A smudge (a bid of 4 taking all four) wins Auction Pitch at once.
    everything = {"high": "A", "low": "A", "jack": "A", "game": "A"}
    finished = _played(game, [rules.Hand(pitcher="A", bid=4, points=everything)])
    assert game_scores(1, finished, {"A": [1], "B": [2], "C": [3]})[0] == GameScore(
        1, 1, True, 4, 0, Ending.TARGET, (2, 3)
    )
    with pytest.raises(EventError) as caught:
        game_scores(1, finished, {"A": [1], "B": [2]})
    assert str(caught.value) == "the players must be given for each of the game's sides: A, B, C"


# --- The order stated in words ---------------------------------------------------------------


def test_the_order_is_said_in_words_a_sentence_each():
    said = describe(DEFAULT_ORDER)
    assert list(said) == [
        "Ranked by most games won.",
        "Between those still level: most points.",
        "Between those still level: largest points difference (points for minus points against).",
        "Between those still level: fewest points against.",
        "Between those still level: most wins over the others still level.",
        "Those level after all of these share the place.",
        "A bye scores the average of the round's winners (points for and against, each to the "
        "nearest whole point, halves away from zero) and counts as a win.",
        "A player who withdraws keeps the rounds they played.",
    ]
    # Each is a phrase: its template and parameters, for a translation.
    assert said[1].template == "Between those still level: {rule}."
    assert said[1].params["rule"].template == "most points"
    assert describe([TieBreak.POINTS], bye_is_win=False)[2].endswith("does not count as a win.")


def test_an_empty_or_repeated_order_is_refused():
    with pytest.raises(EventError) as caught:
        standings([], order=[])
    assert caught.value.code == "tie-breaks-empty"
    with pytest.raises(EventError) as caught:
        describe([TieBreak.WINS, TieBreak.WINS])
    assert str(caught.value) == "most games won is listed twice in the tie-breaks"


_GAME = st.builds(
    GameScore,
    round=st.integers(1, 4),
    entrant=st.integers(1, 8),
    won=st.booleans(),
    points_for=st.integers(-20, 30),
    points_against=st.integers(-20, 30),
)


@settings(max_examples=80, deadline=None)
@given(games=st.lists(_GAME, max_size=30), order=st.permutations(list(TieBreak)))
def test_places_follow_the_order_and_level_lines_share_a_place(games, order):
    table = standings(games, order=order)
    assert sorted(s.entrant for s in table) == sorted({x.entrant for x in games})
    for i, line in enumerate(table):
        assert line.place == 1 + sum(o.place < line.place for o in table)
        assert line.place <= i + 1
        if i:
            before = table[i - 1]
            assert before.place <= line.place
            if before.place == line.place:
                assert before.shared and line.shared
            if TieBreak.HEAD_TO_HEAD not in order[:1]:
                key = {
                    TieBreak.WINS: lambda s: s.wins,
                    TieBreak.POINTS: lambda s: s.points_for,
                    TieBreak.DIFFERENCE: lambda s: s.difference,
                    TieBreak.POINTS_AGAINST: lambda s: -s.points_against,
                    TieBreak.TARGET_WINS: lambda s: s.target_wins,
                }[order[0]]
                assert key(before) >= key(line)


# --- A season ---------------------------------------------------------------------------


def line(place, entrant, wins, shared=False, rounds=(1, 2, 3)):
    return Standing(place, shared, entrant, 3, 0, wins, wins, 0, 0, rounds)


def test_a_season_by_places():
    events = {
        # Night 1: 1 first, 2 and 3 share second, 4 fourth.
        101: [line(1, 1, 3), line(2, 2, 2, True), line(2, 3, 2, True), line(4, 4, 0)],
        # Night 2: 3 first, 1 second, 5 third; 2 absent; 4 registered but never played.
        102: [line(1, 3, 3), line(2, 1, 2), line(3, 5, 1), line(4, 4, 0, rounds=())],
    }
    points = LeaguePoints(per_place=(10, 8, 6, 5), attendance=1)
    table = season_table(events, points)
    # 1: 10+1 + 8+1 = 20; 3: 8+1 + 10+1 = 20; 2: 8+1 = 9; 5: 6+1 = 7; 4: 5+1 = 6.
    # 1 and 3 level on points and firsts (one each): wins 5 each, attendance 2 each: shared.
    assert [(r.player, r.place, r.league_points) for r in table] == [
        (1, 1, 20),
        (3, 1, 20),
        (2, 3, 9),
        (5, 4, 7),
        (4, 5, 6),
    ]
    assert table[0].shared and not table[2].shared
    assert [(r.player, r.attended) for r in table] == [(1, 2), (3, 2), (2, 1), (5, 1), (4, 1)]
    assert table[0].events == (EventLine(101, 1, 3, 11), EventLine(102, 2, 2, 9))
    assert (table[0].best_place, table[0].firsts) == (1, 1)


def test_a_season_by_wins():
    events = {1: [line(1, 1, 3), line(2, 2, 1)], 2: [line(1, 2, 3), line(2, 1, 2)]}
    table = season_table(events, LeaguePoints(by=LeagueBy.WIN, per_win=2))
    # 1: 3+2 wins = 10 points; 2: 1+3 = 8.
    assert [(r.player, r.league_points) for r in table] == [(1, 10), (2, 8)]
    with pytest.raises(EventError) as caught:
        season_table(events, LeaguePoints(per_place=(10, -1)))
    assert caught.value.code == "league-points"


# --- Prize money ----------------------------------------------------------------------------

D = Decimal


def test_the_pool_is_the_fee_times_the_entrants():
    assert prize_pool(D("5.00"), 40) == D("200.00")
    with pytest.raises(EventError) as caught:
        prize_pool(D("5.001"), 40)
    assert caught.value.code == "fee-value"


def test_a_split_by_place_with_a_tie_sharing_the_places_it_covers():
    # 40 entrants at 5.00: 200.00. 50/30/20: 100, 60, 40. 2 and 3 tie for second: they
    # share 60 + 40 = 100, 50.00 each; 4 is fourth and unpaid.
    split = split_prizes(D("200.00"), [D(50), D(30), D(20)], {1: 1, 2: 2, 3: 2, 4: 4})
    assert split.places == (D("100.00"), D("60.00"), D("40.00"))
    assert split.prizes == (
        Prize(1, 1, D("100.00")),
        Prize(2, 2, D("50.00")),
        Prize(3, 2, D("50.00")),
    )
    assert split.kept == D("0.00")


def test_cents_that_do_not_divide_go_to_the_best_places_and_the_first_of_a_tie():
    # 100.00 at 33.33/33.33/33.33: 33.33 each, 99.99 paid; 0.01 kept.
    split = split_prizes(D("100.00"), [D("33.33")] * 3, {7: 1, 8: 2, 9: 3})
    assert [p.amount for p in split.prizes] == [D("33.33")] * 3
    assert split.kept == D("0.01")
    # 10.00 at 50/50 shared three ways at the top: 10.00 / 3 = 3.33 r 0.01: 3.34, 3.33, 3.33,
    # the cent to the first of them in the order the places were given.
    split = split_prizes(D("10.00"), [D(50), D(50)], {5: 1, 3: 1, 4: 1})
    assert split.prizes == (Prize(5, 1, D("3.34")), Prize(3, 1, D("3.33")), Prize(4, 1, D("3.33")))
    # 0.10 at 1/3 and 2/3-ish: 33.3% -> 0.0333 -> 0.03, 66.7% -> 0.0667 -> 0.06, total 100%
    # pays 0.10: the left-over cent to first place.
    split = split_prizes(D("0.10"), [D("33.3"), D("66.7")], {1: 1, 2: 2})
    assert split.places == (D("0.04"), D("0.06"))
    # 70% paid of 50.00, the house keeps 15.00; a third place nobody reached is kept too.
    split = split_prizes(D("50.00"), [D(50), D(20), D(10)], {1: 1, 2: 2})
    assert [p.amount for p in split.prizes] == [D("25.00"), D("10.00")]
    assert split.kept == D("15.00")


def test_payouts_with_fees_at_the_door_and_netted_without():
    split = split_prizes(D("40.00"), [D(60), D(40)], {1: 1, 2: 2, 3: 3, 4: 4})
    # The organiser holds the 40.00 and pays 24.00 and 16.00.
    assert payouts(split, D("10.00"), [1, 2, 3, 4]) == (
        Payout(None, 1, D("24.00")),
        Payout(None, 2, D("16.00")),
    )
    # Nobody paid yet: 1 is owed 14.00, 2 6.00; 3 and 4 owe 10.00 each. Largest debtor
    # pays largest creditor (ties by id as text): 3 pays 1 10.00, 4 pays 1 4.00, 4 pays 2 6.00.
    assert payouts(split, D("10.00"), [1, 2, 3, 4], paid_at_the_door=False) == (
        Payout(3, 1, D("10.00")),
        Payout(4, 2, D("6.00")),
        Payout(4, 1, D("4.00")),
    )
    with pytest.raises(EventError) as caught:
        payouts(split, D("10.00"), [1, 2, 3], paid_at_the_door=False)
    assert caught.value.code == "pool-mismatch"


def test_bad_money_is_refused():
    with pytest.raises(EventError) as caught:
        split_prizes(D("100.00"), [D(60), D(50)], {1: 1})
    assert str(caught.value) == (
        "the places' shares add up to 110 percent; at most 100 percent can be paid out"
    )
    with pytest.raises(EventError) as caught:
        split_prizes(D("100.00"), [D(-1)], {1: 1})
    assert caught.value.code == "percent-value"
    with pytest.raises(EventError) as caught:
        split_prizes(D("100.00"), [D(50)], {1: 0})
    assert caught.value.code == "place-value"


@settings(max_examples=80, deadline=None)
@given(
    cents=st.integers(0, 10**7),
    shares=st.lists(st.integers(0, 40), min_size=1, max_size=5).filter(lambda s: sum(s) <= 100),
    placed=st.lists(st.integers(1, 6), max_size=8),
)
def test_prizes_and_what_is_kept_add_up_to_the_pool(cents, shares, placed):
    pool = D(cents) / 100
    split = split_prizes(pool, [D(s) for s in shares], dict(enumerate(placed, start=1)))
    assert sum(p.amount for p in split.prizes) + split.kept == pool
    assert all(p.amount > 0 for p in split.prizes)
    ups = payouts(split, D(0), list(range(1, len(placed) + 1)))
    assert sum(p.amount for p in ups) == sum(p.amount for p in split.prizes)
