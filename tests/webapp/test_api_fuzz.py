"""Whatever a client sends, the server answers without a 5xx, and a refusal changes nothing
(issue 33): arbitrary JSON bodies, bytes as photos, strings as names and ids, to every endpoint."""

from __future__ import annotations

import io
import json
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers_webapp import json_body, stored_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicecam.webapp import create_app, shutdown

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Texts with everything a client can put in JSON: lone surrogates, controls, bidi marks.
chars = st.characters(codec=None, exclude_categories=()) | st.sampled_from("\udc80\u202e\u0000\n\u2066 ")
texts = st.text(chars, max_size=50)
# JSON as a client may write it, NaN and Infinity included.
scalars = st.none() | st.booleans() | st.integers() | st.floats() | texts
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(chars, max_size=12), inner, max_size=6),
    max_leaves=30,
)
# Bodies that look like the real ones, with any value in any field.
FIELDS = ["variant", "players", "options", "dice", "by", "version", "retake", "throw_id", "box", "column", "keep",
          "bank", "player", "events"]
bodies = json_values | st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6)
ids = st.text(chars, max_size=30)


@pytest.fixture(scope="module")
def table(tmp_path_factory, db_backend):
    """One app with a game in each state a request can meet: an open throw, a Würfelpoker
    turn, a finished game."""
    from dicecam.scoring import Game, get_variant

    database = db_backend.database()
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path_factory.mktemp("fuzz")), "ADVICE": False,
                      **database})
    client = app.test_client()
    sheet = json_body(client.post("/api/games", json={"variant": "spiffel", "players": ["Anna", "Ben"]}))["id"]
    throw_id = json_body(client.post(f"/api/games/{sheet}/throws", json={"dice": [2, 2, 3, 3, 3]}))["throw_id"]
    push = json_body(client.post("/api/games", json={"variant": "wuerfelpoker", "players": ["Anna", "Ben"]}))["id"]
    client.post(f"/api/games/{push}/throws", json={"dice": [1, 1, 5, 5, 3, 6]})
    done = Game.new("yahtzee", ["Anna"])
    for box in get_variant("yahtzee").boxes:
        done = done.play({"player": "Anna", "dice": [6, 6, 6, 5, 5], "box": box})
    finished = json_body(client.post("/api/games/import", json=done.to_dict()))["id"]
    yield app, client, {"sheet": sheet, "push": push, "finished": finished, "throw": throw_id}
    shutdown(app)
    db_backend.release(database)


def snapshot(app) -> tuple:
    """Everything stored: every row of every table, and the photo files."""
    rows = stored_rows(app)
    photos = tuple(sorted(str(p) for p in Path(app.config["PHOTO_DIR"]).rglob("*")))
    return rows, photos


def check(app, send) -> None:
    """`send()` answers below 500; a refusal stores nothing; the pages still show every game."""
    before = snapshot(app)
    resp = send()
    assert resp.status_code < 500, resp.get_data(as_text=True)[:500]
    if 400 <= resp.status_code < 500:
        assert snapshot(app) == before, resp.status_code
        if resp.mimetype == "application/json":
            assert resp.json["error"] and resp.json["code"]
    elif resp.status_code in (200, 201):
        client = app.test_client()
        assert client.get("/").status_code == 200  # lists every game (loopback)
        for game in client.get("/api/games").json:
            assert client.get(f"/g/{game['id']}").status_code == 200
            # What a phone reads back is strict JSON: no NaN or Infinity it cannot parse.
            json.loads(client.get(f"/api/games/{game['id']}").get_data(as_text=True), parse_constant=_not_json)
            for t in client.get(f"/api/games/{game['id']}/throws").json:
                assert all(v is None or abs(v) < float("inf") for d in t["dice"] for v in (d["box"] or []))


def _not_json(name: str) -> None:
    raise AssertionError(f"{name} in a JSON answer")


def path_id(known: dict, which: str, fallback: str) -> str:
    return quote(known[which] if which in known else fallback, safe="", errors="surrogatepass")


ROUTES = [
    ("post", "/api/games"),
    ("post", "/api/games/import"),
    ("post", "/api/games/{game}/throws"),
    ("post", "/api/games/{game}/throws/{throw}/dice"),
    ("post", "/api/games/{game}/entries"),
    ("post", "/api/games/{game}/undo"),
    ("delete", "/api/games/{game}"),
    ("get", "/api/games/{game}"),
    ("get", "/api/games/{game}/log"),
    ("get", "/api/games/{game}/throws"),
    ("get", "/api/games/{game}/throws/{throw}"),
    ("get", "/api/games/{game}/throws/{throw}/photo"),
    ("get", "/games/{game}/qr.svg"),
    ("get", "/g/{game}"),
    ("get", "/g/{game}/log"),
    ("get", "/g/{game}/throws/{throw}"),
]


@FUZZ
@given(
    route=st.sampled_from(ROUTES),
    game=st.sampled_from(["sheet", "push", "finished"]) | ids,
    throw=st.just("throw") | ids,
    body=bodies,
)
def test_any_json_body_to_any_endpoint(table, route, game, throw, body):
    app, client, known = table
    method, template = route
    path = template.format(game=path_id(known, game, game), throw=path_id(known, throw, throw))
    data = json.dumps(body, allow_nan=True)
    check(app, lambda: getattr(client, method)(path, data=data, content_type="application/json"))


@FUZZ
@given(game=st.sampled_from(["sheet", "push", "finished"]), photo=st.binary(max_size=4096), form=st.dictionaries(
    st.sampled_from(["by", "version", "retake"]), st.text(max_size=20), max_size=3))  # form fields are UTF-8
def test_any_bytes_as_a_photo(table, game, photo, form):
    app, client, known = table
    data = {"photo": (io.BytesIO(photo), "p.jpg"), **form}
    check(app, lambda: client.post(f"/api/games/{known[game]}/throws", data=data, content_type="multipart/form-data"))


@FUZZ
@given(
    players=st.lists(st.text(chars, max_size=60), max_size=14),
    variant=st.sampled_from(["spiffel", "wuerfelpoker"]) | ids,
)
def test_any_strings_as_names(table, players, variant):
    app, client, _ = table
    data = json.dumps({"variant": variant, "players": players})
    check(app, lambda: client.post("/api/games", data=data, content_type="application/json"))
    replay = json.dumps({"variant": variant, "players": players, "events": []})
    check(app, lambda: client.post("/api/games/import", data=replay, content_type="application/json"))


@FUZZ
@given(form=st.dictionaries(st.sampled_from(["variant", "players", "target", "finish_round"]),
                            st.text(st.characters(codec="utf-8") | st.sampled_from("\u202e\u0000\n"), max_size=40)))
def test_any_start_form(table, form):
    app, client, _ = table
    check(app, lambda: client.post("/new", data=form))
