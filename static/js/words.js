// The words a page's script says come from the server, in the page's language, with
// {name} where a value goes (templates/games/_offline.html, _live.html, _connection.html).

// Put the values into the words: fill("Hand {number}", { number: 3 }) is "Hand 3". A name
// with no value is left as written.
export function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}
