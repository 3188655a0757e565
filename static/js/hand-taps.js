// "The rest to" on a hand form of two sides (templates/games/_hand_form.html): one tap gives
// every point left untapped to one side, then only the exceptions are tapped. The server
// does the same with a form posted without this script (scorekeeper/games/forms.py); here
// the rows show it as it is tapped. No page here: tests/js/hand-taps.test.mjs.

// Who set a row's tap: the person, or "the rest to" (a count may set Game too: counter.js).
export const BY_PERSON = "person";
export const BY_REST = "rest";

// The taps "the rest to" makes. `rows` are the point rows in order, each
// { name, value, by }: the row's field name, the value tapped (null: none), and who tapped
// it (BY_PERSON, BY_REST, or another script's mark). `side` is the value of the side "the
// rest to" names (null: none). `leave` names the rows it must not fill (Game, when the
// count credits it). A row untapped or filled by "the rest to" before takes `side`; a row
// the person tapped stays. Returns [{ name, value }], the taps to make.
export function restTaps(rows, side, leave = []) {
  if (side === null || side === undefined || side === "") { return []; }
  return rows
    .filter((row) => leave.indexOf(row.name) === -1)
    .filter((row) => row.value === null || row.by === BY_REST)
    .filter((row) => row.value !== side)
    .map((row) => ({ name: row.name, value: side }));
}
