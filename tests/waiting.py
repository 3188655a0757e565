"""Wait for a condition, not for a time: ``wait_until(condition, timeout)``.

A test that sleeps a fixed time hopes what it waits for has happened by then: on a busy
machine it has not, and on an idle one the test waits for nothing. This asks again and
again, goes on the moment the answer is yes, and fails naming what never came.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: How often the condition is asked.
EVERY = 0.05


def wait_until(
    condition: Callable[[], T], timeout: float, *, every: float = EVERY, awaited: str = ""
) -> T:
    """Ask ``condition`` until it answers something true, and return that answer; after
    ``timeout`` seconds fail the test, saying what was ``awaited`` (or the condition's
    name). The condition is asked once more at the deadline, so a slow last step counts."""
    deadline = time.monotonic() + timeout
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() >= deadline:
            said = awaited or getattr(condition, "__name__", repr(condition))
            raise AssertionError(f"waited {timeout:g} s for {said}, in vain")
        time.sleep(every)
