"""Where a server keeps its games: SQLite in the data folder, or a PostgreSQL server.

`backend_for(config)` picks one: `DATABASE_URL` (from `DICECAM_DATABASE_URL` or
`dicecam serve --database`) set to a `postgresql://` URL means PostgreSQL, else the
SQLite file `DATABASE` in the data folder. Only the store (its SQL) and the live
notifier differ; every rule runs the same code on both.

A backend's life: `migrate()` once before serving (in the parent, before worker
processes start), `start()` in each process that serves (its own connections,
threads and notifier, never inherited across a fork), `store()` per request,
`close()` when the process stops.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from dicecam.webapp.live import LocalNotifier, Notifier
from dicecam.webapp.store import Store

POSTGRES_SCHEMES = ("postgresql", "postgres")
DEFAULT_POOL = 8  # connections per worker; a request borrows one per statement or transaction


class DataFolderError(RuntimeError):
    """The data folder cannot be used (its database needs an upgrade it cannot get)."""


class DatabaseError(RuntimeError):
    """The configured database cannot be used; the message is one line for the user."""


def is_postgres_url(url: str) -> bool:
    return urlsplit(url).scheme in POSTGRES_SCHEMES


def safe_url(url: str) -> str:
    """`url` fit to print: the password is left out."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


class Backend(Protocol):
    kind: str  # "sqlite" or "postgresql"
    several_processes: bool  # whether worker processes may share it

    def where(self) -> str:
        """The database, as the banner and error messages show it (no password)."""

    def migrate(self) -> int:
        """Create or upgrade the schema to the latest version; the version found."""

    def start(self, *, read_only: bool) -> None:
        """Open this process's connections and notifier."""

    def store(self) -> Store:
        """A store handle for one request."""

    @property
    def notifier(self) -> Notifier:
        """This process's live-update notifier (after `start`)."""

    def close(self) -> None:
        """Close this process's connections and wake its streams for good."""


class SQLiteBackend:
    """One SQLite file; one process (its writers queue on a lock in that process)."""

    kind = "sqlite"
    several_processes = False

    def __init__(self, path: str) -> None:
        self.path = path
        self.read_only = False
        self.keeper: Any = None
        self._notifier = LocalNotifier()
        self._write_lock = threading.Lock()

    def where(self) -> str:
        return self.path

    def migrate(self) -> int:
        from dicecam.webapp import sqlite_store

        return sqlite_store.upgrade(self.path)

    def start(self, *, read_only: bool) -> None:
        from dicecam.webapp import sqlite_store

        self.read_only = read_only
        if read_only:
            if Path(self.path).exists() and sqlite_store.needs_upgrade(self.path):
                raise DataFolderError(
                    f"the data folder {Path(self.path).parent} is read-only and its database must be upgraded first"
                )
        else:
            self.migrate()
            self.keeper = sqlite_store.keeper(self.path)

    def store(self) -> Store:
        from dicecam.webapp.sqlite_store import SQLiteStore

        return SQLiteStore(
            self.path, read_only=self.read_only, on_commit=self._notifier.notify, write_lock=self._write_lock
        )

    @property
    def notifier(self) -> Notifier:
        return self._notifier

    def close(self) -> None:
        self._notifier.close()
        if self.keeper is not None:
            self.keeper.close()
            self.keeper = None


class PostgresBackend:
    """A PostgreSQL database shared by any number of worker processes."""

    kind = "postgresql"
    several_processes = True

    def __init__(self, url: str, *, pool_size: int = DEFAULT_POOL) -> None:
        _require_psycopg()
        self.url = url
        self.pool_size = pool_size
        self.read_only = False
        self.database: Any = None
        self._notifier: Any = None

    def where(self) -> str:
        return safe_url(self.url)

    def _unreachable(self, exc: Exception) -> DatabaseError:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return DatabaseError(f"cannot use the database {self.where()}: {reason}")

    def migrate(self) -> int:
        import psycopg

        from dicecam.webapp import postgres_store

        try:
            return postgres_store.upgrade(self.url)
        except (psycopg.Error, postgres_store.SchemaError) as exc:
            raise self._unreachable(exc) from exc

    def start(self, *, read_only: bool) -> None:
        import psycopg

        from dicecam.webapp.postgres_live import PostgresNotifier
        from dicecam.webapp.postgres_store import PostgresDatabase

        self.read_only = read_only
        self.migrate()
        try:
            self.database = PostgresDatabase(self.url, pool_size=self.pool_size)
        except psycopg.Error as exc:
            raise self._unreachable(exc) from exc
        self._notifier = PostgresNotifier(self.url, self.database.channel)

    def store(self) -> Store:
        from dicecam.webapp.postgres_store import PostgresStore

        return PostgresStore(self.database, read_only=self.read_only)

    @property
    def notifier(self) -> Notifier:
        return self._notifier

    def close(self) -> None:
        if self._notifier is not None:
            self._notifier.close()
        if self.database is not None:
            self.database.close()
            self.database = None


def _require_psycopg() -> None:
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as exc:
        raise DatabaseError(
            'PostgreSQL needs psycopg, which this installation lacks: pip install "dicecam[postgres]"'
        ) from exc


def backend_for(config: Mapping[str, Any]) -> Backend:
    """The backend the configuration names (not started yet)."""
    url = config.get("DATABASE_URL")
    if url:
        if not is_postgres_url(url):
            raise DatabaseError(
                f"the database URL must start with postgresql:// (got {safe_url(url)!r}); "
                "without one, games are kept in SQLite in the data folder"
            )
        return PostgresBackend(url, pool_size=int(config.get("DATABASE_POOL") or DEFAULT_POOL))
    return SQLiteBackend(config["DATABASE"])
