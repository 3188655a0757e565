"""Every write of the data, and every read of a game: one module a job.

- ``loading``: read a game (``load``, or lock it for a change), a list page's games, the
  replays kept in memory, a game's export;
- ``games``: create, import, delete a game, and "Play again";
- ``hands``: record a hand (once, by its one-time key), correct one, undo the last;
- ``rule_sets``, ``nights``, ``players``: a table's saved rules, game nights, the roster
  (one person, one player);
- ``events``, ``event_setup``, ``rounds``, ``standings``, ``seasons``: tournaments and
  league nights: reading one, setting it up and registering its players, its rounds (the
  seating the engine works out, the games a round starts, the clock, time called), its
  standings and prize money, and league seasons; ``knockout``, ``bracket``: fixed teams'
  knockout after the round robin (starting it and each series' next game; its bracket
  replayed from its games); ``table_marks``: a round's tables' unconfirmed and disputed
  hands read at once; ``directors``: an event's director's code;
- ``logins``: the organiser login's limit on failed attempts, one for every worker;
- ``collection``: every game at once (export-all, import-all); ``seeded``: the seed's
  bulk write; ``sqlite_copy``: the SQLite file copied whole (``backup``);
- ``kept``: which stored games a record to import is identical to;
- ``trail``: every change kept in a chain per game, a hand confirmed or disputed by the
  other side; beside it what a change writes (``trail_changes``), the result signed and the
  game locked (``trail_signing``), the chain checked (``trail_check.verify``) and the trail
  in an export (``trail_export``);
- ``rows`` (the row types and their conversion to the engine's values), ``statements``
  (the prebuilt SQL) and ``writing`` (the write transaction and what a change rewrites)
  serve the others;
- ``errors``: what cannot be done, as a code and parameters, said at the edge (``explain``).

Callers name the module that does the job (``operations.hands.record_hand(...)``); only the
modules are imported here, no name is re-exported.
"""

from . import (
    bracket,
    collection,
    directors,
    errors,
    event_setup,
    events,
    games,
    hands,
    kept,
    knockout,
    loading,
    logins,
    nights,
    players,
    rounds,
    rows,
    rule_sets,
    seasons,
    seeded,
    sqlite_copy,
    standings,
    table_marks,
    trail,
    trail_changes,
    trail_check,
    trail_export,
    trail_signing,
)

__all__ = [
    "bracket",
    "collection",
    "directors",
    "errors",
    "event_setup",
    "events",
    "games",
    "hands",
    "kept",
    "knockout",
    "loading",
    "logins",
    "nights",
    "players",
    "rounds",
    "rows",
    "rule_sets",
    "seasons",
    "seeded",
    "sqlite_copy",
    "standings",
    "table_marks",
    "trail",
    "trail_changes",
    "trail_check",
    "trail_export",
    "trail_signing",
]
