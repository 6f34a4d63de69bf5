"""The SQLite handle: one connection per request, flaskr style."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

import click
from flask import Flask, current_app, g


def connect(path: str) -> sqlite3.Connection:
    """Open the database in autocommit mode; writers use `transaction()`."""
    db = sqlite3.connect(path, timeout=15, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys = ON")
    # WAL lets phones keep reading the sheet while one of them writes.
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def get_db() -> sqlite3.Connection:
    """The request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(e: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction that takes the lock up front (`BEGIN IMMEDIATE`).

    Read-check-write sequences inside it cannot interleave with another writer,
    so two phones entering for the same turn are serialised.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def init_db(path: str | None = None) -> None:
    """Create the tables if they do not exist yet (safe to run on every start)."""
    schema = resources.files("webapp").joinpath("schema.sql").read_text(encoding="utf-8")
    db = connect(path or current_app.config["DATABASE"])
    try:
        db.executescript(schema)
    finally:
        db.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create the dicecam tables in the configured database."""
    init_db()
    click.echo("Initialized the database.")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
