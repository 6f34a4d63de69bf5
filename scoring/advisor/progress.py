"""How far a table build has got, for whoever is listening (the CLI's progress line).

Builds report `(what, done, total)` through `report`; a caller that wants to hear it
wraps the work in `with listening(callback):`. Nobody listening costs nothing. A context
variable rather than a parameter, because the builds start deep inside `advise`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Listener = Callable[[str, int, int], None]

_listener: ContextVar[Listener | None] = ContextVar("dicecam_advisor_progress", default=None)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send every build's progress inside the block to `listener(what, done, total)`."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


def report(what: str, done: int, total: int) -> None:
    """Tell the listener, if any, that `done` of `total` steps of `what` are finished."""
    listener = _listener.get()
    if listener is not None:
        listener(what, done, total)
