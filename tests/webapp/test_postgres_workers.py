"""Several worker processes on one PostgreSQL database (issue 37): what a phone on one worker
sees of a write made through another, two phones on two workers entering at once, and
`dicecam serve --workers N` as a real process tree (started, killed, restarted, stopped).

Two apps built by one test share its database exactly as two workers do (each with its
own pool, listener thread and cache); the last tests run real forked workers.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers_webapp import at_once, call

from dicecam.cli import main
from dicecam.webapp.serve import make_server


def on_postgres(test):
    """Run `test` on PostgreSQL only (it is about worker processes, which SQLite does not allow)."""
    return pytest.mark.postgres(pytest.mark.parametrize("db_backend", ["postgres"], indirect=True)(test))


def serving(app) -> tuple[str, Any]:
    server = make_server(app, "127.0.0.1", 0)
    server.prepare()
    threading.Thread(target=server.serve, daemon=True).start()
    return f"http://127.0.0.1:{server.bind_addr[1]}", server


@pytest.fixture
def two_workers(make_app) -> Iterator[tuple[str, str]]:
    """Two apps on one database, each on its own server: the base URLs of worker one and two."""
    first, second = serving(make_app()), serving(make_app())
    yield first[0], second[0]
    for _, server in (first, second):
        server.stop()


def events(stream, deadline: float) -> Iterator[tuple[str, dict | None]]:
    """(event name, data) from a server-sent event stream, until `deadline`."""
    name = None
    while time.monotonic() < deadline:
        line = stream.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            yield name or "message", json.loads(line[6:])
            name = None


@on_postgres
def test_a_phone_on_one_worker_hears_every_write_made_on_another(two_workers):
    one, two = two_workers
    _, game = call(one, "POST", "/api/games", {"variant": "yahtzee", "players": ["Anna"]})
    gid = game["id"]
    with urllib.request.urlopen(f"{two}/api/games/{gid}/events", timeout=10) as stream:
        seen = events(stream, time.monotonic() + 20)
        assert next(seen) == ("version", {"version": 1})
        for expected in (2, 3):
            written = time.monotonic()
            status, _ = call(one, "POST", f"/api/games/{gid}/throws", {"dice": [6, 6, 6, 5, 5]})
            assert status == 201
            assert next(seen) == ("version", {"version": expected})
            assert time.monotonic() - written < 1.0


@on_postgres
def test_a_game_deleted_on_one_worker_is_gone_on_the_other(two_workers, make_app):
    from dicecam.scoring import Game, get_variant

    one, two = two_workers
    done = Game.new("yahtzee", ["Anna"])
    for box in get_variant("yahtzee").boxes:
        done = done.play({"player": "Anna", "dice": [6, 6, 6, 5, 5], "box": box})
    _, game = call(one, "POST", "/api/games/import", done.to_dict())
    gid = game["id"]
    assert call(two, "GET", f"/api/games/{gid}")[0] == 200  # worker two has it cached now
    with urllib.request.urlopen(f"{two}/api/games/{gid}/events", timeout=10) as stream:
        seen = events(stream, time.monotonic() + 20)
        assert next(seen) == ("version", {"version": 1})
        req = urllib.request.Request(f"{one}/api/games/{gid}", method="DELETE")
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert resp.status == 204
        assert next(seen) == ("gone", {})
    assert call(two, "GET", f"/api/games/{gid}")[0] == 404


@on_postgres
def test_two_phones_on_two_workers_entering_at_once_one_wins(two_workers):
    one, two = two_workers
    _, game = call(one, "POST", "/api/games", {"variant": "spiffel", "players": ["Anna", "Ben"]})
    gid = game["id"]
    for round_no in range(8):
        _, t = call(two if round_no % 2 else one, "POST", f"/api/games/{gid}/throws", {"dice": [2, 2, 3, 3, 3]})
        version = t["state"]["version"]
        first, second = t["options"][0]["box"], t["options"][1]["box"]
        path = f"/api/games/{gid}/entries"
        results = at_once(
            (one, "POST", path, {"throw_id": t["throw_id"], "box": first, "version": version}),
            (two, "POST", path, {"throw_id": t["throw_id"], "box": second, "version": version}),
        )
        assert sorted(s for s, _ in results) == [200, 409], (round_no, results)
        # Both workers agree on the game, whichever of them wrote it.
        _, log_one = call(one, "GET", f"/api/games/{gid}/log")
        _, log_two = call(two, "GET", f"/api/games/{gid}/log")
        assert log_one == log_two and len(log_one["events"]) == round_no + 1


@on_postgres
def test_throws_sent_to_both_workers_at_once_never_exceed_three_a_turn(two_workers):
    one, two = two_workers
    _, game = call(one, "POST", "/api/games", {"variant": "spiffel", "players": ["Anna"]})
    gid = game["id"]
    results = at_once(*[((one, two)[i % 2], "POST", f"/api/games/{gid}/throws", {"dice": [1, 2, 3, 4, 6]})
                        for i in range(6)])
    assert sorted(s for s, _ in results) == [201, 201, 201, 409, 409, 409]
    assert sorted(body["number"] for s, body in results if s == 201) == [1, 2, 3]
    _, throws = call(one, "GET", f"/api/games/{gid}/throws")
    assert [t["number"] for t in throws] == [1, 2, 3]


# ---------------------------------------------------------------- dicecam serve --workers


def children(pid: int) -> set[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return {int(p) for p in path.read_text().split()} if path.exists() else set()


def wait_for(check, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not true after {timeout} s")


@pytest.fixture
def served(app, tmp_path) -> Iterator[tuple[subprocess.Popen, str, Path]]:
    """`dicecam serve --workers 2` on this test's database: the parent process, its URL and
    the file its output goes to."""
    out = tmp_path / "serve.out"
    with open(out, "w") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "dicecam", "serve", "--host", "127.0.0.1", "--port", "0",
             "--data", app.config["DATA_DIR"], "--database", app.config["DATABASE_URL"], "--workers", "2"],
            stdout=sink, stderr=subprocess.STDOUT, text=True,
        )
    try:
        url = wait_for(lambda: (m := re.search(r"http://127\.0\.0\.1:\d+", out.read_text())) and m.group(0), 90)
        yield proc, url, out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process tree from /proc")
@on_postgres
def test_dicecam_serve_runs_workers_restarts_a_dead_one_and_stops_them_all(served):
    proc, url, out = served
    workers = wait_for(lambda: len(children(proc.pid)) == 2 and children(proc.pid))
    banner = out.read_text()
    assert "2 Prozesse / worker processes" in banner and "Datenbank / database: postgresql://" in banner
    _, game = call(url, "POST", "/api/games", {"variant": "spiffel", "players": ["Anna", "Ben"]})
    gid = game["id"]
    # Many connections: the kernel spreads them over both workers, and every answer agrees.
    versions = {call(url, "GET", f"/api/games/{gid}")[1]["version"] for _ in range(20)}
    assert versions == {1}

    killed = sorted(workers)[0]
    os.kill(killed, signal.SIGKILL)
    after = wait_for(lambda: len(c := children(proc.pid)) == 2 and killed not in c and c)
    assert len(after & workers) == 1  # the other one kept running
    assert "was killed (SIGKILL); starting it again" in out.read_text()
    status, t = call(url, "POST", f"/api/games/{gid}/throws", {"dice": [2, 2, 3, 3, 3]})
    assert status == 201 and t["state"]["version"] == 2

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in after)


def test_sqlite_is_served_by_one_process_and_says_so(tmp_path, capsys):
    assert main(["serve", "--port", "0", "--data", str(tmp_path), "--workers", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("dicecam serve:") and "\n" not in err
    assert "PostgreSQL" in err and "one process" in err
    assert not (tmp_path / "dicecam.sqlite3").exists()  # refused before anything was made
