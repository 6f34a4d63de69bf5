"""Live updates: a phone listens for "the game changed" instead of asking every few seconds.

Every committed write calls `notify(game_id, version)` once (the store calls it after
COMMIT). `GET /api/games/<id>/events` holds a server-sent event stream that waits on
the notifier: it sends the version at once, again within moments of each change,
a `: ping` comment every 15 s, and ends after about a minute (the browser's
EventSource reconnects by itself). Streams are capped, so held connections never
take all of the server's threads; over the cap the answer is 503 with Retry-After
and the page polls instead.

`Notifier` is the interface a multi-process backend (PostgreSQL LISTEN/NOTIFY,
issue 37) implements; `LocalNotifier` serves one process with a
`threading.Condition`, no polling.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Generator, Iterator
from typing import Protocol

GONE = -1  # the version announced when a game is deleted
CLOSED = -2  # what waiting streams get when the server shuts down

STREAM_S = 60.0
PING_S = 15.0
CHECK_S = 1.0  # how often a waiting stream looks whether its phone is still there
RETRY_MS = 3000
MAX_STREAMS = 32


class Notifier(Protocol):
    def notify(self, game_id: str, version: int) -> None:
        """Tell every waiting stream that `game_id` is now at `version` (GONE: deleted)."""

    def wait(self, game_id: str, after_version: int, timeout: float) -> int | None:
        """Block until `game_id` is at a version other than `after_version`; the new
        version, or None after `timeout` seconds (CLOSED once the notifier is closed)."""

    def close(self) -> None:
        """Wake every waiting stream for good (the server is stopping)."""


class LocalNotifier:
    """Notifications within one process."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._versions: dict[str, int] = {}
        self._closed = False

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def notify(self, game_id: str, version: int) -> None:
        with self._cond:
            known = self._versions.get(game_id)
            if version == GONE or known is None or version > known:
                self._versions[game_id] = version
                self._cond.notify_all()

    def wait(self, game_id: str, after_version: int, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if self._closed:
                    return CLOSED
                version = self._versions.get(game_id)
                if version is not None and (version == GONE or version > after_version):
                    return version
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)


class StreamSlots:
    """At most `limit` streams at once (a non-blocking counting semaphore)."""

    def __init__(self, limit: int = MAX_STREAMS) -> None:
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)
        self._lock = threading.Lock()
        self.active = 0

    def take(self) -> bool:
        if not self._slots.acquire(blocking=False):
            return False
        with self._lock:
            self.active += 1
        return True

    def give_back(self) -> None:
        with self._lock:
            self.active -= 1
        self._slots.release()


def _event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


class Stream:
    """The event stream of one game, starting at `version`, holding one of `slots`.

    The slot is given back exactly once: when the stream ends, or when the server
    closes it (the phone went away: the next write to its socket fails), or when it
    is closed before it ever started.
    """

    def __init__(
        self,
        notifier: Notifier,
        slots: StreamSlots,
        game_id: str,
        version: int,
        *,
        duration: float = STREAM_S,
        ping: float = PING_S,
        client_gone: Callable[[], bool] | None = None,
    ) -> None:
        self._events = _events(notifier, game_id, version, duration, ping, client_gone or (lambda: False))
        self._slots = slots
        self._open = True

    def __iter__(self) -> Iterator[str]:
        try:
            yield from self._events
        finally:
            self.close()

    def close(self) -> None:
        if self._open:
            self._open = False
            self._events.close()
            self._slots.give_back()


def _events(
    notifier: Notifier, game_id: str, version: int, duration: float, ping: float, client_gone: Callable[[], bool]
) -> Generator[str, None, None]:
    yield f"retry: {RETRY_MS}\n" + _event("version", {"version": version})
    start = time.monotonic()
    next_ping = start + ping
    end = start + duration
    while (now := time.monotonic()) < end:
        if client_gone():
            return  # the phone left: give the slot back now, not at the next failed write
        changed = notifier.wait(game_id, version, min(next_ping, end, now + CHECK_S) - now)
        if changed == CLOSED:
            return
        if changed == GONE:
            yield _event("gone", {})
            return
        if changed is not None:
            version = changed
            yield _event("version", {"version": version})
        elif time.monotonic() >= next_ping:
            yield ": ping\n\n"
            next_ping += ping
