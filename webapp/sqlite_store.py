"""The store on SQLite: one file in the data folder. All of the web app's SQL is here.

The schema is versioned with `PRAGMA user_version` and upgraded on open by the
steps in `MIGRATIONS`; a file made before versions existed (tables, version 0) is
version 1. The journal mode (WAL, so phones keep reading while one of them writes)
is set once, when the file is made: it is a property of the file, and setting it on
every connection is a write that fails when the folder is read-only.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Collection, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from dicecam.webapp.errors import DiskFull, ReadOnly
from dicecam.webapp.live import GONE
from dicecam.webapp.rows import LIVE, GameRow, Summary, ThrowRow
from dicecam.webapp.store import SchemaTooNew, iter_chunks

__all__ = ["LATEST", "MIGRATIONS", "SQLiteStore", "SchemaTooNew", "keeper", "needs_upgrade", "upgrade"]

_GAME_COLUMNS = "id, variant, version, summary, created, updated"
_THROW_FIELDS = tuple(ThrowRow.__dataclass_fields__)


def _base_schema(db: sqlite3.Connection) -> None:
    """Version 1: the tables as the first release made them."""
    script = resources.files("dicecam.webapp").joinpath("schema.sql").read_text(encoding="utf-8")
    # Statement by statement: `executescript` would commit the upgrade's transaction.
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""


def _add_summary(db: sqlite3.Connection) -> None:
    """Version 2: each game's start-page summary beside its log, so listing never replays."""
    from dicecam.webapp.legacy import upgrade_log

    db.execute("ALTER TABLE game ADD COLUMN summary TEXT")
    for game_id, log in db.execute("SELECT id, log FROM game").fetchall():
        # An earlier release's names this one refuses are repaired first (webapp.legacy).
        text, summary = upgrade_log(log)
        db.execute("UPDATE game SET log = ?, players = ?, summary = ? WHERE id = ?",
               (text, json.dumps(list(summary.players), ensure_ascii=False), summary.to_json(), game_id))
    db.execute("CREATE INDEX IF NOT EXISTS game_updated ON game (updated)")


def _add_left_out(db: sqlite3.Connection) -> None:
    """Version 3: how many dice a throw's photo showed beyond its count (None before)."""
    db.execute("ALTER TABLE throw ADD COLUMN left_out INTEGER")


def _add_left_out_dice(db: sqlite3.Connection) -> None:
    """Version 4: the dice a throw's photo showed beyond its count, read (JSON; None before),
    so a player can take one the count passed over."""
    db.execute("ALTER TABLE throw ADD COLUMN left_out_dice TEXT")


# Step n upgrades a file at version n - 1 to version n; append, never edit.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _base_schema, _add_summary, _add_left_out, _add_left_out_dice)
LATEST = len(MIGRATIONS)


def _open(path: str, *, read_only: bool) -> sqlite3.Connection:
    if read_only:
        uri = f"file:{quote(os.path.abspath(path))}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, timeout=15, isolation_level=None, check_same_thread=False)
            db.execute("SELECT 1 FROM sqlite_master LIMIT 1")
        except sqlite3.OperationalError:
            # A WAL file in a read-only folder cannot make its shared-memory file; nobody
            # can write there either, so reading it as immutable is safe.
            uri += "&immutable=1"
            db = sqlite3.connect(uri, uri=True, timeout=15, isolation_level=None, check_same_thread=False)
    else:
        db = sqlite3.connect(path, timeout=15, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    # FULL: a commit is on disk before the phone hears "entered", even across a power cut.
    db.execute("PRAGMA synchronous = FULL")
    return db


def keeper(path: str) -> sqlite3.Connection:
    """A connection the app holds open for its whole life and never uses.

    While one connection is open, SQLite keeps the WAL and its shared-memory file in
    place; without it each request's connection would make them anew (and close
    them again), which costs time and fails on a full disk even for reading.
    """
    db = _open(path, read_only=False)
    db.execute("SELECT 1 FROM game LIMIT 1").fetchall()
    return db


def _version(db: sqlite3.Connection) -> int:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version == 0 and db.execute("SELECT 1 FROM sqlite_master WHERE name = 'game'").fetchone():
        return 1  # made before the schema had a version
    return int(version)


def upgrade(path: str) -> int:
    """Create or upgrade the database file to `LATEST`; returns the version it had."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = _open(path, read_only=False)
    try:
        found = _version(db)
        if found > LATEST:
            raise SchemaTooNew(f"{path} was written by a newer dicecam (schema {found}, this one knows {LATEST})")
        if found == 0:
            db.execute("PRAGMA journal_mode = WAL")  # once, for the life of the file
        if found < LATEST:
            db.execute("BEGIN IMMEDIATE")
            try:
                for step in MIGRATIONS[found:]:
                    step(db)
                db.execute(f"PRAGMA user_version = {LATEST}")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return found
    finally:
        db.close()


def needs_upgrade(path: str) -> bool:
    """Whether `upgrade` would change the file (read-only check)."""
    if not Path(path).exists():
        return True
    db = _open(path, read_only=True)
    try:
        return _version(db) < LATEST
    finally:
        db.close()


def _game_row(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=row["id"],
        variant=row["variant"],
        version=row["version"],
        summary=Summary.from_json(row["summary"]),
        created=row["created"],
        updated=row["updated"],
    )


def _throw_row(row: sqlite3.Row) -> ThrowRow:
    return ThrowRow.from_columns({name: row[name] for name in _THROW_FIELDS})


def _refused(exc: sqlite3.Error) -> Exception:
    """The user-facing error for a write SQLite could not make."""
    text = str(exc).lower()
    if "readonly" in text or "read-only" in text:
        return ReadOnly()
    if "disk is full" in text or "disk i/o" in text:
        return DiskFull()
    return exc


class SQLiteStore:
    """`webapp.store.Store` over one SQLite file.

    `on_commit(game_id, version)` is called once per game written, after the write
    is committed (version `GONE` (-1) for a deleted game): live streams wake on it.
    `write_lock`, shared by the handles of one process, queues its writers before they
    ask SQLite: SQLite's own lock makes a waiting writer sleep and retry, and with many
    phones at once some wait seconds while others pass.
    """

    def __init__(
        self,
        path: str,
        *,
        read_only: bool = False,
        on_commit: Callable[[str, int], None] | None = None,
        write_lock: AbstractContextManager | None = None,
    ) -> None:
        self.path = path
        self.read_only = read_only
        self.on_commit = on_commit
        self.write_lock = write_lock or nullcontext()
        self._written: dict[str, int] = {}
        if read_only and not Path(path).exists():
            # A read-only folder with no games yet: an empty database in memory.
            self.db = _open(":memory:", read_only=False)
            _base_schema(self.db)
            _add_summary(self.db)
        else:
            try:
                self.db = _open(path, read_only=read_only)
            except sqlite3.OperationalError as exc:
                raise _refused(exc) from exc

    def close(self) -> None:
        self.db.close()

    # -- reading ---------------------------------------------------------------

    def game(self, game_id: str, *, lock: bool = False) -> GameRow | None:
        # `lock` needs nothing here: BEGIN IMMEDIATE already holds the whole file.
        row = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM game WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _game_row(row)

    def game_log(self, game_id: str, version: int) -> str | None:
        row = self.db.execute("SELECT log FROM game WHERE id = ? AND version = ?", (game_id, version)).fetchone()
        return None if row is None else row["log"]

    def games(self, ids: Collection[str] | None = None) -> list[GameRow]:
        order = " ORDER BY updated DESC, created DESC"
        if ids is None:
            rows = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM game" + order).fetchall()
        else:
            rows = []
            for chunk in iter_chunks(sorted(set(ids))):
                marks = ", ".join("?" * len(chunk))
                rows += self.db.execute(f"SELECT {_GAME_COLUMNS} FROM game WHERE id IN ({marks})", chunk).fetchall()
            rows.sort(key=lambda r: (r["updated"], r["created"]), reverse=True)
        return [_game_row(r) for r in rows]

    def finished_before(self, stamp: str) -> list[str]:
        rows = self.db.execute("SELECT id, summary FROM game WHERE updated < ?", (stamp,)).fetchall()
        return [r["id"] for r in rows if Summary.from_json(r["summary"]).finished]

    def throws(self, game_id: str, *, base_event: int | None = None, live: bool = False) -> list[ThrowRow]:
        sql = "SELECT * FROM throw WHERE game_id = ?"
        args: list[object] = [game_id]
        if base_event is not None:
            sql += " AND base_event = ?"
            args.append(base_event)
        if live:
            sql += f" AND status IN ({', '.join('?' * len(LIVE))})"
            args += LIVE
        return [_throw_row(r) for r in self.db.execute(sql + " ORDER BY seq", args).fetchall()]

    def throw(self, game_id: str, throw_id: str) -> ThrowRow | None:
        row = self.db.execute("SELECT * FROM throw WHERE game_id = ? AND id = ?", (game_id, throw_id)).fetchone()
        return None if row is None else _throw_row(row)

    def last_entered(self, game_id: str) -> ThrowRow | None:
        row = self.db.execute(
            "SELECT * FROM throw WHERE game_id = ? AND status = 'entered' ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
        return None if row is None else _throw_row(row)

    # -- writing ---------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """A write transaction that takes the lock up front (`BEGIN IMMEDIATE`).

        Read-check-write sequences inside it cannot interleave with another writer,
        so two phones entering for the same turn are serialised.
        """
        if self.read_only:
            raise ReadOnly()
        with self.write_lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise _refused(exc) from exc
            self._written = {}
            try:
                yield
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            try:
                self.db.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise _refused(exc) from exc
        written, self._written = self._written, {}
        if self.on_commit is not None:
            for game_id, version in written.items():
                self.on_commit(game_id, version)

    def _write(self, sql: str, args: Collection[object]) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, tuple(args))
        except sqlite3.OperationalError as exc:
            raise _refused(exc) from exc

    def add_game(self, row: GameRow, log: str) -> None:
        self._write(
            "INSERT INTO game (id, variant, players, log, version, finished, created, updated, summary)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id, row.variant, json.dumps(list(row.summary.players)), log, row.version,
                int(row.finished), row.created, row.updated, row.summary.to_json(),
            ),
        )
        self._written[row.id] = row.version

    def update_game(self, game_id: str, *, version: int, log: str, summary: Summary, updated: str) -> bool:
        cur = self._write(
            "UPDATE game SET log = ?, version = version + 1, finished = ?, summary = ?, updated = ?"
            " WHERE id = ? AND version = ?",
            (log, int(summary.finished), summary.to_json(), updated, game_id, version),
        )
        if cur.rowcount != 1:
            return False
        self._written[game_id] = version + 1
        return True

    def delete_game(self, game_id: str) -> list[str]:
        shas = {
            sha
            for r in self.db.execute(
                "SELECT photo_sha256, annotated_sha256 FROM throw WHERE game_id = ?", (game_id,)
            ).fetchall()
            for sha in (r["photo_sha256"], r["annotated_sha256"])
            if sha
        }
        self._write("DELETE FROM throw WHERE game_id = ?", (game_id,))
        self._write("DELETE FROM game WHERE id = ?", (game_id,))
        self._written[game_id] = GONE
        still_used = set()
        for chunk in iter_chunks(sorted(shas)):
            marks = ", ".join("?" * len(chunk))
            for r in self.db.execute(
                f"SELECT photo_sha256, annotated_sha256 FROM throw"
                f" WHERE photo_sha256 IN ({marks}) OR annotated_sha256 IN ({marks})",
                chunk + chunk,
            ).fetchall():
                still_used |= {r["photo_sha256"], r["annotated_sha256"]}
        return sorted(shas - still_used)

    def next_seq(self, game_id: str) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM throw WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def add_throw(self, row: ThrowRow) -> None:
        columns = row.to_columns()
        names = ", ".join(columns)
        marks = ", ".join("?" * len(columns))
        self._write(f"INSERT INTO throw ({names}) VALUES ({marks})", columns.values())

    def save_throw(self, row: ThrowRow) -> None:
        columns = row.to_columns()
        columns.pop("id")
        sets = ", ".join(f"{name} = ?" for name in columns)
        self._write(f"UPDATE throw SET {sets} WHERE id = ?", [*columns.values(), row.id])
