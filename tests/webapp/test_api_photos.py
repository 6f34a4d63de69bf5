"""Photo uploads: refusals (no model needed) and real sample photos (need the shipped model)."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import cv2
import numpy as np
import pytest
from helpers_webapp import new_game, sample


def upload(client, gid, data: bytes, filename="photo.jpg", **form):
    return client.post(
        f"/api/games/{gid}/throws",
        data={"photo": (io.BytesIO(data), filename), **form},
        content_type="multipart/form-data",
    )


def jpeg(width: int, height: int) -> bytes:
    image = np.full((height, width, 3), 90, np.uint8)
    ok, buf = cv2.imencode(".jpg", image)
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"this is not a photo",
        b"%PDF-1.4\n" + b"0" * 500,
        jpeg(64, 48)[:200],  # cut off mid-file
    ],
    ids=["empty", "text", "pdf", "truncated-jpeg"],
)
def test_unreadable_uploads_are_a_400_and_store_nothing(client, app, data):
    gid = new_game(client)["id"]
    before = client.get(f"/api/games/{gid}").json
    resp = upload(client, gid, data)
    assert resp.status_code == 400
    assert resp.json["code"] == "image" and resp.json["error"]
    after = client.get(f"/api/games/{gid}").json
    assert after["version"] == before["version"] and after["throw"] is None
    assert not any(Path(app.config["PHOTO_DIR"]).rglob("*"))


def test_an_upload_over_the_size_limit_is_a_413_json_error(make_app, tmp_path):
    app = make_app(tmp_path, MAX_CONTENT_LENGTH=50_000)
    client = app.test_client()
    gid = new_game(client)["id"]
    resp = upload(client, gid, b"\xff\xd8\xff" + b"0" * 60_000)
    assert resp.status_code == 413
    assert "zu groß" in resp.json["error"]
    assert client.get(f"/api/games/{gid}").json["throw"] is None
    assert not any(Path(app.config["PHOTO_DIR"]).rglob("*"))


def test_an_upload_for_a_full_turn_is_refused_before_reading(client, app):
    gid = new_game(client)["id"]
    for _ in range(3):
        client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 6]})
    resp = upload(client, gid, jpeg(64, 48))
    assert resp.status_code == 409
    assert not any(Path(app.config["PHOTO_DIR"]).rglob("*"))


def test_without_a_model_a_photo_is_a_503_and_typed_dice_still_work(make_app, tmp_path):
    empty = tmp_path / "no-models"
    empty.mkdir()
    app = make_app(MODELS_DIR=str(empty))
    client = app.test_client()
    gid = new_game(client)["id"]
    resp = upload(client, gid, jpeg(640, 480))
    assert resp.status_code == 503
    assert "eintippen" in resp.json["error"]
    assert client.get(f"/api/games/{gid}").json["throw"] is None
    assert client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5]}).status_code == 201


def test_a_throw_needs_a_photo_or_dice(client):
    gid = new_game(client)["id"]
    resp = client.post(f"/api/games/{gid}/throws", json={"values": [1, 2]})
    assert resp.status_code == 400
    assert "photo" in resp.json["error"]


# --- with the shipped model -----------------------------------------------------------


def test_a_sample_photo_is_read_annotated_and_kept_as_evidence(client, app):
    from dicecam.vision.decode import decode_image
    from dicecam.vision.reader import DiceReader

    data, _ = sample("IMG_20191209_100714.jpg")
    gid = new_game(client)["id"]
    resp = upload(client, gid, data, filename="../../evil name.php", by="Ben")
    assert resp.status_code == 201, resp.json
    res = resp.json
    # The page shows exactly what the shipped model reads (its accuracy: tests/vision/test_samples.py).
    assert res["dice"] == DiceReader().read(decode_image(data)).to_list()
    assert all(len(d["box"]) == 4 and 0 <= d["confidence"] <= 1 for d in res["dice"])
    assert res["options"] and res["options"][0]["points"] >= res["options"][-1]["points"]

    # Stored under its SHA-256 only; the client's file name appears nowhere.
    sha = hashlib.sha256(data).hexdigest()
    assert res["photo_sha256"] == sha
    stored = sorted(p.name for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file())
    assert stored == sorted([sha, res["annotated_sha256"]])

    photo = client.get(res["photo_url"])
    assert photo.status_code == 200 and photo.data == data and photo.mimetype == "image/jpeg"
    annotated = client.get(res["annotated_url"])
    assert annotated.mimetype == "image/jpeg"
    drawn = cv2.imdecode(np.frombuffer(annotated.data, np.uint8), cv2.IMREAD_COLOR)
    assert drawn is not None and drawn.shape[:2] == (res["height"], res["width"])
    assert hashlib.sha256(annotated.data).hexdigest() == res["annotated_sha256"]

    record = client.get(f"/api/games/{gid}/throws/{res['throw_id']}").json
    assert record["photo_intact"] is True
    assert record["created_by"] == "Ben" and record["source"] == "photo"
    assert record["dice_read"] == res["dice"]


def test_a_tampered_photo_is_flagged_in_the_evidence(client, app):
    data, _ = sample("IMG_20191209_100714.jpg")
    gid = new_game(client)["id"]
    res = upload(client, gid, data).json
    path = next(p for p in Path(app.config["PHOTO_DIR"]).rglob(res["photo_sha256"]))
    path.write_bytes(data[:-10] + b"0" * 10)
    assert client.get(f"/api/games/{gid}/throws/{res['throw_id']}").json["photo_intact"] is False
    assert "verändert" in client.get(f"/g/{gid}/throws/{res['throw_id']}").get_data(as_text=True)


def test_a_six_dice_photo_gives_wuerfelpoker_set_asides(client):
    data, labels = sample("IMG_20191209_100248.jpg")
    gid = new_game(client, "wuerfelpoker")["id"]
    res = upload(client, gid, data).json
    assert sorted(d["value"] for d in res["dice"]) == sorted(labels)  # 1 1 2 3 5 5
    kept = {tuple(sorted(o["keep"])): o["points"] for o in res["options"]}
    assert kept[(1, 1, 5, 5)] == 300


# --- memory and disk (issue 33.2, 33.7) -------------------------------------------------


def png(width: int, height: int, dtype=np.uint8, channels: int = 3) -> bytes:
    shape = (height, width, channels) if channels > 1 else (height, width)
    ok, buf = cv2.imencode(".png", np.zeros(shape, dtype))
    assert ok
    return buf.tobytes()


def test_a_tiny_16_bit_png_of_49_megapixels_is_refused_before_decoding(client, app):
    data = png(7000, 7000, np.uint16)
    assert len(data) < 400_000  # 286 KB on the wire, 1.65 GB to decode before
    gid = new_game(client)["id"]
    resp = upload(client, gid, data, filename="x.png")
    assert resp.status_code == 413
    assert resp.json["code"] == "photo_pixels" and "16 Bit" in resp.json["error"]
    assert client.get(f"/api/games/{gid}").json["throw"] is None
    assert not any(Path(app.config["PHOTO_DIR"]).rglob("*"))


@pytest.mark.parametrize(
    "kind, width, height, dtype, fits",
    [
        ("png", 4032, 3024, np.uint8, True),  # a 12-megapixel phone photo
        ("png", 3600, 3600, np.uint8, True),
        ("png", 4000, 4000, np.uint8, False),
        ("png", 2000, 1500, np.uint16, True),
        ("png", 4032, 3024, np.uint16, True),  # 16 bits decode straight to 8: no dearer than 8 bits
        ("png", 4000, 4000, np.uint16, False),
        ("jpeg", 8000, 6000, np.uint8, True),  # 48 megapixels, decoded at a quarter of its size
    ],
)
def test_the_decode_budget_counts_what_decoding_costs(kind, width, height, dtype, fits):
    from dicecam.webapp.errors import TooLarge
    from dicecam.webapp.recognition import DECODE_BUDGET, check_photo, decode

    data = png(width, height, dtype) if kind == "png" else jpeg(width, height)
    if fits:
        assert check_photo(data, DECODE_BUDGET) == data
        if kind == "jpeg":
            assert max(decode(data).shape) == 2000  # the working size, not 8000
    else:
        with pytest.raises(TooLarge):
            check_photo(data, DECODE_BUDGET)


def test_when_every_photo_slot_is_busy_an_upload_is_told_to_retry(make_app, tmp_path):
    app = make_app(tmp_path, PHOTO_SLOTS=1, PHOTO_WAIT_S=0.05)
    client = app.test_client()
    gid = new_game(client)["id"]
    slots = app.extensions["dicecam.photo_slots"]
    assert slots.acquire(blocking=False)  # another photo is being read
    try:
        resp = upload(client, gid, jpeg(64, 48))
    finally:
        slots.release()
    assert resp.status_code == 503 and resp.headers["Retry-After"]
    assert resp.json["code"] == "busy_photos"
    assert client.get(f"/api/games/{gid}").json["throw"] is None


def photo_files(app) -> set[str]:
    return {p.name for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file()}


def test_a_photo_refused_for_a_stale_version_is_not_stored(client, app):
    data, _ = sample("IMG_20191209_100714.jpg")
    gid = new_game(client)["id"]
    version = client.get(f"/api/games/{gid}").json["version"]
    client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5]})  # another phone was faster
    resp = upload(client, gid, data, version=str(version))
    assert resp.status_code == 409
    assert resp.json["game"]["version"] == version + 1  # the state as it is now
    assert photo_files(app) == set()


def test_bytes_after_the_jpeg_end_are_not_kept(client, app):
    data, _ = sample("IMG_20191209_100714.jpg")
    gid = new_game(client)["id"]
    res = upload(client, gid, data + b"\0" * 1_000_000).json
    assert res["photo_sha256"] == hashlib.sha256(data).hexdigest()
    assert client.get(res["photo_url"]).data == data


def test_bytes_after_the_png_end_are_not_kept():
    from dicecam.webapp.recognition import DECODE_BUDGET, check_photo

    data = png(64, 48)
    assert check_photo(data + b"junk" * 1000, DECODE_BUDGET) == data


def test_dice_small_in_the_photo_make_the_throw_suggest_moving_closer(client):
    from dicecam.vision.sizes import READABLE_SIDE, typical_side

    data, _ = sample("IMG_20191209_100714.jpg")
    gid = new_game(client)["id"]
    as_taken = upload(client, gid, data).json
    assert typical_side(np.array([d["box"] for d in as_taken["dice"]])) >= READABLE_SIDE
    assert as_taken["small_dice"] is False

    # The same throw from further away: every die read, each under the readable side.
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    ok, far = cv2.imencode(".jpg", cv2.resize(image, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA))
    assert ok
    retaken = upload(client, gid, far.tobytes(), retake="true")
    assert retaken.status_code == 201, retaken.json
    assert len(retaken.json["dice"]) == 5
    assert typical_side(np.array([d["box"] for d in retaken.json["dice"]])) < READABLE_SIDE
    assert retaken.json["small_dice"] is True
    assert client.get(f"/api/games/{gid}").json["throw"]["small_dice"] is True


def test_typed_dice_never_suggest_moving_closer(client):
    gid = new_game(client)["id"]
    resp = client.post(f"/api/games/{gid}/throws", json={"dice": [1, 2, 3, 4, 5]})
    assert resp.status_code == 201 and resp.json["small_dice"] is False


def test_dice_beyond_the_throws_count_are_left_out_and_the_throw_says_so(client):
    data, labelled = sample("IMG_20191209_100143.jpg")
    assert len(labelled) == 6
    gid = new_game(client)["id"]  # Spiffel: a throw has 5 dice
    res = upload(client, gid, data)
    assert res.status_code == 201, res.json
    assert len(res.json["dice"]) == 5 and res.json["left_out"] == 1
    current = client.get(f"/api/games/{gid}").json["throw"]
    assert current["left_out"] == 1
    record = client.get(f"/api/games/{gid}/throws/{res.json['throw_id']}").json
    assert record["left_out"] == 1
    # The evidence page names it in the player's language.
    page = client.get(f"/g/{gid}/throws/{res.json['throw_id']}", headers={"Accept-Language": "de"})
    assert "1 Würfel mehr auf dem Foto als im Wurf" in page.get_data(as_text=True)
    # So does the throw log, where a later look at the game starts.
    log = client.get(f"/g/{gid}/log", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Not counted: 1 more on the photo than in the throw" in log


def test_a_die_the_count_left_out_can_be_taken_and_the_wrong_one_removed(client):
    data, labelled = sample("IMG_20191209_100143.jpg")
    gid = new_game(client)["id"]  # Spiffel: 5 dice, the photo shows 6
    res = upload(client, gid, data).json
    left = res["left_out_dice"]
    assert len(left) == 1 and 1 <= left[0]["value"] <= 6 and len(left[0]["box"]) == 4
    assert sorted([d["value"] for d in res["dice"]] + [left[0]["value"]]) == sorted(labelled)
    # Taken: sent with the throw's dice, it keeps its box; nothing is left out any more.
    url = f"/api/games/{gid}/throws/{res['throw_id']}/dice"
    dice = [{"value": d["value"], "box": d["box"]} for d in res["dice"]]
    taken = client.post(url, json={"dice": [*dice, left[0]]}).json
    assert len(taken["dice"]) == 6 and taken["dice"][5]["box"] == left[0]["box"]
    assert taken["left_out_dice"] == [] and taken["left_out_open"] == 0
    assert taken["left_out"] == 1 and res["left_out_open"] == 1  # what the photo showed stays said
    # The die that does not belong removed: five dice, every one with its place in the photo.
    kept = client.post(url, json={"dice": [*dice[1:], left[0]]}).json
    assert [d["box"] for d in kept["dice"]] == [d["box"] for d in dice[1:]] + [left[0]["box"]]
    # The one removed is no die of the throw and not offered again: it was counted once, then dropped.
    assert kept["left_out_dice"] == []
    record = client.get(f"/api/games/{gid}/throws/{res['throw_id']}").json
    assert [c["after"] for c in record["corrections"]][-1] == [d["value"] for d in kept["dice"]]


def test_a_photo_of_just_the_throw_and_typed_dice_leave_nothing_out(client):
    data, labelled = sample("IMG_20191209_100714.jpg")
    assert len(labelled) == 5
    gid = new_game(client)["id"]
    assert upload(client, gid, data).json["left_out"] == 0
    other = new_game(client)["id"]
    assert client.post(f"/api/games/{other}/throws", json={"dice": [1, 2, 3, 4, 5]}).json["left_out"] == 0
