"""The store: typed rows, schema versions, and a database file made by the first release."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import pytest
from helpers_webapp import json_body, new_game, throw

from dicecam.scoring import Game
from dicecam.webapp import create_app
from dicecam.webapp.errors import Conflict
from dicecam.webapp.rows import GameRow, ThrowRow
from dicecam.webapp.sqlite_store import LATEST, SchemaTooNew, SQLiteStore


def first_release_file(path) -> None:
    """A database exactly as the code before schema versions wrote it (webapp/schema.sql,
    WAL set by every connection, rows inserted by that release's games.py)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(resources.files("dicecam.webapp").joinpath("schema.sql").read_text(encoding="utf-8"))
    game = Game.new("spiffel", ["Anna", "Ben"]).play({"player": "Anna", "dice": [2, 2, 3, 3, 3], "box": "full_house"})
    stamp = "2026-01-02T10:00:00+00:00"
    db.execute(
        "INSERT INTO game (id, variant, players, log, version, finished, created, updated)"
        " VALUES (?, ?, ?, ?, 3, 0, ?, ?)",
        ("oldgame1234567890abcde", "spiffel", json.dumps(["Anna", "Ben"]), json.dumps(game.to_dict()), stamp, stamp),
    )
    dice = json.dumps([{"value": v, "box": None, "confidence": None} for v in (2, 2, 3, 3, 3)])
    db.execute(
        "INSERT INTO throw (id, game_id, seq, base_event, number, player, source, status, dice_read, dice,"
        " entry, entry_event, created) VALUES (?, ?, 1, 0, 1, 'Anna', 'manual', 'entered', ?, ?, ?, 0, ?)",
        ("oldthrow1234", "oldgame1234567890abcde", dice, dice, json.dumps({"box": "full_house", "points": 25}), stamp),
    )
    db.close()


def test_a_first_release_database_opens_and_is_upgraded(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    first_release_file(data / "dicecam.sqlite3")
    client = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": False}).test_client()

    state = json_body(client.get("/api/games/oldgame1234567890abcde"))
    assert state["totals"] == {"Anna": 25, "Ben": 0} and state["version"] == 3
    [listed] = json_body(client.get("/api/games"))
    assert listed["current_player"] == "Ben" and listed["totals"] == {"Anna": 25, "Ben": 0}
    record = json_body(client.get("/api/games/oldgame1234567890abcde/throws/oldthrow1234"))
    assert record["entry"]["points"] == 25
    assert record["left_out"] == 0  # a throw kept before version 3 counted nothing apart
    assert record["left_out_dice"] == []  # nor, before version 4, kept those dice to take
    # The game goes on in the upgraded file.
    old = "oldgame1234567890abcde"
    t = throw(client, old, [6, 6, 6, 6, 6])
    resp = client.post(f"/api/games/{old}/entries", json={"throw_id": t["throw_id"], "box": "five_kind"})
    assert resp.status_code == 200 and json_body(resp)["totals"]["Ben"] == 50

    db = sqlite3.connect(data / "dicecam.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_first_release_game_with_names_refused_now_opens_with_them_repaired(tmp_path):
    """The first release let a lone surrogate through (201), then every page answered 500."""
    data = tmp_path / "data"
    data.mkdir()
    first_release_file(data / "dicecam.sqlite3")
    db = sqlite3.connect(data / "dicecam.sqlite3", isolation_level=None)
    log = {"variant": "spiffel", "players": ["\udc80Eve", "\u202eBen"], "options": {},
           "events": [{"player": "\udc80Eve", "dice": [6, 6, 6, 6, 6], "box": "five_kind"}]}
    stamp = "2026-01-03T10:00:00+00:00"
    db.execute("INSERT INTO game (id, variant, players, log, version, finished, created, updated)"
               " VALUES ('badnames12345678901234', 'spiffel', ?, ?, 1, 0, ?, ?)",
               (json.dumps(log["players"]), json.dumps(log), stamp, stamp))
    db.close()
    client = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": False}).test_client()
    assert client.get("/").status_code == 200
    state = json_body(client.get("/api/games/badnames12345678901234"))
    assert state["players"] == ["Eve", "Ben"] and state["totals"] == {"Eve": 50, "Ben": 0}
    assert client.get("/g/badnames12345678901234").status_code == 200


def test_a_new_database_is_made_at_the_latest_version(app, db_backend):
    from dicecam.webapp import postgres_store

    assert postgres_store.LATEST == LATEST  # a schema number means the same on both backends
    if db_backend.name == "sqlite":
        db = sqlite3.connect(app.config["DATABASE"])
        assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    else:
        import psycopg

        with psycopg.connect(app.config["DATABASE_URL"]) as conn:
            assert conn.execute("SELECT version FROM dicecam_schema").fetchall() == [(LATEST,)]
        assert not Path(app.config["DATABASE"]).exists()  # nothing in SQLite on the side


def test_a_database_from_a_newer_release_is_not_touched(make_app, db_backend, tmp_path):
    data = tmp_path / "data"
    if db_backend.name == "sqlite":
        data.mkdir()
        db = sqlite3.connect(data / "dicecam.sqlite3")
        db.execute(f"PRAGMA user_version = {LATEST + 1}")
        db.close()
    else:
        import psycopg

        url = make_app(data).config["DATABASE_URL"]
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("UPDATE dicecam_schema SET version = %s", (LATEST + 1,))
    with pytest.raises(SchemaTooNew, match="newer dicecam"):
        make_app(data)


def test_the_store_returns_typed_rows(app, client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3], by="Ben")
    store = app.extensions["dicecam.backend"].store()
    try:
        game = store.game(gid)
        assert isinstance(game, GameRow) and game.summary.players == ("Anna", "Ben")
        [row] = store.throws(gid)
        assert isinstance(row, ThrowRow) and row.id == t["throw_id"] and row.created_by == "Ben"
        assert [d["value"] for d in row.dice] == [2, 2, 3, 3, 3]
        assert store.game("nope") is None and store.throw(gid, "nope") is None
    finally:
        store.close()


@contextmanager
def announced(app, db_backend):
    """A store whose commits are recorded as (game id, version), and the record."""
    seen: list[tuple[str, int] | None] = []  # None: a payload not of dicecam's form
    if db_backend.name == "sqlite":
        store = SQLiteStore(app.config["DATABASE"], on_commit=lambda g, v: seen.append((g, v)))
        yield store, lambda: seen
        store.close()
        return
    # PostgreSQL: what a listening worker hears, on a connection of its own.
    import psycopg

    from dicecam.webapp.postgres_live import parse_payload

    backend = app.extensions["dicecam.backend"]
    with psycopg.connect(app.config["DATABASE_URL"], autocommit=True) as conn:
        conn.execute(f'LISTEN "{backend.database.channel}"')

        def heard() -> list[tuple[str, int] | None]:
            seen.extend(parse_payload(n.payload) for n in conn.notifies(timeout=0.3))
            return seen

        yield backend.store(), heard


def test_every_write_is_announced_once_after_commit(app, db_backend):
    from dicecam.webapp import games

    with announced(app, db_backend) as (store, seen):
        stored = games.create(store, "spiffel", ["Anna"], None)
        assert seen() == [(stored.id, 1)]
        games.add_throw(store, stored.id, dice=[{"value": 6, "box": None, "confidence": None}] * 5)
        assert seen()[-1] == (stored.id, 2)
        before = list(seen())
        with pytest.raises(Conflict):
            games.undo(store, stored.id)  # nothing to undo: refused, rolled back, not announced
        assert seen() == before
