"""What a client sends is checked at the edge (issue 33.1, 33.3, 33.4, 33.9): names, numbers,
JSON itself, replay files. Each refusal leaves the stored game exactly as it was."""

from __future__ import annotations

import io
import json

import pytest
from helpers_webapp import log_of, new_game, stored_rows, throw

from dicecam.scoring import Game


def raw_post(client, path: str, text: str):
    """POST a JSON text as written (for what `json=` cannot send: NaN, lone surrogates, depth)."""
    return client.post(path, data=text.encode("utf-8", "surrogatepass"), content_type="application/json")


# ---------------------------------------------------------------- 33.1 names


@pytest.mark.parametrize(
    "name, code",
    [
        ("\udc80Eve", "text_characters"),  # a lone surrogate: broke the start page for everyone
        ("Eve\u202e", "text_characters"),  # right-to-left override
        ("Eve\u0007", "text_characters"),  # a control character
        ("Eve\nBen", "text_characters"),
        ("   ", "text_empty"),  # whitespace only: refused, not dropped
        ("", "text_empty"),
        ("x" * 41, "text_too_long"),
    ],
)
def test_bad_names_are_refused_with_the_field_named_and_the_start_page_stays_up(app, client, name, code):
    body = json.dumps({"variant": "spiffel", "players": [name, "Ben"]}, ensure_ascii=True)
    resp = raw_post(client, "/api/games", body)
    assert resp.status_code == 422, resp.json
    assert resp.json["code"] == code
    assert "Spielername" in resp.json["error"]
    assert client.get("/api/games").json == []
    assert client.get("/").status_code == 200


def test_names_are_stored_nfc_trimmed_and_with_single_spaces(client):
    decomposed = "Jo\u0308rg  Mu\u0308ller "  # "Jörg  Müller " typed with combining marks
    state = new_game(client, players=[decomposed, "Ben"])
    assert state["players"] == ["J\u00f6rg M\u00fcller", "Ben"]
    # ... and the same person typed precomposed is the same name.
    resp = client.post("/api/games", json={"variant": "spiffel", "players": ["J\u00f6rg M\u00fcller", decomposed]})
    assert resp.status_code == 422 and resp.json["code"] == "player_duplicate"


def test_a_bad_by_is_refused_and_changes_nothing(app, client):
    gid = new_game(client)["id"]
    before = stored_rows(app)
    resp = raw_post(client, f"/api/games/{gid}/throws", json.dumps({"dice": [1, 2, 3, 4, 5], "by": "\udc80"}))
    assert resp.status_code == 422 and "Dein Name" in resp.json["error"]
    assert stored_rows(app) == before


def test_english_names_the_field_in_english(client):
    resp = client.post(
        "/api/games", json={"variant": "spiffel", "players": ["x" * 41]}, headers={"Accept-Language": "en"}
    )
    assert resp.json["error"] == "'player name' may be at most 40 characters long."


def test_at_most_twelve_players(client):
    resp = client.post("/api/games", json={"variant": "spiffel", "players": [f"P{i}" for i in range(13)]})
    assert resp.status_code == 422 and resp.json["code"] == "players_too_many"


# ---------------------------------------------------------------- 33.3 imports


def replay(players: list[str], events: list[dict] | None = None) -> dict:
    return {"variant": "spiffel", "players": players, "options": {}, "events": events or []}


@pytest.mark.parametrize(
    "data, status, code",
    [
        (replay([f"P{i}" for i in range(13)]), 422, "players_too_many"),  # create's cap applies to imports
        (replay(["\udc80Eve"]), 422, "text_characters"),
        (replay(["Anna", "x" * 41]), 422, "text_too_long"),
        (replay(["Anna"], [{"player": "Anna", "dice": [1, 1, 1, 1, 1], "box": "ones"}] * 20_001), 422, "import_events"),
    ],
)
def test_imports_pass_the_same_checks_and_caps_as_new_games(client, data, status, code):
    resp = raw_post(client, "/api/games/import", json.dumps(data, ensure_ascii=True))
    assert resp.status_code == status, resp.json
    assert resp.json["code"] == code
    assert client.get("/api/games").json == []


def test_an_import_file_over_4_mb_is_a_413_that_says_so(client):
    big = json.dumps(replay(["Anna"])) + " " * (4 * 1024 * 1024)
    resp = client.post(
        "/api/games/import", data={"file": (io.BytesIO(big.encode()), "game.json")}, content_type="multipart/form-data"
    )
    assert resp.status_code == 413
    assert "Spieldatei" in resp.json["error"] and "4 MB" in resp.json["error"]


def test_an_imported_event_error_is_in_the_pages_language(client):
    bad = replay(["Anna"], [{"player": "Anna", "dice": [1, 1, 1], "box": "ones"}])
    de = client.post("/api/games/import", json=bad).json["error"]
    en = client.post("/api/games/import", json=bad, headers={"Accept-Language": "en"}).json["error"]
    assert de.startswith("Die Spieldatei ist fehlerhaft: Eintrag 1:") and "Würfel erwartet" in de
    assert en.startswith("The game file is broken: entry 1:") and "dice expected" in en


def test_a_game_is_not_replayed_on_every_request(client, monkeypatch):
    events = []
    game = Game.new("spiffel", ["Anna", "Ben"])
    for box in ("ones", "twos", "threes"):
        for player in ("Anna", "Ben"):
            event = {"player": player, "dice": [1, 2, 3, 4, 6], "box": box}
            game = game.play(event)
            events.append(event)
    gid = client.post("/api/games/import", json=replay(["Anna", "Ben"], events)).json["id"]

    replays = []
    original = Game.from_dict

    def counted(cls, data):
        replays.append(1)
        return original(data)

    monkeypatch.setattr(Game, "from_dict", classmethod(counted))
    for _ in range(3):
        assert client.get(f"/api/games/{gid}").json["totals"] == game.state()["totals"]
    assert client.get("/").status_code == 200
    assert client.get("/api/games").json[0]["totals"] == game.state()["totals"]
    assert replays == []  # the import's own game serves every GET; listing reads stored summaries


# ---------------------------------------------------------------- 33.4 NaN and Infinity


@pytest.mark.parametrize(
    "text",
    [
        '{"dice": [{"value": 3, "box": [Infinity, NaN, -Infinity, 1]}, 2, 3, 4, 5]}',
        '{"dice": [3, 2, 3, 4, 5], "by": NaN}',
        '{"dice": [3, 2, 3, 4, 5], "version": Infinity}',
    ],
)
def test_nan_or_infinity_anywhere_is_a_400_and_nothing_is_stored(app, client, text):
    gid = new_game(client)["id"]
    t = throw(client, gid, [1, 2, 3, 4, 5])
    before = stored_rows(app)
    resp = raw_post(client, f"/api/games/{gid}/throws/{t['throw_id']}/dice", text)
    assert resp.status_code == 400 and resp.json["code"] == "bad_number"
    assert stored_rows(app) == before
    json.loads(client.get(f"/api/games/{gid}").get_data(as_text=True), parse_constant=pytest.fail)


# ---------------------------------------------------------------- 33.9 smaller ones


@pytest.mark.parametrize("path", ["/api/games", "/api/games/import"])
@pytest.mark.parametrize("depth", [40, 5_000, 100_000])
def test_json_nested_deep_is_a_400(client, path, depth):
    resp = raw_post(client, path, '{"a": ' + "[" * depth + "]" * depth + "}")
    # The import takes files up to 4 MB; other bodies stop at 64 KB before parsing.
    assert (resp.status_code, resp.json["code"]) in ((400, "bad_json"), (413, "body_too_large"))
    assert depth * 2 > 64 * 1024 or resp.status_code == 400
    assert client.get("/api/games").json == []


def test_every_endpoint_takes_the_version_the_same_way(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    version = str(client.get(f"/api/games/{gid}").json["version"])
    body = {"throw_id": t["throw_id"], "box": "chance", "version": version}
    resp = client.post(f"/api/games/{gid}/entries", json=body)
    assert resp.status_code == 200, resp.json


def test_a_player_that_is_not_a_name_is_a_400_naming_the_field(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    body = {"throw_id": t["throw_id"], "box": "chance", "player": ["Anna"]}
    resp = client.post(f"/api/games/{gid}/entries", json=body)
    assert resp.status_code == 400
    assert "['Anna']" not in resp.json["error"] and "Spieler" in resp.json["error"]
    assert log_of(client, gid)["events"] == []


def test_the_column_error_is_german_in_a_german_response(client):
    gid = new_game(client)["id"]
    t = throw(client, gid, [2, 2, 3, 3, 3])
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance", "column": 1})
    assert resp.status_code == 422
    assert resp.json["error"] == "Diese Spalte gibt es in diesem Spiel nicht."


def test_five_thousand_form_parts_are_refused_as_too_many_parts_not_as_a_large_photo(client):
    gid = new_game(client)["id"]
    resp = client.post(
        f"/api/games/{gid}/throws", data={f"f{i}": "x" for i in range(5000)}, content_type="multipart/form-data"
    )
    assert resp.status_code == 413
    assert "zu viele Teile" in resp.json["error"] and "Foto" not in resp.json["error"]


def test_an_acknowledged_entry_is_on_disk_before_the_answer(app, db_backend):
    """The commit waits for the disk, so a power cut after "entered" loses nothing: SQLite's
    synchronous=FULL, PostgreSQL's synchronous_commit on every pooled connection."""
    store = app.extensions["dicecam.backend"].store()
    if db_backend.name == "sqlite":
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    else:
        with store.database.pool.connection() as conn:
            assert conn.execute("SHOW synchronous_commit").fetchone()["synchronous_commit"] == "on"
    store.close()
