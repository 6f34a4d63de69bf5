"""Helpers for the web app tests: sample photos and short API calls."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def sample(name: str) -> tuple[bytes, list[int]]:
    """A sample photo's bytes and its labelled die values."""
    for line in (SAMPLES / "labels.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["image"].endswith(name):
            return (SAMPLES / row["image"]).read_bytes(), [d["value"] for d in row["dice"]]
    raise LookupError(name)


def json_body(resp) -> Any:
    """The JSON a test client's answer carries (a test that expects some fails without it)."""
    data = resp.get_json()
    assert data is not None, (resp.status_code, resp.data[:200])
    return data


def new_game(client, variant="spiffel", players=("Anna", "Ben"), **options) -> dict:
    resp = client.post("/api/games", json={"variant": variant, "players": list(players), "options": options})
    assert resp.status_code == 201, resp.json
    return resp.json


def throw(client, game_id: str, dice: list[int], **extra) -> dict:
    resp = client.post(f"/api/games/{game_id}/throws", json={"dice": dice, **extra})
    assert resp.status_code == 201, resp.json
    return resp.json


def log_of(client, game_id: str) -> dict:
    return client.get(f"/api/games/{game_id}/log").json


# ---------------------------------------------------------------- over real sockets


def call(base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def at_once(*requests) -> list[tuple[int, dict]]:
    """Send the requests from separate threads released together."""
    barrier = threading.Barrier(len(requests))
    results: list = [None] * len(requests)

    def worker(i, args):
        barrier.wait()
        results[i] = call(*args)

    threads = [threading.Thread(target=worker, args=(i, r)) for i, r in enumerate(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


# ---------------------------------------------------------------- the database underneath


class _Database:
    """The app's database, whichever backend it is, on one connection of its own (autocommit)."""

    conn: Any  # a psycopg or an sqlite3 connection

    def __init__(self, app) -> None:
        self.url = app.config.get("DATABASE_URL")
        if self.url:
            import psycopg

            self.conn = psycopg.connect(self.url, autocommit=True)
        else:
            import sqlite3

            self.conn = sqlite3.connect(app.config["DATABASE"], isolation_level=None)

    def __enter__(self) -> _Database:
        return self

    def __exit__(self, *exc) -> None:
        self.conn.close()

    def rows(self, sqlite_sql: str, postgres_sql: str, args: tuple = ()) -> list[tuple]:
        cur = self.conn.execute(postgres_sql if self.url else sqlite_sql, args)
        return cur.fetchall() if cur.description else []


def stored_rows(app) -> tuple:
    """Every row of every table, as the database holds them (to prove a refusal changed nothing)."""
    with _Database(app) as db:
        tables = [t for (t,) in db.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1",
        )]
        return tuple((t, tuple(db.rows(f"SELECT * FROM {t} ORDER BY 1", f"SELECT * FROM {t} ORDER BY 1")))
                     for t in tables)


def set_updated(app, game_id: str, stamp: str) -> None:
    """Pretend the game was last changed at `stamp` (ISO text, as the app writes it)."""
    with _Database(app) as db:
        db.rows("UPDATE game SET updated = ? WHERE id = ?", "UPDATE game SET updated = %s WHERE id = %s",
                (stamp, game_id))
