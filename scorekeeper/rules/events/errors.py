"""The events engine's one error type: a seating, standing or prize that cannot be, with a
stable code and its parameters (as ``RuleError`` is the game engine's).

The English text is built from a template per code (marked with N_), so a page translates
the template and fills in the same parameters, without parsing English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import N_

#: Message templates, by stable error code. Parameters are filled in with str.format.
MESSAGES: Mapping[str, str] = {
    # Who plays.
    "too-few-players": N_("{format} needs at least {min} players, not {count}"),
    "player-twice": N_("player {player} is listed twice"),
    "rounds-range": N_("the number of rounds must be a whole number of at least 1, not {rounds}"),
    "round-number": N_("a round is numbered from 1, not {round}"),
    "too-many-rounds": N_(
        "{count} players can play at most {max} rounds without anyone partnering "
        "the same player twice, not {rounds}"
    ),
    "no-new-partners": N_(
        "no pairing of the {count} players in round {round} gives everyone a new partner"
    ),
    "per-table": N_("a table of players each for themselves seats 2 to 4, not {per_table}"),
    # A round's results (progressive movement).
    "no-result": N_("table {table} has no result yet"),
    "result-unknown-table": N_("round {round} has no table {table}"),
    "result-not-a-side": N_("the winners given for table {table} are not one side of that table"),
    "result-ranking": N_(
        "table {table} plays each for themselves: give its {count} players, best first"
    ),
    # Fixed teams.
    "too-few-teams": N_("{format} needs at least {min} teams, not {count}"),
    "team-twice": N_("team {team} is listed twice"),
    "knockout-size": N_("a knockout is played by 2, 4, 8, 16... teams, not {count}"),
    "best-of": N_("a match is the best of an odd number of games (1, 3, 5...), not {best_of}"),
    "match-unknown": N_("the knockout has no match {match} in round {round}"),
    "match-waiting": N_("match {match} of round {round} is still waiting for its teams"),
    "match-wins": N_(
        "{top_wins} to {bottom_wins} cannot be the games won in a best of {best_of}: "
        "each side wins 0 to {needed}, and only one side reaches {needed}"
    ),
    "match-decided": N_("match {match} of round {round} is decided, and the next round has begun"),
    # Standings.
    "tie-breaks-empty": N_("the standings need at least one way of ranking"),
    "tie-break-twice": N_("{tie_break} is listed twice in the tie-breaks"),
    "bye-and-game": N_("player {player} has a bye in round {round} and a game in it too"),
    "game-unfinished": N_("the game is not finished, so it has no result for the standings"),
    "sides-mismatch": N_("the players must be given for each of the game's sides: {sides}"),
    # A league.
    "league-points": N_("points per place or per win must be whole numbers of at least 0"),
    # Money.
    "fee-value": N_("the entry fee must be an amount of 0 or more in whole cents, not {value}"),
    "entrants-value": N_(
        "the number of entrants must be a whole number of at least 0, not {count}"
    ),
    "percent-value": N_("a place's share must be a percentage from 0 to 100, not {value}"),
    "percent-sum": N_(
        "the places' shares add up to {total} percent; at most 100 percent can be paid out"
    ),
    "place-value": N_("player {player}'s place must be a whole number of at least 1, not {place}"),
    "pool-mismatch": N_("the pool of {pool} is not the entry fee {fee} times the {count} entrants"),
    "pool-value": N_("the prize pool must be an amount of 0 or more in whole cents, not {value}"),
}


class EventError(ValueError):
    """A seating, standing, league or prize request that breaks a rule; str(error) is one line.

    ``code`` and ``params`` are stable, for translation (``MESSAGES[code]`` is the English
    template, filled with ``params``).
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """Say what is wrong, in English."""
        return MESSAGES[self.code].format(**self.params)
