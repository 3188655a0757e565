"""A game's names shortened for the narrow columns of a phone's sheet, kept distinct."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

#: How many letters a name keeps in the columns of a phone's sheet, by how many columns
#: share the screen (fewer sides, wider columns: "Bogdan" fits four sides on 360 px).
SHORT_LETTERS = {1: 12, 2: 12, 3: 8, 4: 6, 5: 4}
#: ... and with six sides or more (and under the hand number, where the dealer is written).
FEWEST_LETTERS = 3


def _short_candidates(name: str, letters: int) -> list[str]:
    """The ways to shorten a name to about ``letters`` letters, most readable first, the
    whole name last: its first letters, its words' initials, one letter more, its first
    letters but one and its last, then ever longer beginnings."""
    whole = unicodedata.normalize("NFC", name.strip())
    words = whole.split()
    if len(whole) <= letters + 1:
        # A short name is never made into another one ("Anna" is not "Ana").
        return list(dict.fromkeys([whole[:letters], whole]))
    found = [whole[:letters]]
    if len(words) > 1:
        found.append("".join(word[0] for word in words[:letters]))
    found.append(whole[: letters + 1])
    found.append(whole[: letters - 1] + whole[-1])
    found.extend(whole[:length] for length in range(letters + 2, len(whole) + 1))
    found.append(whole)
    return list(dict.fromkeys(found))


def short_names(names: Sequence[str], letters: int = FEWEST_LETTERS) -> tuple[str, ...]:
    """Shorten names for the narrow columns of a phone's sheet, keeping them distinct
    (whatever the case): ``Margareta, Marian, Bob`` are ``Marg, Mari, Bob``.

    Every name starts at its first ``letters`` letters; while two read alike, each of them
    takes its next way of being shortened (``_short_candidates``), the whole name at the
    latest.
    """
    candidates = [_short_candidates(name, letters) for name in names]
    level = [0] * len(names)
    while True:
        shorts = [options[at] for options, at in zip(candidates, level, strict=True)]
        keys = [short.casefold() for short in shorts]
        clashing = [i for i, key in enumerate(keys) if keys.count(key) > 1]
        moved = False
        for i in clashing:
            if level[i] < len(candidates[i]) - 1:
                level[i] += 1
                moved = True
        if not moved:
            return tuple(shorts)
