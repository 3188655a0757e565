"""Build games and hands for the rules tests in the table's own shorthand.

A hand is written the way a scorer would say it:

- ``"B 2: B C - B"``: B pitched for 2; the points, in the variant's count-out
  order, went to B, C, nobody, B.
- ``"sold C 2: ..."``, ``"kept B 3 A: ..."`` (A is the high bidder),
  ``"pitched B 4: ..."``: Sell-Out hands.
- ``"pass"``: a passed-out hand.
- ``"[D] B 2: ..."``, ``"[D] pass"``: any hand dealt by D, out of turn (GAME-RECORD.md).

The point order per variant is copied from RULES.md section 4, not read from the
engine, so a test catches an engine that counts the points in the wrong order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from scorekeeper.rules import Game, GameResult, Hand, RuleError, Sale, find_rule_set, score_game

#: The points Ten-Point Pitch and the joker rule sets of RULES.md 11.2 count out first.
JOKER_POINTS = ("high", "low", "jack", "off_jack", "big_joker", "little_joker")

#: RULES.md section 4, "points, count-out order".
POINT_ORDER: dict[str, tuple[str, ...]] = {
    "auction-pitch": ("high", "low", "jack", "game"),
    "joker-pitch": ("high", "low", "jack", "joker", "game"),
    "racehorse-pitch": ("high", "low", "jack", "game"),
    "sell-out": ("high", "low", "jack", "game"),
    "pitch-six": ("high", "low", "jack", "six", "last_trick", "game"),
    "pedro": ("high", "low", "jack", "game", "pedro"),
    "cinch": ("high", "low", "jack", "game", "right_pedro", "left_pedro"),
    "ten-point": (*JOKER_POINTS, "three", "game"),
    # RULES.md section 11.2, the ready-made rule sets, by key: their ``points`` switch.
    "seven-point": (*JOKER_POINTS, "ten"),
    "nine-point": ("high", "low", "jack", "pedro", "game"),
    "eleven-point": (*JOKER_POINTS, "ten", "three", "off_ace"),
    "thirteen-point": (*JOKER_POINTS, "ten", "three", "off_three"),
    "ten-point-with-ten": (*JOKER_POINTS, "three", "ten"),
    "smear": ("high", "low", "jack", "off_jack", "game"),
    "sancho-pedro": ("high", "low", "jack", "game", "pedro", "nine"),
    "dom-pedro": ("high", "low", "jack", "game", "pedro", "nine", "three"),
}

#: The usual partnership of four: North-South sit 1 and 3, East-West 2 and 4.
NS_EW = {"NS": ["A", "C"], "EW": ["B", "D"]}


def hand(text: str, variant: str = "auction-pitch", note: str | None = None) -> Hand:
    """Read one hand in the shorthand described in the module docstring."""
    dealer = None
    if text.startswith("["):
        dealt, text = text[1:].split("] ", 1)
        dealer = dealt
    if text == "pass":
        return Hand.passed_out(note, dealer)
    head, takers = text.split(":")
    words = head.split()
    sale = None
    high_bidder = None
    if words[0] in ("sold", "kept", "pitched"):
        sale = Sale(words.pop(0))
    pitcher, bid = words[0], int(words[1])
    if sale is Sale.KEPT:
        high_bidder = words[2]
    names = [None if t == "-" else t for t in takers.split()]
    points = dict(zip(POINT_ORDER[variant], names, strict=True))
    return Hand(
        pitcher=pitcher,
        bid=bid,
        points=points,
        sale=sale,
        high_bidder=high_bidder,
        note=note,
        dealer=dealer,
    )


def hands(variant: str, *texts: str) -> list[Hand]:
    return [hand(t, variant) for t in texts]


def play(
    variant: str,
    players: Sequence[str] | str,
    texts: Sequence[str],
    **setup: Any,
) -> GameResult:
    """Create a game (players as "A B C" or a list) and score the hands written in shorthand."""
    if isinstance(players, str):
        players = players.split()
    game = Game.create(variant, players, **setup)
    return score_game(game, hands(variant, *texts))


def play_rule_set(
    key: str,
    players: Sequence[str] | str,
    texts: Sequence[str],
    **setup: Any,
) -> GameResult:
    """Create a game of a ready-made rule set (RULES.md 11.2) and score the hands written in
    shorthand, in the set's count-out order."""
    if isinstance(players, str):
        players = players.split()
    game = find_rule_set(key).create(players, **setup)
    return score_game(game, hands(key, *texts))


def played(game: Game, text: str, counts: dict[str, int] | None = None) -> Hand:
    """``"B 2: B C - B"`` in the game's own count-out order (after its switches)."""
    if text == "pass":
        return Hand.passed_out()
    head, takers = text.split(":")
    pitcher, bid = head.split()
    names = [None if t == "-" else t for t in takers.split()]
    points = dict(zip(game.variant.point_keys, names, strict=True))
    return Hand(pitcher=pitcher, bid=int(bid), points=points, game_count=counts)


def score(game: Game, *texts: str) -> GameResult:
    """Score the hands ``texts``, each read by ``played``, in ``game``."""
    return score_game(game, [played(game, t) for t in texts])


def scores(text: str) -> dict[str, int]:
    """Read ``"A=1 B=-2"`` as a scores mapping."""
    out = {}
    for item in text.split():
        side, value = item.split("=")
        out[side] = int(value)
    return out


def rule_error(
    variant: str,
    players: Sequence[str] | str,
    texts: Sequence[str],
    **setup: Any,
) -> RuleError:
    """Play the hands and return the RuleError they must raise."""
    try:
        play(variant, players, texts, **setup)
    except RuleError as error:
        return error
    raise AssertionError("the hands were accepted, but a rule forbids them")


def assert_one_line(error: RuleError) -> str:
    """Check that an error reads as one line (GAME-RECORD.md, Errors) and return it."""
    text = str(error)
    assert text
    assert text.splitlines() == [text], f"not one line: {text!r}"
    assert text == text.strip()
    return text


def units(result: GameResult) -> Mapping[str, int]:
    assert result.settlement is not None, "the game is not finished, so nothing is settled"
    return result.settlement.units


def payments(result: GameResult) -> list[tuple[str, str, int, str | None]]:
    """List the settlement's payments as (from, to, units, amount or None)."""
    assert result.settlement is not None, "the game is not finished, so nothing is settled"
    return [
        (p.payer, p.payee, p.units, None if p.amount is None else f"{p.amount:.2f}")
        for p in result.settlement.payments
    ]


def assert_worked_game(
    result: GameResult,
    rows: Sequence[tuple[str, str]],
    winner: str,
    reason: str,
    winning_hand: int,
    settled: str,
) -> None:
    """Check a worked game's table: each hand's scores after it (``rows``: shorthand and
    scores), who won, why and with which hand, the settlement, and that only the last hand
    won."""
    assert [dict(h.scores) for h in result.hands] == [scores(s) for _, s in rows]
    assert (result.winner, result.win_reason, result.winning_hand) == (
        winner,
        reason,
        winning_hand,
    )
    assert dict(units(result)) == scores(settled)
    assert result.hands[-1].won
    assert not any(h.won for h in result.hands[:-1])


def worked_games(games: Sequence[tuple[Any, ...]]) -> Any:
    """Parametrize a test by a table of worked games, each ``(id, *game)``: the test takes
    the game as one argument, ``game``."""
    return pytest.mark.parametrize("game", [g[1:] for g in games], ids=[g[0] for g in games])


def check_worked_game(
    variant: str,
    players: Sequence[str] | str,
    setup: dict[str, Any],
    rows: Sequence[tuple[str, str]],
    *outcome: Any,
) -> None:
    """Play a worked game of a variant and check it ends as its table says (``outcome``:
    winner, reason, winning hand and settlement, as ``assert_worked_game`` takes them),
    finished with no next dealer."""
    result = play(variant, players, [text for text, _ in rows], **setup)
    assert_worked_game(result, rows, *outcome)
    assert dict(result.scores) == scores(rows[-1][1])
    assert result.finished
    assert result.next_dealer is None
