"""One hand of a game as its own page says it (``/games/<id>/hands/<number>``), taken from
the game's page model (``model.GameView``)."""

from __future__ import annotations

from dataclasses import dataclass

from .model import GameView, HandRow


@dataclass(frozen=True)
class PointTaken:
    """Who took one point of a hand, for the hand's own page."""

    key: str
    #: The point's English name, a catalogue key (``_()`` where shown), and its mark.
    name: str
    mark: str
    taker: str | None
    #: The taker's side in partnership play (None otherwise, or when nobody took it).
    team: str | None


@dataclass(frozen=True)
class SideInHand:
    """What one side did in a hand: its marks, the score change, the score after it."""

    name: str
    members: tuple[str, ...]
    marks: str
    delta: int
    score: int
    pitched: bool
    set_back: bool
    #: Sell-Out: this side scored the bid as sale points this hand.
    sale: bool
    #: This side won the game on this hand.
    won: bool


@dataclass(frozen=True)
class HandView:
    """One hand of a game as its own page says it (``/games/<id>/hands/<number>``)."""

    row: HandRow
    #: The pitcher's side in partnership play, else None.
    pitcher_team: str | None
    points: tuple[PointTaken, ...]
    sides: tuple[SideInHand, ...]
    previous: int | None
    next: int | None


def hand_view(game: GameView, number: int) -> HandView | None:
    """Take hand ``number`` of a game from its page model (None if it has no such hand)."""
    if not 1 <= number <= len(game.rows):
        return None
    row = game.rows[number - 1]
    team_of = (
        {player: side.name for side in game.sides for player in side.members}
        if game.is_partnership
        else {}
    )
    takers = dict(row.takers)
    marks = dict(game.point_marks)
    points = tuple(
        PointTaken(
            key=key,
            name=name,
            mark=marks[key],
            taker=takers.get(key),
            team=team_of.get(takers.get(key) or ""),
        )
        for key, name in game.point_names
        if not row.passed
    )
    sides = tuple(
        SideInHand(
            name=side.name,
            members=side.members,
            marks=row.took_marks[i] if row.took_marks else "",
            delta=row.deltas[i],
            score=row.scores[i],
            pitched=row.pitcher_side == side.name,
            set_back=row.set_back and (row.pitcher_side == side.name or row.dealer_set_side == i),
            sale=row.sale_side == side.name,
            won=row.won and game.winner == side.name,
        )
        for i, side in enumerate(game.sides)
    )
    return HandView(
        row=row,
        pitcher_team=team_of.get(row.pitcher or ""),
        points=points,
        sides=sides,
        previous=number - 1 if number > 1 else None,
        next=number + 1 if number < len(game.rows) else None,
    )
