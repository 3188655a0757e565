"""A bounded, thread-safe map that forgets what was used least recently, one per app.

What a process keeps between requests (``operations.loading.Replays``)
is kept in one of these, by a key that names everything the value depends on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import current_app

V = TypeVar("V")
T = TypeVar("T")


class LRU(Generic[V]):
    """At most ``size`` values; a value found or put is the last to make way."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for ``key``, or ``make()``'s, kept. Made outside the lock: two
        threads that miss at once both make it, and the second one's is kept."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)


def per_app(name: str, make: Callable[[], T]) -> T:
    """The current app's one ``name``, made the first time (each app has its own: a test's
    database is not another's)."""
    found: T | None = current_app.extensions.get(name)
    if found is None:
        found = current_app.extensions.setdefault(name, make())
    return found
