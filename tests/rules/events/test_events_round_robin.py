"""Round robins with rotating partners, teams' round robins and knockouts, tables each for
themselves. Expected values are worked by hand (a whist tournament's promise: over n-1
rounds every pair partners once and opposes twice); the engine is never asked for one."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.events import (
    Bracket,
    EventError,
    KnockoutMatch,
    Match,
    Round,
    Table,
    TeamRound,
    individual_tables,
    knockout,
    knockout_result,
    round_robin,
    round_robin_max_rounds,
    round_robin_next,
    spread,
    team_round_robin,
)
from scorekeeper.rules.events.seating import WHIST_BASES, individual_sizes


def four(number: int, a: int, b: int, c: int, d: int) -> Table:
    return Table(number, (a, b, c, d), ((a, c), (b, d)))


def test_the_spread_of_a_small_schedule_worked_by_hand():
    # 4 players, 3 rounds: each pair partners once and opposes twice; then a bye round.
    rounds = [
        Round(1, (four(1, 1, 2, 3, 4),)),
        Round(2, (four(1, 1, 3, 2, 4),)),
        Round(3, (four(1, 1, 2, 4, 3),)),
    ]
    report = spread(rounds)
    assert report.partner_max == 1
    assert report.partner_histogram == {1: 6}
    assert (report.opponent_min, report.opponent_max) == (2, 2)
    assert report.opponent_histogram == {2: 6}
    assert report.repeated_partners == ()
    # Two rounds only, 5 players with 5 sitting out round 1 and 1 sitting out round 2.
    rounds = [Round(1, (four(1, 1, 2, 3, 4),), (5,)), Round(2, (four(1, 2, 3, 4, 5),), (1,))]
    report = spread(rounds)
    # Partners: 1-3, 2-4 (round 1); 2-4, 3-5 (round 2): 2-4 twice; 10 pairs in all.
    assert report.partner_max == 2
    assert report.repeated_partners == ((2, 4),)
    assert report.partner_histogram == {0: 7, 1: 2, 2: 1}
    # Opponents: 1-2 1-4 3-2 3-4, then 2-3 2-5 4-3 4-5: 2-3 and 3-4 twice.
    assert report.opponent_histogram == {0: 4, 1: 4, 2: 2}
    assert (report.opponent_min, report.opponent_max) == (0, 2)
    assert report.byes == {1: 1, 2: 0, 3: 0, 4: 0, 5: 1}


@pytest.mark.parametrize("count", [8, 12, 16, 20])
def test_a_whole_whist_tournament_partners_each_pair_once_and_opposes_them_twice(count):
    rounds = round_robin(list(range(100, 100 + count)), count - 1, seed=3)
    assert len(rounds) == count - 1
    pairs = count * (count - 1) // 2
    report = spread(rounds)
    assert report.partner_histogram == {1: pairs}
    assert report.opponent_histogram == {2: pairs}
    for round_ in rounds:
        assert sorted(round_.players) == list(range(100, 100 + count))
        assert round_.byes == ()
        assert all(t.partnership for t in round_.tables)


@pytest.mark.parametrize(("count", "rounds"), [(8, 4), (12, 5), (16, 5), (16, 7)])
def test_fewer_rounds_never_repeat_a_partner_and_report_the_opposition(count, rounds):
    schedule = round_robin(list(range(count)), rounds, seed=11)
    report = spread(schedule)
    assert report.partner_max == 1
    # Each round each player partners one and opposes two.
    assert report.partner_histogram[1] == rounds * count // 2
    assert sum(n * k for n, k in report.opponent_histogram.items()) == rounds * count
    assert report.opponent_max <= 2


@pytest.mark.parametrize(
    ("count", "rounds", "byes_each"),
    [
        (9, 9, {1}),  # one sits out a round: each once over the nine
        (10, 5, {1}),  # two a round: ten byes, one each
        (11, 4, {1, 2}),  # three a round: twelve byes, one or two
        (13, 13, {1}),
        (14, 7, {1}),
        (15, 5, {1}),
        (7, 3, {1, 2}),  # three a round, four play
    ],
)
def test_byes_come_in_turn_when_the_count_is_not_a_multiple_of_four(count, rounds, byes_each):
    schedule = round_robin(list(range(count)), rounds, seed=5)
    report = spread(schedule)
    assert report.partner_max == 1
    assert set(report.byes.values()) == byes_each
    for round_ in schedule:
        assert len(round_.byes) == count % 4
        assert sorted(round_.players) == list(range(count))


@settings(max_examples=40, deadline=None)
@given(count=st.integers(4, 60), seed=st.integers(0, 10**6), data=st.data())
def test_no_schedule_repeats_a_partner(count, seed, data):
    rounds = data.draw(st.integers(1, min(round_robin_max_rounds(count), 9)))
    schedule = round_robin(list(range(count)), rounds, seed)
    report = spread(schedule)
    assert report.partner_max == 1
    assert report.repeated_partners == ()
    assert len(schedule) == rounds
    assert schedule == round_robin(list(range(count)), rounds, seed)


def test_the_whist_bases_are_each_a_partition_of_the_places():
    for count, base in WHIST_BASES.items():
        places = sorted(p for table in base for p in table)
        assert places == [-1, *range(count - 1)]


def test_too_many_rounds_are_refused():
    assert round_robin_max_rounds(8) == 7
    assert round_robin_max_rounds(9) == 9
    with pytest.raises(EventError) as caught:
        round_robin(list(range(8)), 8, seed=1)
    assert str(caught.value) == (
        "8 players can play at most 7 rounds without anyone partnering the same player twice, not 8"
    )
    with pytest.raises(EventError) as caught:
        round_robin(list(range(8)), 0, seed=1)
    assert caught.value.code == "rounds-range"


# --- Fixed teams ------------------------------------------------------------------------


def test_four_teams_play_each_other_once_in_three_rounds():
    assert team_round_robin([1, 2, 3, 4]) == [
        TeamRound(1, (Match(1, 1, 4), Match(2, 2, 3))),
        TeamRound(2, (Match(1, 2, 1), Match(2, 3, 4))),
        TeamRound(3, (Match(1, 1, 3), Match(2, 4, 2))),
    ]


def test_five_teams_each_have_one_bye():
    rounds = team_round_robin([1, 2, 3, 4, 5])
    assert rounds[0] == TeamRound(1, (Match(1, 2, 5), Match(2, 3, 4)), bye=1)
    assert sorted(r.bye for r in rounds) == [1, 2, 3, 4, 5]
    met = sorted(tuple(sorted((m.home, m.away))) for r in rounds for m in r.matches)
    assert met == sorted(combinations([1, 2, 3, 4, 5], 2))


def test_a_knockout_of_eight_best_of_three():
    bracket = knockout([10, 20, 30, 40, 50, 60, 70, 80], best_of=3)
    assert [(m.top, m.bottom) for m in bracket.rounds[0]] == [
        (10, 80),
        (40, 50),
        (20, 70),
        (30, 60),
    ]
    assert [len(r) for r in bracket.rounds] == [4, 2, 1]
    # 10 beats 80 2-1: 10 goes on top of the first semi-final.
    bracket = knockout_result(bracket, 1, 1, 2, 1)
    assert bracket.rounds[1][0] == KnockoutMatch(2, 1, 3, 10, None)
    # 50 beats 40 2-0: the bottom of the same semi-final.
    bracket = knockout_result(bracket, 1, 2, 0, 2)
    assert bracket.rounds[1][0] == KnockoutMatch(2, 1, 3, 10, 50)
    # 1-1 is not decided yet; the match can still be corrected while the next has not begun.
    bracket = knockout_result(bracket, 1, 3, 1, 1)
    assert bracket.rounds[1][1] == KnockoutMatch(2, 2, 3, None, None)
    bracket = knockout_result(bracket, 1, 3, 1, 2)
    bracket = knockout_result(bracket, 1, 4, 2, 0)
    assert bracket.rounds[1][1] == KnockoutMatch(2, 2, 3, 70, 30)
    bracket = knockout_result(bracket, 2, 1, 2, 0)
    with pytest.raises(EventError) as caught:
        knockout_result(bracket, 1, 1, 1, 2)
    assert caught.value.code == "match-decided"
    bracket = knockout_result(bracket, 2, 2, 0, 2)
    assert bracket.champion is None
    bracket = knockout_result(bracket, 3, 1, 1, 2)
    assert bracket.rounds[2][0] == KnockoutMatch(3, 1, 3, 10, 30, 1, 2)
    assert bracket.champion == 30


def test_knockout_refusals():
    with pytest.raises(EventError) as caught:
        knockout([1, 2, 3], best_of=3)
    assert str(caught.value) == "a knockout is played by 2, 4, 8, 16... teams, not 3"
    with pytest.raises(EventError) as caught:
        knockout([1, 2], best_of=2)
    assert caught.value.code == "best-of"
    bracket = knockout([1, 2, 3, 4], best_of=3)
    with pytest.raises(EventError) as caught:
        knockout_result(bracket, 1, 1, 2, 2)
    assert caught.value.code == "match-wins"
    with pytest.raises(EventError) as caught:
        knockout_result(bracket, 2, 1, 1, 0)
    assert str(caught.value) == "match 1 of round 2 is still waiting for its teams"
    with pytest.raises(EventError) as caught:
        knockout_result(bracket, 1, 3, 1, 0)
    assert caught.value.code == "match-unknown"
    assert Bracket(3, ()).champion is None


# --- Tables each for themselves ----------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "per_table", "sizes", "out"),
    [
        (12, 4, (4, 4, 4), 0),
        (10, 4, (4, 3, 3), 0),
        (5, 4, (3, 2), 0),
        (7, 3, (3, 2, 2), 0),
        (9, 3, (3, 3, 3), 0),
        (7, 2, (2, 2, 2), 1),
        (2, 4, (2,), 0),
    ],
)
def test_tables_each_for_themselves_are_as_even_as_the_count(count, per_table, sizes, out):
    assert individual_sizes(count, per_table) == (sizes, out)


def test_individual_tables_seat_everyone_once_and_spread_who_meets_whom():
    players = list(range(1, 9))
    one = individual_tables(players, 4, 1, seed=2)
    two = individual_tables(players, 4, 2, seed=2)
    assert sorted(one.players) == players == sorted(two.players)
    assert all(len(t.players) == 4 and not t.partnership for t in two.tables)
    # The best round 2 takes two from each table of round 1 (four from one table cannot
    # all be apart): each table has 2 pairs who met before, so of the 28 pairs 4 met
    # twice, 16 once (12 + 12 meetings, less the 4 twice counted twice) and 8 never.
    halves = [set(t.players) for t in one.tables]
    for table in two.tables:
        assert [len(half & set(table.players)) for half in halves] == [2, 2]
    assert spread([one, two]).opponent_histogram == {0: 8, 1: 16, 2: 4}
    # The rounds really played can be given instead of drawn again: the same round.
    assert individual_tables(players, 4, 2, seed=2, previous=[one]) == two


def test_an_odd_count_at_tables_of_two_sits_out_in_turn():
    rounds = [individual_tables([1, 2, 3, 4, 5], 2, n, seed=9) for n in range(1, 6)]
    assert sorted(p for r in rounds for p in r.byes) == [1, 2, 3, 4, 5]


def test_individual_tables_refusals():
    with pytest.raises(EventError) as caught:
        individual_tables([1, 2, 3], 5, 1, seed=1)
    assert str(caught.value) == "a table of players each for themselves seats 2 to 4, not 5"
    with pytest.raises(EventError) as caught:
        individual_tables([1], 4, 1, seed=1)
    assert caught.value.code == "too-few-players"


# --- Attendance changing between rounds of a rotating-partner event ------------------------


def test_a_withdrawal_and_an_arrival_between_rounds_keep_partners_new():
    schedule = round_robin(list(range(1, 13)), 3, seed=4)
    # 12 leaves after round 3: 11 play round 4, three sit out; nobody has sat out yet, so
    # the draw picks them, and nobody partners anyone from rounds 1 to 3.
    fourth = round_robin_next(schedule, list(range(1, 12)), seed=4)
    assert fourth.number == 4
    assert len(fourth.byes) == 3 and 12 not in fourth.players
    assert sorted(fourth.players) == list(range(1, 12))
    assert spread([*schedule, fourth]).partner_max == 1
    # 13 arrives for round 5: 12 play, nobody sits out.
    fifth = round_robin_next([*schedule, fourth], [*range(1, 12), 13], seed=4)
    assert fifth.byes == () and sorted(fifth.players) == [*range(1, 12), 13]
    assert spread([*schedule, fourth, fifth]).partner_max == 1
    # Round 6 with 13 players: one sits out, and it is not 13 (who missed four rounds)
    # nor anyone who sat out round 4.
    sixth = round_robin_next([*schedule, fourth, fifth], list(range(1, 14)), seed=4)
    assert len(sixth.byes) == 1
    assert sixth.byes[0] not in {12, 13, *fourth.byes}
    assert spread([*schedule, fourth, fifth, sixth]).partner_max == 1


def test_a_next_round_with_no_new_partner_left_is_refused():
    # Four players who have each partnered all three others cannot be paired again.
    done = [
        Round(1, (four(1, 1, 2, 3, 4),)),
        Round(2, (four(1, 1, 3, 2, 4),)),
        Round(3, (four(1, 1, 2, 4, 3),)),
    ]
    with pytest.raises(EventError) as caught:
        round_robin_next(done, [1, 2, 3, 4], seed=1)
    assert str(caught.value) == (
        "no pairing of the 4 players in round 4 gives everyone a new partner"
    )


@settings(max_examples=30, deadline=None)
@given(count=st.integers(8, 40), seed=st.integers(0, 10**6), data=st.data())
def test_next_rounds_never_repeat_a_partner_as_players_come_and_go(count, seed, data):
    players = list(range(count))
    played = round_robin(players, 2, seed)
    for _ in range(3):
        gone = data.draw(st.sets(st.sampled_from(players), max_size=2))
        present = [p for p in players if p not in gone] + [max(players) + 1]
        players = present
        played.append(round_robin_next(played, present, seed))
        assert sorted(played[-1].players) == sorted(present)
        assert spread(played).partner_max == 1


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(2, 30),
    per_table=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10**6),
    rounds=st.integers(1, 4),
)
def test_tables_each_for_themselves_seat_everyone_once_at_the_stated_sizes(
    count, per_table, seed, rounds
):
    sizes, out = individual_sizes(count, per_table)
    played: list[Round] = []
    for number in range(1, rounds + 1):
        round_ = individual_tables(list(range(count)), per_table, number, seed, previous=played)
        assert sorted(len(t.players) for t in round_.tables) == sorted(sizes)
        assert len(round_.byes) == out
        assert sorted(round_.players) == list(range(count))
        assert round_ == individual_tables(list(range(count)), per_table, number, seed)
        played.append(round_)
    byes = spread(played).byes.values()
    assert max(byes) - min(byes) <= 1
