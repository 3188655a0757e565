// The Game counter's sums (RULES.md section 10), as the hand form's counter shows them while
// they are typed (static/js/counter.js draws them). The server works out the same when the
// hand is saved (scorekeeper.rules.game_by_count); tests/cases/game_count.json is one table
// of cases both are tested against.

// Add up the counter. `sides` are the game's sides in order, each
// { players: [{ count, cards: [[worth, taken], ...] }, ...] } with its players in seat order:
// `count` is the number typed for the player (null: left empty), `cards` each rank's worth
// and how many the player took (null: left empty). `most` is the most the pack counts.
//
// A player whose cards are typed counts their cards (a ten 10, an ace 4...: the worths);
// else the count typed; a player left empty counts 0. Game goes to the side that counted
// most, to the one of its players who counted most (the first in seat order on a tie);
// to nobody when the highest count is shared.
//
// Returns { counts, totals, game, over }:
// - counts: per side, per player, the count their cards add up to (null: no card typed,
//   the player's own count box is left as typed);
// - totals: each side's count, or null when nothing is typed at all (the page shows none);
// - game: { side, player } (their places in `sides` and its players), { nobody: true } on a
//   tie, or null: nothing typed, or more counted than the pack holds (the server refuses
//   that hand, and says why);
// - over: whether more is counted than the pack holds.
export function countGame(sides, most) {
  let typed = false;
  const counts = sides.map((side) => side.players.map((player) => {
    const cards = player.cards.filter(([, taken]) => taken !== null);
    if (cards.length) { typed = true; }
    return cards.length ? cards.reduce((sum, [worth, taken]) => sum + worth * taken, 0) : null;
  }));
  const counted = sides.map((side, s) => side.players.map((player, p) => {
    if (counts[s][p] !== null) { return counts[s][p]; }
    if (player.count !== null) { typed = true; return player.count; }
    return 0;
  }));
  if (!typed) { return { counts, totals: null, game: null, over: false }; }
  const totals = counted.map((players) => players.reduce((sum, n) => sum + n, 0));
  const over = totals.reduce((sum, n) => sum + n, 0) > most;
  if (over) { return { counts, totals, game: null, over }; }
  const high = Math.max(...totals);
  const leaders = totals.map((total, s) => (total === high ? s : -1)).filter((s) => s >= 0);
  if (leaders.length > 1) { return { counts, totals, game: { nobody: true }, over }; }
  const side = leaders[0];
  const players = counted[side];
  const player = players.indexOf(Math.max(...players));
  return { counts, totals, game: { side, player }, over };
}

// What the counter does with Game (RULES.md section 10: the count credits Game only where
// Game is left untapped; the server refuses a tapped Game the counts contradict). `tapped`
// is Game's tap as a side of the counter ({ side } or { nobody: true }), or null; `byPerson`
// whether the person tapped it (not the counter itself, nor "the rest to"); `game` is
// countGame's (null: nothing to go by).
// Returns { tap, contradiction }: `tap` is what to tap for Game (countGame's game), when
// Game is untapped or was tapped by a script; `contradiction` is
// { kind, taker, leader } when the person's tap is against the count: kind "leader" (another
// side counted most), "tie" (the highest count is shared: Game goes to nobody) or "nobody"
// (Game tapped for nobody, but a side counted most). A person's tap is never changed.
export function gameCall({ tapped, byPerson, game }) {
  if (game === null || game === undefined) { return { tap: null, contradiction: null }; }
  if (!tapped || !byPerson) { return { tap: game, contradiction: null }; }
  const agrees = game.nobody
    ? Boolean(tapped.nobody)
    : !tapped.nobody && tapped.side === game.side;
  if (agrees) { return { tap: null, contradiction: null }; }
  let kind = "leader";
  if (game.nobody) { kind = "tie"; } else if (tapped.nobody) { kind = "nobody"; }
  return {
    tap: null,
    contradiction: { kind, taker: tapped, leader: game.nobody ? null : game.side },
  };
}
