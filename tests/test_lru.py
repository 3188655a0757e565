"""The process's bounded keep (``scorekeeper.lru.LRU``): what it forgets first, and a value
made once for a key."""

from __future__ import annotations

from scorekeeper.lru import LRU


def test_the_least_recently_used_is_forgotten_first() -> None:
    kept: LRU[str] = LRU(2)
    kept.put("a", "A")
    kept.put("b", "B")
    assert kept.get("a") == "A"  # "a" is now the latest used
    kept.put("c", "C")
    assert kept.get("b") is None
    assert (kept.get("a"), kept.get("c")) == ("A", "C")


def test_get_or_make_makes_a_value_once_and_keeps_it() -> None:
    kept: LRU[list[int]] = LRU(4)
    made: list[str] = []

    def make(key: str) -> list[int]:
        made.append(key)
        return [len(made)]

    first = kept.get_or_make("x", lambda: make("x"))
    assert kept.get_or_make("x", lambda: make("x")) is first
    assert kept.get_or_make("y", lambda: make("y")) == [2]
    assert made == ["x", "y"]
