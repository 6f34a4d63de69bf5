"""The PostgreSQL store's own promises (issue 37): its schema versions and migrations, the
configuration that chooses it, clear words when the server is away, and getting back
on its feet after the server dropped its connections (a restart)."""

from __future__ import annotations

import json
import sys
import threading
import time

import pytest
from helpers_webapp import new_game, throw

from dicecam.cli import main
from dicecam.scoring import Game
from dicecam.webapp import create_app, postgres_store, shutdown
from dicecam.webapp.backend import DatabaseError, safe_url


def on_postgres(test):
    """Run `test` on PostgreSQL only."""
    return pytest.mark.postgres(pytest.mark.parametrize("db_backend", ["postgres"], indirect=True)(test))


def psql(url: str, query: str, args: tuple = ()) -> list[tuple]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(query, args)
        return cur.fetchall() if cur.description else []


@on_postgres
def test_a_version_1_database_is_upgraded_on_start(db_backend, make_app):
    """A database at schema 1 (no summaries) opens, is upgraded, and its game plays on."""
    import psycopg

    url = db_backend.database()["DATABASE_URL"]
    game = Game.new("spiffel", ["Anna", "Ben"]).play({"player": "Anna", "dice": [2, 2, 3, 3, 3], "box": "full_house"})
    with psycopg.connect(url, autocommit=True) as conn:
        postgres_store.MIGRATIONS[0](conn)
        conn.execute("CREATE TABLE dicecam_schema (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO dicecam_schema VALUES (1)")
        stamp = "2026-01-02T10:00:00+00:00"
        conn.execute(
            "INSERT INTO game (id, variant, players, log, version, finished, created, updated)"
            " VALUES ('oldgame1234567890abcde', 'spiffel', %s, %s, 3, false, %s, %s)",
            (json.dumps(["Anna", "Ben"]), json.dumps(game.to_dict()), stamp, stamp),
        )
    client = make_app(DATABASE_URL=url).test_client()
    [listed] = client.get("/api/games").json
    assert listed["current_player"] == "Ben" and listed["totals"] == {"Anna": 25, "Ben": 0}
    old = "oldgame1234567890abcde"
    t = throw(client, old, [6, 6, 6, 6, 6])
    resp = client.post(f"/api/games/{old}/entries", json={"throw_id": t["throw_id"], "box": "five_kind"})
    assert resp.status_code == 200 and resp.json["totals"] == {"Anna": 25, "Ben": 50}
    assert psql(url, "SELECT version FROM dicecam_schema") == [(postgres_store.LATEST,)]
    db_backend.release({"DATABASE_URL": url})


@on_postgres
def test_workers_starting_at_once_migrate_once(db_backend):
    url = db_backend.database()["DATABASE_URL"]
    found, errors = [], []

    def start():
        try:
            found.append(postgres_store.upgrade(url))
        except Exception as exc:  # any failure fails the test below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and sorted(found) == [0] + [postgres_store.LATEST] * 3
    assert psql(url, "SELECT version FROM dicecam_schema") == [(postgres_store.LATEST,)]
    db_backend.release({"DATABASE_URL": url})


@on_postgres
def test_dicecam_database_url_in_the_environment_chooses_postgresql(db_backend, tmp_path, monkeypatch):
    url = db_backend.database()["DATABASE_URL"]
    monkeypatch.setenv("DICECAM_DATABASE_URL", url)
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "ADVICE": False})
    try:
        assert app.extensions["dicecam.backend"].kind == "postgresql"
        gid = new_game(app.test_client())["id"]
        assert psql(url, "SELECT id FROM game") == [(gid,)]
        assert not (tmp_path / "data" / "dicecam.sqlite3").exists()
    finally:
        shutdown(app)
        db_backend.release({"DATABASE_URL": url})


def test_an_unreachable_database_is_one_clear_line_without_its_password(tmp_path, capsys):
    url = "postgresql://dicecam:s3cret@127.0.0.1:1/dicecam"
    assert main(["serve", "--port", "0", "--data", str(tmp_path), "--database", url]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("dicecam serve: cannot use the database postgresql://dicecam:***@127.0.0.1:1/dicecam")
    assert "\n" not in err and "s3cret" not in err


def test_a_database_url_that_is_not_postgresql_is_refused(tmp_path, capsys):
    assert main(["serve", "--port", "0", "--data", str(tmp_path), "--database", "mysql://x@y/z"]) == 2
    err = capsys.readouterr().err.strip()
    assert "postgresql://" in err and "\n" not in err
    with pytest.raises(DatabaseError):
        create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "DATABASE_URL": "sqlite:///x.db"})


@pytest.mark.parametrize("url, shown", [
    ("postgresql://u:pw@h:5432/db", "postgresql://u:***@h:5432/db"),
    ("postgresql://u@h/db", "postgresql://u@h/db"),
    ("postgres://:pw@h/db?sslmode=require", "postgres://:***@h/db?sslmode=require"),
])
def test_a_printed_url_never_shows_the_password(url, shown):
    assert safe_url(url) == shown


def drop_connections(url: str, application: str) -> int:
    """End the server side of the app's connections, as a database restart does."""
    rows = psql(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE application_name = %s AND pid <> pg_backend_pid()", (application,))
    return len(rows)


@on_postgres
def test_after_the_server_dropped_every_connection_the_table_plays_on(app, client):
    url = app.config["DATABASE_URL"]
    gid = new_game(client)["id"]
    assert client.get(f"/api/games/{gid}").status_code == 200  # the pool holds a connection now
    assert drop_connections(url, "dicecam") >= 1
    assert client.get(f"/api/games/{gid}").status_code == 200  # read again on a fresh connection
    assert drop_connections(url, "dicecam") >= 1
    t = throw(client, gid, [2, 2, 3, 3, 3])  # BEGIN on the dead one fails, the write goes on a fresh one
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "full_house"})
    assert resp.status_code == 200 and resp.json["totals"]["Anna"] == 25


@on_postgres
def test_live_updates_come_back_after_the_listening_connection_was_dropped(app, client):
    url = app.config["DATABASE_URL"]
    notifier = app.extensions["dicecam.notifier"]
    gid = new_game(client)["id"]
    assert notifier.listening.wait(10)
    woke: list[int | None] = []
    waiting = threading.Thread(target=lambda: woke.append(notifier.wait(gid, 1, 15)))
    waiting.start()
    time.sleep(0.2)
    assert drop_connections(url, "dicecam-listen") == 1
    throw(client, gid, [1, 2, 3, 4, 6])  # written while nobody of this worker listens
    waiting.join(15)
    assert woke == [2]  # caught up after reconnecting


@on_postgres
def test_a_database_that_stops_answering_is_a_503_in_the_players_language(app, client, monkeypatch):
    import psycopg

    gid = new_game(client)["id"]

    def refuse(*args, **kwargs):
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(psycopg.Connection, "execute", refuse)
    resp = client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 6]})
    assert resp.status_code == 503 and resp.headers["Retry-After"]
    assert resp.json["code"] == "database" and "Datenbank antwortet gerade nicht" in resp.json["error"]
    resp = client.get(f"/api/games/{gid}", headers={"Accept-Language": "en"})
    assert resp.status_code == 503 and "database is not answering" in resp.json["error"]
    monkeypatch.undo()
    assert client.get(f"/api/games/{gid}").json["version"] == 1  # nothing was written


def test_without_psycopg_the_command_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as in an installation without the extra
    assert main(["serve", "--port", "0", "--data", str(tmp_path), "--database", "postgresql://u@h/db"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == 'dicecam serve: PostgreSQL needs psycopg, which this installation lacks: ' \
                  'pip install "dicecam[postgres]"'
