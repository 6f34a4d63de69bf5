"""Live updates across worker processes: PostgreSQL's LISTEN/NOTIFY.

Every write announces itself with `pg_notify(channel, "<game id> <version>")` inside
its transaction (`webapp.postgres_store`), so PostgreSQL delivers it at commit to
every listening connection, whichever worker wrote it. Each worker keeps ONE
listening connection (a thread here) and fans what it hears out to its own streams
through a `LocalNotifier`; streams themselves hold no database connection.

If the listening connection drops (a database restart), the thread reconnects and
then reads the current version of every game its streams wait on, so a change made
while it was away still reaches the phones.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

import psycopg
from psycopg import sql

from dicecam.webapp.live import GONE, LocalNotifier
from dicecam.webapp.postgres_store import connect

log = logging.getLogger(__name__)

POLL_S = 1.0  # how often the listening thread looks whether it should stop
RETRY_S = (0.5, 1.0, 2.0, 5.0)  # waits between reconnection attempts, the last one repeated


def parse_payload(payload: str) -> tuple[str, int] | None:
    """`"<game id> <version>"` -> (id, version); None for anything else on the channel."""
    game_id, _, version = payload.partition(" ")
    try:
        return (game_id, int(version)) if game_id else None
    except ValueError:
        return None


class PostgresNotifier:
    """`webapp.live.Notifier` over LISTEN/NOTIFY on `channel` of the database at `url`."""

    def __init__(self, url: str, channel: str) -> None:
        self.url = url
        self.channel = channel
        self._local = LocalNotifier()
        self._watched: Counter[str] = Counter()  # game id -> streams waiting on it
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.listening = threading.Event()  # set while the LISTEN connection is up
        self._thread = threading.Thread(target=self._run, name="dicecam-listen", daemon=True)
        self._thread.start()

    # -- the Notifier interface -------------------------------------------------

    def notify(self, game_id: str, version: int) -> None:
        """Announce a change made outside a store transaction (the store's own writes
        announce themselves as part of their transaction)."""
        with connect(self.url) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (self.channel, f"{game_id} {version}"))

    def wait(self, game_id: str, after_version: int, timeout: float) -> int | None:
        with self._lock:
            self._watched[game_id] += 1
        try:
            return self._local.wait(game_id, after_version, timeout)
        finally:
            with self._lock:
                self._watched[game_id] -= 1
                if self._watched[game_id] <= 0:
                    del self._watched[game_id]

    def close(self) -> None:
        self._stop.set()
        self._local.close()
        self._thread.join(timeout=POLL_S + 5)

    # -- the listening thread ---------------------------------------------------

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                with connect(self.url, application_name="dicecam-listen") as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self._catch_up(conn)
                    self.listening.set()
                    failures = 0
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=POLL_S):
                            parsed = parse_payload(note.payload)
                            if parsed is not None:
                                self._local.notify(*parsed)
            except psycopg.Error as exc:
                self.listening.clear()
                wait = RETRY_S[min(failures, len(RETRY_S) - 1)]
                failures += 1
                log.warning("live updates: lost the database's notifications (%s); again in %.1f s", exc, wait)
                self._stop.wait(wait)
        self.listening.clear()

    def _catch_up(self, conn: psycopg.Connection) -> None:
        """Tell the waiting streams of changes this thread may have missed (it is listening
        already, so nothing later is missed either)."""
        with self._lock:
            ids = list(self._watched)
        if not ids:
            return
        now: dict[str, int] = dict(conn.execute("SELECT id, version FROM game WHERE id = ANY(%s)", (ids,)).fetchall())
        for game_id in ids:
            self._local.notify(game_id, int(now[game_id]) if game_id in now else GONE)

