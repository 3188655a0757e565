"""Progressive movement, every expected seating worked out by hand from the rule.

Table 1 is the head table. From every other table the winners (a partnership's winning
side, a cutthroat table's best two) move up one table and the rest stay; the head table's
winners stay and its losers go to the last table. At a partnership table partners sit
opposite (seats 0 and 2 against 1 and 3) and switch every round, except at the head table.
The engine is never asked for an expected value.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.events import (
    EventError,
    Round,
    Table,
    cutthroat_ranking,
    progressive_first,
    progressive_next,
    table_sizes,
)


def four(number: int, a: int, b: int, c: int, d: int) -> Table:
    """A partnership table seated a b c d: a and c against b and d."""
    return Table(number, (a, b, c, d), ((a, c), (b, d)))


def alone(number: int, *players: int) -> Table:
    return Table(number, players, tuple((p,) for p in players))


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (4, (4,)),
        (5, (5,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (4, 5)),
        (10, (5, 5)),
        (11, (4, 4, 3)),
        (13, (4, 4, 5)),
        (14, (4, 5, 5)),
        (15, (4, 4, 4, 3)),
        (40, (4,) * 10),
        (401, (4,) * 99 + (5,)),
    ],
)
def test_the_odd_players_sit_at_tables_each_for_themselves_at_the_foot(count, sizes):
    assert table_sizes(count) == sizes


def test_three_players_are_not_a_progressive_event():
    with pytest.raises(EventError) as caught:
        table_sizes(3)
    assert caught.value.code == "too-few-players"
    assert str(caught.value) == "A progressive event needs at least 4 players, not 3"


def test_eight_players_over_four_rounds():
    first = Round(1, (four(1, 1, 2, 3, 4), four(2, 5, 6, 7, 8)))
    # Round 1: 1&3 win the head table, 6&8 win table 2.
    second = progressive_next(first, {1: (1, 3), 2: (6, 8)}, range(1, 9))
    # The head's winners stay together, 6&8 come up together; 5&7 stay and split,
    # each partnering one of the head's losers 2&4.
    assert second == Round(2, (four(1, 1, 6, 3, 8), four(2, 5, 7, 2, 4)))
    # Round 2: the newcomers 6&8 beat 1&3; at table 2, 7&4 win.
    third = progressive_next(second, {1: (8, 6), 2: (7, 4)}, range(1, 9))
    assert third == Round(3, (four(1, 6, 7, 8, 4), four(2, 5, 2, 1, 3)))
    # Round 3: 6&8 hold the head table; 2&3 win table 2.
    fourth = progressive_next(third, {1: (6, 8), 2: (2, 3)}, range(1, 9))
    assert fourth == Round(4, (four(1, 6, 2, 8, 3), four(2, 5, 1, 7, 4)))


def test_ten_players_over_four_rounds_at_two_tables_of_five():
    first = Round(1, (alone(1, 1, 2, 3, 4, 5), alone(2, 6, 7, 8, 9, 10)))
    # Each table gives its players best first: at the head table the best three stay and
    # the worst two go to the foot; at table 2 the best two move up.
    second = progressive_next(first, {1: (3, 1, 5, 2, 4), 2: (8, 6, 10, 7, 9)}, range(1, 11))
    assert second == Round(2, (alone(1, 3, 1, 5, 8, 6), alone(2, 10, 7, 9, 2, 4)))
    third = progressive_next(second, {1: (8, 3, 6, 1, 5), 2: (2, 10, 4, 9, 7)}, range(1, 11))
    assert third == Round(3, (alone(1, 8, 3, 6, 2, 10), alone(2, 4, 9, 7, 1, 5)))
    fourth = progressive_next(third, {1: (10, 2, 8, 3, 6), 2: (1, 4, 5, 7, 9)}, range(1, 11))
    assert fourth == Round(4, (alone(1, 10, 2, 8, 1, 4), alone(2, 5, 7, 9, 3, 6)))


def test_thirteen_players_over_four_rounds_with_a_table_of_five():
    first = Round(1, (four(1, 1, 2, 3, 4), four(2, 5, 6, 7, 8), alone(3, 9, 10, 11, 12, 13)))
    second = progressive_next(first, {1: (2, 4), 2: (5, 7), 3: (11, 9, 13, 10, 12)}, range(1, 14))
    # Head: 2&4 stay partners, 5&7 come up as partners. Table 2: 6&8 stay and split, with
    # 11 and 9 up from the five. Table 3: its worst three stay, the head's losers 1, 3 join.
    assert second == Round(
        2, (four(1, 2, 5, 4, 7), four(2, 6, 8, 11, 9), alone(3, 13, 10, 12, 1, 3))
    )
    third = progressive_next(second, {1: (5, 7), 2: (9, 8), 3: (1, 12, 3, 13, 10)}, range(1, 14))
    assert third == Round(
        3, (four(1, 5, 8, 7, 9), four(2, 6, 11, 1, 12), alone(3, 3, 13, 10, 2, 4))
    )
    fourth = progressive_next(third, {1: (8, 9), 2: (11, 12), 3: (2, 4, 3, 13, 10)}, range(1, 14))
    assert fourth == Round(
        4, (four(1, 8, 11, 9, 12), four(2, 6, 1, 2, 4), alone(3, 3, 13, 10, 5, 7))
    )


def test_a_withdrawal_and_an_arrival_between_rounds():
    first = Round(1, (four(1, 1, 2, 3, 4), four(2, 5, 6, 7, 8)))
    results = {1: (1, 3), 2: (6, 8)}
    # 5 leaves and 9 arrives: 9 takes a seat at the foot, and partners nobody from before.
    assert progressive_next(first, results, [1, 2, 3, 4, 6, 7, 8, 9]) == Round(
        2, (four(1, 1, 6, 3, 8), four(2, 7, 2, 4, 9))
    )
    # 5 leaves and nobody comes: 7 players, the foot table plays three each for themselves.
    assert progressive_next(first, results, [1, 2, 3, 4, 6, 7, 8]) == Round(
        2, (four(1, 1, 6, 3, 8), alone(2, 7, 2, 4))
    )
    # 9 arrives: 9 players, the foot table is five each for themselves.
    assert progressive_next(first, results, range(1, 10)) == Round(
        2, (four(1, 1, 6, 3, 8), alone(2, 5, 7, 2, 4, 9))
    )


def test_a_cutthroat_table_ranks_by_final_score_a_tie_to_the_lower_seat():
    table = alone(3, 9, 10, 11, 12, 13)
    scores = {9: 7, 10: 11, 11: 7, 12: -2, 13: 11}
    assert cutthroat_ranking(table, scores) == (10, 13, 9, 11, 12)


def test_a_result_that_is_not_a_side_or_a_missing_table_is_refused():
    first = Round(1, (four(1, 1, 2, 3, 4), four(2, 5, 6, 7, 8)))
    with pytest.raises(EventError) as caught:
        progressive_next(first, {1: (1, 2), 2: (6, 8)}, range(1, 9))
    assert str(caught.value) == "the winners given for table 1 are not one side of that table"
    with pytest.raises(EventError) as caught:
        progressive_next(first, {1: (1, 3)}, range(1, 9))
    assert str(caught.value) == "table 2 has no result yet"
    with pytest.raises(EventError) as caught:
        progressive_next(first, {1: (1, 3), 2: (6, 8), 3: (9, 10)}, range(1, 9))
    assert caught.value.code == "result-unknown-table"
    five = Round(1, (alone(1, 1, 2, 3, 4, 5),))
    with pytest.raises(EventError) as caught:
        progressive_next(five, {1: (1, 2)}, range(1, 6))
    assert str(caught.value) == "table 1 plays each for themselves: give its 5 players, best first"


def test_the_first_round_seats_everyone_once_by_the_seed():
    one = progressive_first(list(range(1, 41)), seed=7)
    assert [len(t.players) for t in one.tables] == [4] * 10
    assert sorted(one.players) == list(range(1, 41))
    assert one == progressive_first(list(range(1, 41)), seed=7)
    assert one != progressive_first(list(range(1, 41)), seed=8)
    with pytest.raises(EventError) as caught:
        progressive_first([1, 2, 3, 4, 4], seed=1)
    assert str(caught.value) == "player 4 is listed twice"


def _results(round_: Round, draw: st.DataObject) -> dict[int, tuple[int, ...]]:
    results = {}
    for table in round_.tables:
        if table.partnership:
            results[table.number] = draw.draw(st.sampled_from(table.sides))
        else:
            results[table.number] = tuple(draw.draw(st.permutations(table.players)))
    return results


@settings(max_examples=60, deadline=None)
@given(count=st.integers(min_value=4, max_value=45), seed=st.integers(0, 10**6), draw=st.data())
def test_every_round_moves_winners_up_keeps_losers_and_switches_partners(count, seed, draw):
    now = progressive_first(list(range(count)), seed)
    last = len(now.tables)
    for _ in range(4):
        results = _results(now, draw)
        after = progressive_next(now, results, range(count))
        assert [len(t.players) for t in after.tables] == list(table_sizes(count))
        assert sorted(after.players) == list(range(count))
        for table in now.tables:
            ranked = (
                [
                    *results[table.number],
                    *(p for p in table.players if p not in results[table.number]),
                ]
                if table.partnership
                else list(results[table.number])
            )
            n = table.number
            if last == 1:
                expected_up, expected_stay, expected_down = [], ranked, []
            elif n == 1:
                expected_up, expected_stay, expected_down = [], ranked[:-2], ranked[-2:]
            else:
                expected_up, expected_stay, expected_down = ranked[:2], ranked[2:], []
            for p in expected_up:
                assert after.seat_of(p).table == n - 1
            for p in expected_stay:
                assert after.seat_of(p).table == n
            for p in expected_down:
                assert after.seat_of(p).table == last
        for table in after.tables:
            if not table.partnership:
                continue
            before = {p: now.table(now.seat_of(p).table).side_of(p) for p in table.players}
            kept = [side for side in table.sides if before[side[0]] == side]
            if table.number == 1:
                # The head table keeps every partnership that sat there or came up whole.
                whole = {
                    before[p]
                    for p in table.players
                    if len(before[p]) == 2 and set(before[p]) <= set(table.players)
                }
                assert len(kept) == len(whole)
            else:
                assert kept == []
        now = after


def test_earlier_rounds_keep_old_partners_apart_when_a_table_has_the_choice():
    second = Round(2, (four(1, 1, 6, 3, 8), four(2, 5, 7, 2, 4)))
    results = {1: (6, 8), 2: (5, 2)}
    # Table 2 gets 7&4 (staying) and 1&3 (down from the head table). Splitting both pairs
    # gives 7&1 against 4&3, the first way in seat order...
    alone_last = progressive_next(second, results, range(1, 9))
    assert alone_last.tables[1] == four(2, 7, 4, 1, 3)
    # ...but 7&1 and 4&3 partnered in round 1, so 7&3 against 4&1 it is.
    first = Round(1, (four(1, 7, 2, 1, 5), four(2, 4, 6, 3, 8)))
    with_earlier = progressive_next(second, results, range(1, 9), earlier=[first])
    assert with_earlier.tables[1] == Table(2, (7, 4, 3, 1), ((7, 3), (4, 1)))
    # The head table is as before: the winners stay together.
    assert with_earlier.tables[0] == alone_last.tables[0] == four(1, 6, 5, 8, 2)
