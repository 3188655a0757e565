// The new-game form's "Shape of the game" (RULES.md section 10), as the setup form shows it
// while points are ticked (static/js/shape.js draws it): the points' total, and the highest
// bid and smudge bid that follow. The server works out the same when the form is sent
// (scorekeeper.rules Variant.house_rules: the highest bid is the points' total unless the
// table gives one, the smudge bid the highest bid unless the table gives one);
// tests/cases/highest_bid.json is one table of cases both are tested against.

// The points in play: the worths of the points ticked, added up.
export function pointsTotal(worths) {
  return worths.reduce((sum, worth) => sum + worth, 0);
}

// The boxes after the points ticked now add up to `total`. `shape` is the form as it was:
// { total, highest, smudge }, the bids as their boxes hold them (text; smudge null where the
// game has no smudge bid). A highest bid that was the total follows it; a smudge bid that
// was the highest bid follows that. A bid typed otherwise stays as typed.
export function afterPoints(shape, total) {
  const highest = same(shape.highest, shape.total) ? String(total) : shape.highest;
  return { total, highest, smudge: following(shape, highest) };
}

// The boxes after the highest bid is typed as `highest`: a smudge bid that was the highest
// bid follows it.
export function afterHighest(shape, highest) {
  return { total: shape.total, highest, smudge: following(shape, highest) };
}

function following(shape, highest) {
  if (shape.smudge === null) { return null; }
  return same(shape.smudge, shape.highest) ? highest : shape.smudge;
}

function same(box, value) {
  return String(box).trim() === String(value);
}
