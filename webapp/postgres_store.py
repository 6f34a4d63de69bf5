"""The store on PostgreSQL (psycopg 3): the same rows and guarantees as `sqlite_store`.

Worker processes share nothing but the database, so nothing here relies on a lock in
one process: a write is one database transaction that locks the game's row first
(`SELECT ... FOR UPDATE`), and the compare-and-swap on `version` is in the UPDATE.
Two phones writing to the same game queue on that row lock; writes to other games
never wait for each other. Each written game is announced with `pg_notify` inside the
transaction, so PostgreSQL delivers it at commit (and never for a rolled-back write)
to the `LISTEN` connection of every worker (`webapp.postgres_live`).

A request borrows a pooled connection per statement, and for the whole of a
transaction: a phone's photo being read holds no connection. The tables live in the
connection's current schema (`options=-csearch_path=NAME` in the URL puts them in
another), versioned in `dicecam_schema` with the same step numbers as SQLite's
`PRAGMA user_version`. Times are the app's ISO-8601 UTC texts, compared as text
(`COLLATE "C"`) exactly as SQLite compares them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from dicecam.webapp.errors import DatabaseUnavailable, DiskFull, ReadOnly
from dicecam.webapp.live import GONE
from dicecam.webapp.rows import LIVE, GameRow, Summary, ThrowRow
from dicecam.webapp.store import SchemaTooNew

_GAME_COLUMNS = "id, variant, version, summary, created, updated"
_THROW_FIELDS = tuple(ThrowRow.__dataclass_fields__)
_THROW_COLUMNS = ", ".join(_THROW_FIELDS)

# A write waits at most this long for another phone's write to the same game, and a
# connection left inside a transaction (a stuck worker) is ended by the server.
LOCK_TIMEOUT = "15s"
IDLE_IN_TRANSACTION_TIMEOUT = "60s"
CONNECT_TIMEOUT_S = 10


def _base_schema(conn: psycopg.Connection) -> None:
    """Version 1: the first release's tables (`schema.sql`) in PostgreSQL's types."""
    conn.execute(
        """
        CREATE TABLE game (
            id        TEXT PRIMARY KEY,
            variant   TEXT NOT NULL,
            players   TEXT NOT NULL,
            log       TEXT NOT NULL,
            version   INTEGER NOT NULL DEFAULT 1,
            finished  BOOLEAN NOT NULL DEFAULT FALSE,
            created   TEXT COLLATE "C" NOT NULL,
            updated   TEXT COLLATE "C" NOT NULL
        )
        """
    )
    conn.execute(
        """
        CREATE TABLE throw (
            id               TEXT PRIMARY KEY,
            game_id          TEXT NOT NULL REFERENCES game(id) ON DELETE CASCADE,
            seq              INTEGER NOT NULL,
            base_event       INTEGER NOT NULL,
            number           INTEGER NOT NULL,
            player           TEXT NOT NULL,
            source           TEXT NOT NULL,
            status           TEXT NOT NULL DEFAULT 'open',
            photo_sha256     TEXT,
            photo_type       TEXT,
            annotated_sha256 TEXT,
            width            INTEGER,
            height           INTEGER,
            dice_read        TEXT NOT NULL,
            dice             TEXT NOT NULL,
            corrections      TEXT NOT NULL DEFAULT '[]',
            entry            TEXT,
            entry_event      INTEGER,
            history          TEXT NOT NULL DEFAULT '[]',
            low_confidence   DOUBLE PRECISION,
            read_ms          DOUBLE PRECISION,
            created          TEXT COLLATE "C" NOT NULL,
            created_by       TEXT,
            UNIQUE (game_id, seq)
        )
        """
    )
    conn.execute("CREATE INDEX throw_game ON throw (game_id, base_event)")
    # Deleting a game asks which of its photos another throw still shows.
    conn.execute("CREATE INDEX throw_photo ON throw (photo_sha256)")
    conn.execute("CREATE INDEX throw_annotated ON throw (annotated_sha256)")


def _add_summary(conn: psycopg.Connection) -> None:
    """Version 2: each game's start-page summary beside its log, so listing never replays."""
    from dicecam.webapp.legacy import upgrade_log

    conn.execute("ALTER TABLE game ADD COLUMN summary TEXT")
    for game_id, log in conn.execute("SELECT id, log FROM game").fetchall():
        # An earlier release's names this one refuses are repaired first (webapp.legacy).
        text, summary = upgrade_log(log)
        conn.execute("UPDATE game SET log = %s, players = %s, summary = %s WHERE id = %s",
               (text, json.dumps(list(summary.players), ensure_ascii=False), summary.to_json(), game_id))
    conn.execute("CREATE INDEX game_updated ON game (updated)")


# Step n upgrades a database at version n - 1 to version n, as in sqlite_store (the
# numbers mean the same on both backends); append, never edit.
def _add_left_out(conn: psycopg.Connection) -> None:
    """Version 3: how many dice a throw's photo showed beyond its count (None before)."""
    conn.execute("ALTER TABLE throw ADD COLUMN left_out INTEGER")


def _add_left_out_dice(conn: psycopg.Connection) -> None:
    """Version 4: the dice a throw's photo showed beyond its count, read (JSON; None before)."""
    conn.execute("ALTER TABLE throw ADD COLUMN left_out_dice TEXT")


MIGRATIONS: tuple[Callable[[psycopg.Connection], None], ...] = (
    _base_schema, _add_summary, _add_left_out, _add_left_out_dice)
LATEST = len(MIGRATIONS)


class SchemaError(RuntimeError):
    """dicecam's tables cannot be made or read where the URL points (one line for the user)."""


def connect(url: str, **kwargs: Any) -> psycopg.Connection:
    """A plain connection (autocommit) with a bounded wait for an unreachable server."""
    return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S, **kwargs)


def _value(conn: psycopg.Connection, query: str) -> Any:
    """The value a query of one expression answers (always one row)."""
    row = conn.execute(query).fetchone()
    assert row is not None, query
    return row[0]


def _schema(conn: psycopg.Connection) -> str:
    name = _value(conn, "SELECT current_schema()")
    if name is None:
        path = _value(conn, "SHOW search_path")
        raise SchemaError(f"none of the schemas in search_path ({path}) exists in this database")
    return str(name)


def _version(conn: psycopg.Connection) -> int:
    if _value(conn, "SELECT to_regclass('dicecam_schema')") is None:
        return 0
    row = conn.execute("SELECT version FROM dicecam_schema").fetchone()
    return int(row[0]) if row else 0


def upgrade(url: str) -> int:
    """Create or upgrade dicecam's tables to `LATEST` in one transaction; the version found.

    Workers starting at once take turns (an advisory lock per schema), so the steps run once.
    """
    with connect(url) as conn:
        schema = _schema(conn)
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"dicecam schema {schema}",))
                found = _version(conn)
                if found > LATEST:
                    raise SchemaTooNew(
                        f"the database's schema {schema} was written by a newer dicecam "
                        f"(schema {found}, this one knows {LATEST})"
                    )
                if found < LATEST:
                    if found == 0:
                        conn.execute("CREATE TABLE dicecam_schema (version INTEGER NOT NULL)")
                        conn.execute("INSERT INTO dicecam_schema VALUES (0)")
                    for step in MIGRATIONS[found:]:
                        step(conn)
                    conn.execute("UPDATE dicecam_schema SET version = %s", (LATEST,))
        except psycopg.errors.InsufficientPrivilege as exc:
            raise SchemaError(
                f"cannot create dicecam's tables in schema {schema}: {exc.diag.message_primary}"
                " (make the role the database's owner: createdb -O ROLE DBNAME)"
            ) from exc
        return found


def needs_upgrade(url: str) -> bool:
    with connect(url) as conn:
        return _version(conn) < LATEST


def channel_of(schema: str) -> str:
    """The notification channel of the games in `schema` (an identifier: at most 63 bytes)."""
    return f"dicecam.{schema}"[:63]


class PostgresDatabase:
    """One process's connections to the database: a small pool and the schema's channel."""

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        self.url = url
        with connect(url) as conn:
            self.channel = channel_of(_schema(conn))
        # Typed by its connections' rows (dict_row below); the class stays the pool's own.
        self.pool: ConnectionPool[psycopg.Connection[DictRow]] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={
                "autocommit": True, "row_factory": dict_row, "connect_timeout": CONNECT_TIMEOUT_S,
                "application_name": "dicecam",  # what pg_stat_activity shows a DBA
            },
            configure=_configure,
            timeout=10.0,  # waiting for a free connection; then 503
            name="dicecam",
            open=False,
        )
        self.pool.open(wait=False)

    def recover(self) -> None:
        """After a connection turned out dead (the server restarted): test every idle one
        and replace those that are dead too, so the next try gets a live one."""
        try:
            self.pool.check()
        except psycopg.Error:
            pass  # the server is still away: the next try says so

    def close(self) -> None:
        self.pool.close(timeout=5.0)


def _configure(conn: psycopg.Connection[Any]) -> None:
    conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
    conn.execute(f"SET idle_in_transaction_session_timeout = '{IDLE_IN_TRANSACTION_TIMEOUT}'")
    # An entry the phone heard "saved" is on disk, whatever the server's default says.
    conn.execute("SET synchronous_commit = on")


def _refused(exc: psycopg.Error) -> Exception:
    """The user-facing error for a statement PostgreSQL did not carry out."""
    if isinstance(exc, psycopg.errors.DiskFull):
        return DiskFull()
    if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
        return ReadOnly()
    if isinstance(exc, psycopg.OperationalError):  # connection lost, server restarting, lock timeout
        return DatabaseUnavailable()
    return exc


def _game_row(row: dict[str, Any]) -> GameRow:
    return GameRow(
        id=row["id"],
        variant=row["variant"],
        version=row["version"],
        summary=Summary.from_json(row["summary"]),
        created=row["created"],
        updated=row["updated"],
    )


def _throw_row(row: dict[str, Any]) -> ThrowRow:
    return ThrowRow.from_columns(row)


class PostgresStore:
    """`webapp.store.Store` over a `PostgresDatabase`: one handle per request (not shared
    between threads); connections come from the process's pool."""

    def __init__(self, database: PostgresDatabase, *, read_only: bool = False) -> None:
        self.database = database
        self.read_only = read_only
        self._conn: psycopg.Connection[DictRow] | None = None  # held for the current transaction
        self._written: dict[str, int] = {}

    def close(self) -> None:
        """Nothing held between statements."""

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[DictRow]]:
        if self._conn is not None:
            yield self._conn
            return
        pool = self.database.pool
        try:
            conn = pool.getconn()
        except PoolTimeout as exc:  # every connection busy for 10 s, or the server unreachable
            raise DatabaseUnavailable() from exc
        try:
            yield conn
        finally:
            pool.putconn(conn)  # a broken connection is thrown away, not reused

    def _rows(self, query: str, args: Collection[object] = ()) -> list[dict[str, Any]]:
        # Outside a transaction a read may meet a connection the server dropped (a restart):
        # the pool's idle connections are checked, and the read is tried once more.
        for attempt in (1, 2):
            try:
                with self._connection() as conn:
                    return conn.execute(query, tuple(args)).fetchall()
            except psycopg.OperationalError as exc:
                if self._conn is not None or attempt == 2 or isinstance(exc, psycopg.errors.LockNotAvailable):
                    raise _refused(exc) from exc
                self.database.recover()
            except psycopg.Error as exc:
                raise _refused(exc) from exc
        raise AssertionError("unreachable")

    def _write(self, query: str, args: Collection[object]) -> int:
        """Run a write inside the current transaction; the number of rows it touched."""
        assert self._conn is not None, "writes happen inside transaction()"
        try:
            return self._conn.execute(query, tuple(args)).rowcount
        except psycopg.Error as exc:
            raise _refused(exc) from exc

    # -- reading ---------------------------------------------------------------

    def game(self, game_id: str, *, lock: bool = False) -> GameRow | None:
        lock_clause = " FOR UPDATE" if lock and self._conn is not None else ""
        rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM game WHERE id = %s{lock_clause}", (game_id,))
        return _game_row(rows[0]) if rows else None

    def game_log(self, game_id: str, version: int) -> str | None:
        rows = self._rows("SELECT log FROM game WHERE id = %s AND version = %s", (game_id, version))
        return rows[0]["log"] if rows else None

    def games(self, ids: Collection[str] | None = None) -> list[GameRow]:
        order = " ORDER BY updated DESC, created DESC"
        if ids is None:
            rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM game" + order)
        else:
            rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM game WHERE id = ANY(%s)" + order, (list(ids),))
        return [_game_row(r) for r in rows]

    def finished_before(self, stamp: str) -> list[str]:
        return [r["id"] for r in self._rows("SELECT id FROM game WHERE updated < %s AND finished", (stamp,))]

    def throws(self, game_id: str, *, base_event: int | None = None, live: bool = False) -> list[ThrowRow]:
        query = f"SELECT {_THROW_COLUMNS} FROM throw WHERE game_id = %s"
        args: list[object] = [game_id]
        if base_event is not None:
            query += " AND base_event = %s"
            args.append(base_event)
        if live:
            query += " AND status = ANY(%s)"
            args.append(list(LIVE))
        return [_throw_row(r) for r in self._rows(query + " ORDER BY seq", args)]

    def throw(self, game_id: str, throw_id: str) -> ThrowRow | None:
        rows = self._rows(f"SELECT {_THROW_COLUMNS} FROM throw WHERE game_id = %s AND id = %s", (game_id, throw_id))
        return _throw_row(rows[0]) if rows else None

    def last_entered(self, game_id: str) -> ThrowRow | None:
        rows = self._rows(
            f"SELECT {_THROW_COLUMNS} FROM throw WHERE game_id = %s AND status = 'entered' ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        return _throw_row(rows[0]) if rows else None

    # -- writing ---------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One database transaction on one connection; each written game is announced
        (`pg_notify`) as part of it, so listeners hear of it exactly when it commits."""
        if self.read_only:
            raise ReadOnly()
        if self._conn is not None:
            raise RuntimeError("transactions do not nest")
        with self._begun() as conn:
            self._conn, self._written = conn, {}
            try:
                yield
                for game_id, version in self._written.items():
                    conn.execute("SELECT pg_notify(%s, %s)", (self.database.channel, f"{game_id} {version}"))
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.info.transaction_status != TransactionStatus.IDLE:
                    try:
                        conn.execute("ROLLBACK")
                    except psycopg.Error:
                        pass  # the connection is gone: the server has rolled back already
                if isinstance(exc, psycopg.Error):
                    raise _refused(exc) from exc
                raise
            finally:
                self._conn, self._written = None, {}

    @contextmanager
    def _begun(self) -> Iterator[psycopg.Connection[DictRow]]:
        """A pooled connection inside BEGIN. A connection the server dropped (a restart)
        fails at BEGIN, before anything was written: then the pool is checked and the
        transaction begins on a live one."""
        for attempt in (1, 2):
            with self._connection() as conn:
                try:
                    conn.execute("BEGIN")
                except psycopg.OperationalError as exc:
                    if attempt == 2:
                        raise _refused(exc) from exc
                    self.database.recover()
                    continue
                yield conn
                return

    def add_game(self, row: GameRow, log: str) -> None:
        self._write(
            "INSERT INTO game (id, variant, players, log, version, finished, created, updated, summary)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                row.id, row.variant, json.dumps(list(row.summary.players)), log, row.version,
                row.finished, row.created, row.updated, row.summary.to_json(),
            ),
        )
        self._written[row.id] = row.version

    def update_game(self, game_id: str, *, version: int, log: str, summary: Summary, updated: str) -> bool:
        count = self._write(
            "UPDATE game SET log = %s, version = version + 1, finished = %s, summary = %s, updated = %s"
            " WHERE id = %s AND version = %s",
            (log, summary.finished, summary.to_json(), updated, game_id, version),
        )
        if count != 1:
            return False
        self._written[game_id] = version + 1
        return True

    def delete_game(self, game_id: str) -> list[str]:
        shas = {
            sha
            for r in self._rows("SELECT photo_sha256, annotated_sha256 FROM throw WHERE game_id = %s", (game_id,))
            for sha in (r["photo_sha256"], r["annotated_sha256"])
            if sha
        }
        self._write("DELETE FROM throw WHERE game_id = %s", (game_id,))
        self._write("DELETE FROM game WHERE id = %s", (game_id,))
        self._written[game_id] = GONE
        if not shas:
            return []
        wanted = sorted(shas)
        still_used = {
            sha
            for r in self._rows(
                "SELECT photo_sha256, annotated_sha256 FROM throw"
                " WHERE photo_sha256 = ANY(%s) OR annotated_sha256 = ANY(%s)",
                (wanted, wanted),
            )
            for sha in (r["photo_sha256"], r["annotated_sha256"])
        }
        return sorted(shas - still_used)

    def next_seq(self, game_id: str) -> int:
        rows = self._rows("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM throw WHERE game_id = %s", (game_id,))
        return int(rows[0]["seq"])

    def add_throw(self, row: ThrowRow) -> None:
        columns = row.to_columns()  # names are ThrowRow's fields, never a client's
        names = ", ".join(columns)
        marks = ", ".join(["%s"] * len(columns))
        self._write(f"INSERT INTO throw ({names}) VALUES ({marks})", columns.values())

    def save_throw(self, row: ThrowRow) -> None:
        columns = row.to_columns()
        columns.pop("id")
        sets = ", ".join(f"{name} = %s" for name in columns)
        self._write(f"UPDATE throw SET {sets} WHERE id = %s", [*columns.values(), row.id])
