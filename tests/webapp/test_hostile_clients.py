"""What a clumsy or hostile client sends, each answered as the API promises: no 500, a clear
message in the phone's language, nothing stored; and commands that end in one line, not a traceback."""

from __future__ import annotations

import io
import json
import struct
import zlib

import pytest
from helpers_webapp import json_body, new_game, sample, stored_rows, throw

from dicecam.cli import main


def _png(width: int, height: int) -> bytes:
    """A valid all-black PNG of any size (no pixel data beyond its rows)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\0" * (width * 3 + 1) * height)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


# ---------------------------------------------------------------- imports


@pytest.mark.parametrize(
    "data",
    [
        {"variant": "spiffel", "players": ["A"],
         "events": [{"player": "A", "dice": [1, 1, 1, 1, 1.0], "box": "ones"}]},
        {"variant": "spiffel", "players": ["A"],
         "events": [{"player": "A", "dice": [[1], 1, 1, 1, 1], "box": "ones"}]},
        {"variant": "spiffel", "players": ["A"],
         "events": [{"player": "A", "dice": [1, 1, 1, 1, 1], "box": ["ones"]}]},
        {"variant": "wuerfelpoker", "players": ["A", "B"],
         "events": [{"player": "A", "throw": [1, 1, 1, 1, 1, 1], "keep": [1.0]}]},
    ],
)
def test_an_imported_file_with_a_float_die_or_a_list_box_is_a_422_naming_the_event(app, client, data):
    before = stored_rows(app)
    resp = client.post("/api/games/import", json=data)
    assert resp.status_code == 422, resp.get_data(as_text=True)[:300]
    assert json_body(resp)["code"] == "game_file_event"
    assert resp.json["error"].startswith("Die Spieldatei ist fehlerhaft: Eintrag 1: ")
    assert stored_rows(app) == before


def test_a_throw_of_no_fixed_size_says_how_many_dice_it_may_have(client):
    data = {"variant": "wuerfelpoker", "players": ["A", "B"],
            "events": [{"player": "A", "throw": [1, 1, 1, 1, 1, 1, 1]}]}
    resp = client.post("/api/games/import", json=data)
    assert resp.status_code == 422
    assert "?" not in resp.json["error"]
    assert "1–6 Würfel erwartet, nicht 7" in resp.json["error"]


# ---------------------------------------------------------------- entries


@pytest.mark.parametrize("body", [{}, {"box": None}, {"bank": "true"}])
def test_a_sheet_entry_without_a_box_says_the_box_is_missing(client, body):
    gid = new_game(client)["id"]
    tid = throw(client, gid, [1, 1, 1, 2, 2])["throw_id"]
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": tid, **body})
    assert resp.status_code == 422
    assert resp.json["code"] == "event_box"
    assert resp.json["error"] == "Ein Eintrag nennt kein Feld."
    en = client.post(f"/api/games/{gid}/entries?lang=en", json={"throw_id": tid, **body})
    assert "box" in en.json["error"] and "set aside" not in en.json["error"]


def test_an_entry_may_name_its_player_cased_or_joined_otherwise_but_not_another_player(client):
    gid = new_game(client)["id"]  # Anna, then Ben
    tid = throw(client, gid, [1, 1, 1, 2, 2])["throw_id"]
    other = client.post(f"/api/games/{gid}/entries", json={"throw_id": tid, "box": "ones", "player": "Ben"})
    assert other.status_code == 409 and other.json["code"] == "not_your_turn"
    ok = client.post(f"/api/games/{gid}/entries", json={"throw_id": tid, "box": "ones", "player": "AN\u200dNA"})
    assert ok.status_code == 200, ok.json


@pytest.mark.parametrize("keep", [False, 0, "", {}])
def test_a_set_aside_that_is_no_list_is_refused_not_taken_as_a_bust(app, client, keep):
    gid = new_game(client, "wuerfelpoker")["id"]
    tid = throw(client, gid, [2, 3, 4, 6, 6, 2])["throw_id"]  # a bust: nothing scores
    before = stored_rows(app)
    resp = client.post(f"/api/games/{gid}/entries", json={"throw_id": tid, "keep": keep})
    assert resp.status_code == 400
    assert resp.json["code"] == "field"
    assert resp.json["error"] == "Feld „Beiseitegelegte Würfel“ fehlt oder ist ungültig."
    assert stored_rows(app) == before
    # An empty list (or none at all) is the bust the page sends.
    assert client.post(f"/api/games/{gid}/entries", json={"throw_id": tid, "keep": []}).status_code == 200


# ---------------------------------------------------------------- photos


@pytest.mark.parametrize("size", [(5000, 1), (1, 5000), (20001, 1)])
def test_a_long_thin_photo_is_read_not_a_500(client, size):
    gid = new_game(client)["id"]
    resp = client.post(f"/api/games/{gid}/throws", data={"photo": (io.BytesIO(_png(*size)), "strip.png")},
                       content_type="multipart/form-data")
    assert resp.status_code == 201, resp.get_data(as_text=True)[:300]
    assert resp.json["dice"] == [] and min(resp.json["width"], resp.json["height"]) == 1
    assert client.get(f"/api/games/{gid}/throws/{resp.json['throw_id']}/annotated").status_code == 200


@pytest.mark.parametrize("box", [[50, 10, 10, 50], [10, 50, 50, 10]])
def test_a_correction_whose_box_corners_are_not_in_order_is_refused(app, client, box):
    gid = new_game(client)["id"]
    data, _ = sample("valid_70.jpg")
    t = client.post(f"/api/games/{gid}/throws", data={"photo": (io.BytesIO(data), "p.jpg")},
                    content_type="multipart/form-data").json
    before = stored_rows(app)
    dice = [{"value": d["value"], "box": d["box"]} for d in t["dice"]]
    dice[0]["box"] = box
    resp = client.post(f"/api/games/{gid}/throws/{t['throw_id']}/dice", json={"dice": dice})
    assert resp.status_code == 400 and resp.json["code"] == "field"
    assert stored_rows(app) == before


def test_a_throw_with_a_box_off_its_photo_is_left_out_of_the_export(app, client, tmp_path):
    from dicecam.webapp import export
    from dicecam.webapp.db import get_store, photo_store

    gid = new_game(client, players=("Anna",))["id"]
    data, _ = sample("valid_70.jpg")
    t = client.post(f"/api/games/{gid}/throws", data={"photo": (io.BytesIO(data), "p.jpg")},
                    content_type="multipart/form-data").json
    dice = [{"value": d["value"], "box": d["box"]} for d in t["dice"]]
    dice[0] = {"value": 7 - dice[0]["value"], "box": [0, 0, 1e300, 1e300]}  # in order, finite, not on the photo
    assert client.post(f"/api/games/{gid}/throws/{t['throw_id']}/dice", json={"dice": dice}).status_code == 200
    entered = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance"})
    assert entered.status_code == 200
    with app.app_context():
        report = export.export_throws(get_store(), photo_store(), tmp_path / "out")
    assert report.photos == 0 and report.left_out == {export.OFF_PHOTO: 1}


# ---------------------------------------------------------------- commands


def test_eval_with_an_unreadable_first_photo_says_so_and_goes_on(tmp_path, capsys):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "gone.jpg").write_bytes(b"not a photo")
    rows = [{"image": "missing.jpg", "split": "dev", "size": [10, 10], "dice": []},
            {"image": "gone.jpg", "split": "dev", "size": [10, 10], "dice": []}]
    (folder / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["eval", str(folder), "--dice"]) == 2
    err = capsys.readouterr().err
    assert "missing.jpg" in err and "gone.jpg" in err and "Traceback" not in err


def test_export_throws_into_a_folder_that_cannot_be_made_is_one_line(make_app, tmp_path, capsys):
    data = tmp_path / "data"
    app = make_app(data)
    client = app.test_client()
    gid = new_game(client, players=("Anna",))["id"]
    photo, _ = sample("valid_70.jpg")  # five dice
    t = client.post(f"/api/games/{gid}/throws", data={"photo": (io.BytesIO(photo), "p.jpg")},
                    content_type="multipart/form-data").json
    entered = client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "box": "chance"})
    assert entered.status_code == 200
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    url = app.config.get("DATABASE_URL")
    games = ["--data", str(data), *(["--database", url] if url else [])]
    assert main(["export-throws", str(blocker / "out"), *games]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dicecam export-throws: cannot write {blocker / 'out'}: ") and err.count("\n") == 1


def test_replay_of_a_file_with_a_float_die_is_one_line_not_a_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"variant": "spiffel", "players": ["A"],
                               "events": [{"player": "A", "dice": [1, 1, 1, 1, 1.0], "box": "ones"}]}))
    assert main(["replay", str(bad)]) == 2
    assert capsys.readouterr().err == f"dicecam replay: {bad}: Event 1: Dice must be numbers 1 to 6\n"
