"""An event's standings from its finished games (``rules.events.standings``, by the
event's tie-breaks, byes at the round's winners' average), and its prize money."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal

from .. import rules
from ..lru import LRU, per_app
from ..rules import events as ev
from .events import EventInfo, EventState, teams_of

# --- Standings and money -------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings, as the pages show it."""

    place: int
    shared: bool
    entrant: int
    name: str
    wins: int
    points: int
    against: int
    games: int
    byes: int
    withdrawn: bool


@dataclass(frozen=True)
class Standings:
    """An event's standings, with the ranking said in words (``rules.events.describe``:
    phrases the page translates) and whether they rank teams."""

    lines: tuple[StandingLine, ...]
    order: tuple[ev.TieBreak, ...]
    said: tuple[rules.Phrase, ...]
    teams: bool
    #: The engine's lines (for the league's table and the prizes).
    engine: tuple[ev.Standing, ...] = ()


def order_of(info: EventInfo) -> tuple[ev.TieBreak, ...]:
    """The event's tie-breaks: the director's, or the format's own (points first for
    progressive and individual tables, where each player's own total counts; wins first
    for the partnership round robins and fixed teams)."""
    if info.tie_breaks:
        return tuple(ev.TieBreak(t) for t in info.tie_breaks)
    if info.format in ("progressive", "individual"):
        return ev.POINTS_FIRST_ORDER
    return ev.DEFAULT_ORDER


def game_scores_of(state: EventState) -> list[ev.GameScore]:
    """Every finished game of the event as each entrant's score (a team's, in the teams
    format). A game not finished yet counts once it is."""
    team_of = {}
    if state.event.format == "teams":
        team_of = {p: team for team, members in teams_of(state).items() for p in members}
    found: list[ev.GameScore] = []
    for played in state.rounds:
        for table in played.tables:
            loaded = table.game
            if loaded is None or not loaded.result.finished:
                continue
            by_name = dict(zip(loaded.names, table.seats, strict=True))
            if loaded.game.teams is not None:
                sides = {
                    team: tuple(by_name[name] for name in members)
                    for team, members in loaded.game.teams
                }
            else:
                sides = {name: (pid,) for name, pid in by_name.items()}
            scores = ev.game_scores(played.number, loaded.result, sides)
            if team_of:
                seen = set()
                for score in scores:
                    team = team_of.get(score.entrant, score.entrant)
                    if team in seen:
                        continue
                    seen.add(team)
                    found.append(
                        dataclasses.replace(
                            score,
                            entrant=team,
                            opponents=tuple(
                                dict.fromkeys(team_of.get(o, o) for o in score.opponents)
                            ),
                        )
                    )
            else:
                found.extend(scores)
    return found


#: Standings kept for events' pages: a room's boards redraw at every hand saved, and the
#: standings move only when a game finishes.
KEPT_STANDINGS = 16


def standings(state: EventState) -> Standings:
    """The event's standings from its finished games (``rules.events.standings``), worked
    out once for each state they follow from: the event's version (its players, rounds and
    settings all move it), its players' names and each finished game's version."""
    info = state.event
    key = (
        info.id,
        info.version,
        info.format,
        tuple(info.tie_breaks or ()),
        state.players,
        tuple((r.number, r.byes) for r in state.rounds),
        tuple(
            (t.game_id, t.game.row.version)
            for r in state.rounds
            for t in r.tables
            if t.game is not None and t.game.result.finished
        ),
    )
    kept = per_app("scorekeeper.operations.standings.kept", lambda: LRU[Standings](KEPT_STANDINGS))
    return kept.get_or_make(key, lambda: _standings(state))


def _standings(state: EventState) -> Standings:
    order = order_of(state.event)
    names = state.names()
    teams = state.event.format == "teams"
    if teams:
        groups = teams_of(state)
        team_names = {
            team: next((p.team for p in state.players if p.player_id == team), None)
            or " & ".join(names[m] for m in members)
            for team, members in groups.items()
        }
        entrants = list(groups)
        withdrawn: list[int] = []
        byes = {
            r.number: sorted({t for t, ms in groups.items() if set(ms) & set(r.byes)})
            for r in state.rounds
        }
        shown = team_names
    else:
        entrants = [p.player_id for p in state.players]
        withdrawn = [p.player_id for p in state.players if p.withdrawn_after is not None]
        byes = {r.number: list(r.byes) for r in state.rounds}
        shown = names
    lines = ev.standings(
        game_scores_of(state),
        byes={n: b for n, b in byes.items() if b},
        order=order,
        entrants=entrants,
        withdrawn=withdrawn,
    )
    return Standings(
        tuple(
            StandingLine(
                place=line.place,
                shared=line.shared,
                entrant=line.entrant,
                name=shown.get(line.entrant, "?"),
                wins=line.wins,
                points=line.points_for,
                against=line.points_against,
                games=line.played,
                byes=line.byes,
                withdrawn=line.withdrawn,
            )
            for line in lines
        ),
        order,
        ev.describe(order),
        teams,
        tuple(lines),
    )


@dataclass(frozen=True)
class Money:
    """An event's pot, what each place wins, and the payments (the organiser holds the
    fees paid at the door and pays each prize)."""

    pool: Decimal
    prizes: tuple[tuple[int, str, Decimal], ...]
    kept: Decimal
    payments: tuple[tuple[str | None, str | None, Decimal], ...]


def money(state: EventState, found: Standings) -> Money | None:
    """The prize money by the event's split (``rules.events.prizes``); None without an
    entry fee."""
    info = state.event
    if info.entry_fee is None or not info.prize_split:
        return None
    fee = Decimal(info.entry_fee)
    entrants = [p.player_id for p in state.players]
    pool = ev.prize_pool(fee, len(entrants))
    places = {line.entrant: line.place for line in found.engine}
    if info.knockout_size is not None:
        from .knockout import knockout_places

        by_knockout = knockout_places(state, found.engine)
        if by_knockout is None:  # paid once the final is played
            return None
        places = by_knockout
    split = ev.split_prizes(pool, [Decimal(p) for p in info.prize_split], places)
    names = {line.entrant: line.name for line in found.lines}
    paid = ev.payouts(split, fee, entrants)
    return Money(
        pool,
        tuple((prize.place, names.get(prize.player, "?"), prize.amount) for prize in split.prizes),
        split.kept,
        tuple(
            (
                None if p.payer is None else names.get(p.payer, "?"),
                None if p.payee is None else names.get(p.payee, "?"),
                p.amount,
            )
            for p in paid
        ),
    )
