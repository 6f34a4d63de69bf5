"""Live camera frames (issue 35) and the count a photo throw is read with (issue 34, item 2).

The frame endpoint reads with the same `DiceReader` as photo throws, told how many dice
the throw should show; it stores nothing and refuses what other writes refuse.
"""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest
from helpers_webapp import SAMPLES, new_game, throw

from dicecam.webapp import create_app

SIX_DICE = "byler_d6/IMG_20191209_100248.jpg"  # 1 1 2 3 5 5
FIVE_DICE = "byler_d6/IMG_20191209_100714.jpg"  # 2 2 3 3 3


def photo_bytes(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def reader_sees(name: str, count: int | None) -> list[dict]:
    """What the shipped reader itself answers for a sample photo."""
    from dicecam.vision.decode import decode_image
    from dicecam.vision.reader import DiceReader

    return DiceReader().read(decode_image(photo_bytes(name)), count=count).to_list()


def upload(client, gid, data: bytes, **form):
    return client.post(
        f"/api/games/{gid}/throws",
        data={"photo": (io.BytesIO(data), "photo.jpg"), **form},
        content_type="multipart/form-data",
    )


def photo_files(app) -> set[str]:
    return {p.name for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file()}


# --- issue 34, item 2: a photo throw is read with the count the game expects ----------


@pytest.mark.parametrize(
    "variant, count",
    [("spiffel", 5), ("yahtzee", 5), ("wuerfelpoker", 6)],
)
def test_a_photo_throw_is_read_with_the_dice_the_throw_must_show(client, variant, count):
    gid = new_game(client, variant)["id"]
    res = upload(client, gid, photo_bytes(SIX_DICE))
    assert res.status_code == 201, res.json
    assert len(res.json["dice"]) == count
    assert res.json["dice"] == reader_sees(SIX_DICE, count)


def test_wuerfelpoker_reads_the_dice_still_in_play_after_a_set_aside(client):
    gid = new_game(client, "wuerfelpoker")["id"]
    t = throw(client, gid, [1, 1, 5, 5, 3, 6])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": [1, 1, 5]})
    assert client.get(f"/api/games/{gid}").json["expected_dice"] == 3
    res = upload(client, gid, photo_bytes(SIX_DICE))
    assert res.status_code == 201, res.json
    assert res.json["dice"] == reader_sees(SIX_DICE, 3)
    assert len(res.json["dice"]) == 3


# --- issue 35: live frames --------------------------------------------------------------


def jpeg_of(image: np.ndarray, quality: int = 70) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def post_frame(client, gid: str, data: bytes, content_type: str = "image/jpeg", **headers):
    return client.post(f"/api/games/{gid}/frames", data=data, content_type=content_type, headers=headers)


def stored_rows(app) -> dict:
    """What is stored, to prove a frame changes nothing: every game as the API shows it
    (state, throws, log), the photo files, and on SQLite every row of every table."""
    import sqlite3

    client = app.test_client()
    out: dict = {"photos": photo_files(app), "games": {}}
    for game in client.get("/api/games").json:
        gid = game["id"]
        out["games"][gid] = [client.get(f"/api/games/{gid}{path}").json for path in ("", "/throws", "/log")]
    if not app.config.get("DATABASE_URL"):
        with sqlite3.connect(app.config["DATABASE"]) as db:
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            out["rows"] = {t: db.execute(f"SELECT * FROM {t}").fetchall() for t in tables}
    return out


@pytest.mark.parametrize("variant, count", [("spiffel", 5), ("wuerfelpoker", 6)])
def test_a_frame_is_read_with_the_expected_count_and_boxes_as_shares(client, variant, count):
    gid = new_game(client, variant)["id"]
    resp = post_frame(client, gid, photo_bytes(SIX_DICE))
    assert resp.status_code == 200, resp.json
    body = resp.json
    assert body["expected"] == count and body["width"] == 640 and body["height"] == 640
    want = reader_sees(SIX_DICE, count)
    assert [d["value"] for d in body["dice"]] == [d["value"] for d in want]
    for got, die in zip(body["dice"], want):
        assert got["box"] == pytest.approx([v / 640 for v in die["box"]], abs=1e-4)
        assert got["unsure"] == (die["confidence"] < 0.7)
        assert got["guess"] == (die["confidence"] <= 0.5)
    assert body["seen"] == sum(not d["guess"] for d in body["dice"])
    # Six dice in view of a five-dice throw: the one the count passed over is said, so the
    # page can ask for it to leave the picture before the still.
    assert body["left_out"] == max(0, len(reader_sees(SIX_DICE, None)) - count) == (1 if count == 5 else 0)
    assert len(body["left_out_boxes"]) == body["left_out"]
    every = {tuple(round(v / 640, 4) for v in d["box"]) for d in reader_sees(SIX_DICE, None)}
    taken = {tuple(d["box"]) for d in body["dice"]}
    assert {tuple(b) for b in body["left_out_boxes"]} == every - taken  # the dice the count did not take
    assert body["read_ms"] > 0 and body["ms"] >= body["read_ms"]
    assert resp.headers["Cache-Control"] == "no-store"


def test_a_frame_and_a_photo_throw_of_the_same_picture_read_the_same_dice(client):
    gid = new_game(client)["id"]
    frame = post_frame(client, gid, photo_bytes(FIVE_DICE)).json
    res = upload(client, gid, photo_bytes(FIVE_DICE)).json
    assert [d["value"] for d in frame["dice"]] == [d["value"] for d in res["dice"]]
    assert frame["dice"][0]["box"] == pytest.approx([v / res["width"] for v in res["dice"][0]["box"]], abs=1e-4)


def frames_url(gid: str, still_side: str | None) -> str:
    return f"/api/games/{gid}/frames" + ("" if still_side is None else f"?still_side={still_side}")


@pytest.mark.parametrize(("still_side", "small"), [
    (None, True),      # judged at the frame's own 384 px: the dice come out about 19 px
    ("384", True),
    ("1280", False),   # a still 3.3 times the frame's size: about 63 px
])
def test_a_frame_says_whether_its_dice_would_be_too_small_in_the_still(client, still_side, small):
    from dicecam.vision.sizes import READABLE_SIDE, typical_side

    gid = new_game(client)["id"]
    image = cv2.imdecode(np.frombuffer(photo_bytes(FIVE_DICE), np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    far = jpeg_of(cv2.resize(image, (384, 384), interpolation=cv2.INTER_AREA))
    body = client.post(frames_url(gid, still_side), data=far, content_type="image/jpeg").json
    assert len(body["dice"]) == 5 and body["seen"] == 5
    side = typical_side(np.array([d["box"] for d in body["dice"]]) * 384)
    assert side < READABLE_SIDE < side * 1280 / 384
    assert body["small_dice"] is small


@pytest.mark.parametrize(("box_side", "frame_side", "still_side", "small"), [
    (20, 640, None, True),     # judged in the frame itself
    (20, 640, 640, True),
    (20, 640, 1280, False),    # 40 px in the still
    (8, 640, 2000, True),      # 25 px
    (8, 640, 4000, True),      # the still is read at 2000 px (WORK_LONG_SIDE): 25 px, not 50
    (12, 640, 4000, False),    # 37.5 px
])
def test_the_still_is_judged_at_the_size_it_is_read(box_side, frame_side, still_side, small):
    from dicecam.webapp.camera import small_in_still

    dice = [{"box": [10.0 * i, 10.0, 10.0 * i + box_side, 10.0 + box_side]} for i in range(5)]
    assert small_in_still(dice, frame_side, still_side) is small
    assert small_in_still([], frame_side, still_side) is False


def test_a_frame_of_dice_as_a_photo_shows_them_is_not_too_small(client):
    gid = new_game(client)["id"]
    body = post_frame(client, gid, photo_bytes(FIVE_DICE)).json
    assert body["small_dice"] is False


@pytest.mark.parametrize("still_side", ["0", "-5", "abc", "1e3", "20001", "9" * 40])
def test_a_still_side_that_is_no_size_is_refused_in_the_phones_language(client, still_side):
    gid = new_game(client)["id"]
    resp = client.post(frames_url(gid, still_side), data=photo_bytes(FIVE_DICE), content_type="image/jpeg",
                       headers={"Accept-Language": "de"})
    assert resp.status_code == 400 and resp.json["code"] == "field"
    assert resp.json["error"] == "Feld „still_side“ fehlt oder ist ungültig."


def test_a_frame_stores_nothing(client, app):
    gid = new_game(client)["id"]
    before_rows, before = stored_rows(app), client.get(f"/api/games/{gid}").json
    for _ in range(3):
        assert post_frame(client, gid, photo_bytes(FIVE_DICE)).status_code == 200
    assert stored_rows(app) == before_rows
    assert client.get(f"/api/games/{gid}").json == before
    assert photo_files(app) == set()


@pytest.mark.parametrize(
    "data, content_type, status, code",
    [
        (b"this is not a photo", "image/jpeg", 400, "image"),
        (b"", "image/jpeg", 400, "image"),
        (b"%PDF-1.4\n" + b"0" * 500, "image/png", 400, "image"),
        (b"\xff\xd8\xff", "text/plain", 415, "frame_type"),
        (b'{"dice": [1, 2, 3, 4, 5]}', "application/json", 415, "frame_type"),
    ],
    ids=["text", "empty", "pdf", "text-plain", "json"],
)
def test_what_is_not_an_image_frame_is_refused(client, app, data, content_type, status, code):
    gid = new_game(client)["id"]
    before = stored_rows(app)
    resp = post_frame(client, gid, data, content_type)
    assert resp.status_code == status
    assert resp.json["code"] == code and resp.json["error"]
    assert stored_rows(app) == before


def test_a_multipart_photo_posted_as_a_frame_is_refused(client):
    gid = new_game(client)["id"]
    resp = client.post(f"/api/games/{gid}/frames", data={"photo": (io.BytesIO(photo_bytes(FIVE_DICE)), "p.jpg")},
                       content_type="multipart/form-data")
    assert resp.status_code == 415


def test_oversize_frames_are_refused_in_bytes_and_in_pixels(client):
    from dicecam.webapp.camera import FRAME_MAX_BYTES

    gid = new_game(client)["id"]
    noise = np.random.default_rng(1).integers(0, 256, (1200, 1200, 3), np.uint8)
    big = jpeg_of(noise, 95)
    assert len(big) > FRAME_MAX_BYTES
    resp = post_frame(client, gid, big)
    assert resp.status_code == 413 and resp.json["code"] == "frame_too_large"
    assert "512 KB" in resp.json["error"]

    wide = jpeg_of(np.full((1000, 2000, 3), 90, np.uint8))
    assert len(wide) < FRAME_MAX_BYTES
    resp = post_frame(client, gid, wide)
    assert resp.status_code == 413 and resp.json["code"] == "frame_pixels"
    assert "2000" in resp.json["error"] and "1280" in resp.json["error"]
    en = client.post(f"/api/games/{gid}/frames?lang=en", data=wide, content_type="image/jpeg")
    assert "at most 1280 pixels" in en.json["error"]


def test_cross_site_frames_and_unknown_hosts_are_refused(client):
    gid = new_game(client)["id"]
    data = photo_bytes(FIVE_DICE)
    resp = post_frame(client, gid, data, Origin="http://evil.example")
    assert resp.status_code == 403 and resp.json["code"] == "cross_site"
    resp = post_frame(client, gid, data, **{"Sec-Fetch-Site": "cross-site"})
    assert resp.status_code == 403
    resp = client.post(f"/api/games/{gid}/frames", data=data, content_type="image/jpeg",
                       headers={"Host": "attacker.example"})
    assert resp.status_code == 400 and resp.json["code"] == "host"
    # The page's own origin is fine.
    assert post_frame(client, gid, data, Origin="http://localhost").status_code == 200


def test_frames_of_unknown_and_finished_games(client):
    assert post_frame(client, "0" * 32, photo_bytes(FIVE_DICE)).status_code == 404
    assert post_frame(client, "../etc", photo_bytes(FIVE_DICE)).status_code == 404
    gid = new_game(client, "wuerfelpoker", target=100)["id"]
    t = throw(client, gid, [1, 1, 5, 5, 3, 6])
    client.post(f"/api/games/{gid}/entries", json={"throw_id": t["throw_id"], "keep": [1, 1, 5, 5]})
    client.post(f"/api/games/{gid}/entries", json={"bank": True})
    assert client.get(f"/api/games/{gid}").json["finished"]
    assert post_frame(client, gid, photo_bytes(FIVE_DICE)).status_code == 409


def test_when_every_frame_slot_is_reading_and_none_may_wait_a_frame_is_turned_away_at_once(tmp_path):
    import threading

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "ADVICE": False, "FRAME_SLOTS": 1,
                      "FRAME_QUEUE": 0, "FRAME_WAIT_S": 3600})
    client = app.test_client()
    gid = new_game(client)["id"]
    slots = app.extensions["dicecam.frame_slots"]
    assert slots.acquire()  # another phone's frame is being read
    answers: list = []
    try:
        # The slot is held until the answer comes: an endpoint that waited would not answer.
        worker = threading.Thread(target=lambda: answers.append(post_frame(client, gid, photo_bytes(FIVE_DICE))))
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive(), "the frame waited for a slot instead of being turned away"
    finally:
        slots.release()
    (resp,) = answers
    assert resp.status_code == 503 and resp.json["code"] == "busy_frames"
    assert resp.headers["Retry-After"]
    # Photo throws have their own slots: live phones never hold up a throw.
    assert slots.acquire()
    try:
        assert upload(client, gid, photo_bytes(FIVE_DICE)).status_code == 201
    finally:
        slots.release()


def test_a_frame_waits_its_turn_only_briefly(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "ADVICE": False, "FRAME_SLOTS": 1,
                      "FRAME_QUEUE": 4, "FRAME_WAIT_S": 0.05})
    client = app.test_client()
    gid = new_game(client)["id"]
    slots = app.extensions["dicecam.frame_slots"]
    assert slots.acquire()
    try:
        resp = post_frame(client, gid, photo_bytes(FIVE_DICE))
    finally:
        slots.release()
    assert resp.status_code == 503 and resp.json["code"] == "busy_frames"
    assert post_frame(client, gid, photo_bytes(FIVE_DICE)).status_code == 200


def test_frame_slots_serve_the_waiting_in_order_and_turn_away_beyond_the_queue():
    import threading

    from dicecam.webapp.camera import FrameSlots

    slots = FrameSlots(1, 3, 3600)
    assert slots.acquire()
    order: list[int] = []
    threads = []
    def wait_then_note(i: int) -> None:
        if slots.acquire():
            order.append(i)

    for i in range(3):
        t = threading.Thread(target=wait_then_note, args=(i,))
        t.start()
        threads.append(t)
        while len(slots.waiting) < i + 1:  # each is in the queue before the next comes
            threading.Event().wait(0.001)
    assert slots.acquire() is False  # the queue is full: turned away at once
    for served in range(1, 4):
        slots.release()  # the slot passes to the longest waiting
        while len(order) < served:
            threading.Event().wait(0.001)
    for t in threads:
        t.join(timeout=10)
    assert order == [0, 1, 2]


def test_a_frame_whose_wait_runs_out_leaves_the_queue():
    from dicecam.webapp.camera import FrameSlots

    slots = FrameSlots(1, 2, 0.01)
    assert slots.acquire()
    assert slots.acquire() is False
    assert not slots.waiting
    slots.release()
    assert slots.acquire()


def test_simultaneous_frames_never_read_more_than_the_slots_at_once(tmp_path):
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from dicecam.webapp.recognition import get_reader

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "ADVICE": False, "FRAME_SLOTS": 2})
    gid = new_game(app.test_client())["id"]
    reader = get_reader(app)
    real_read, lock = reader.read, threading.Lock()
    active, most = [0], [0]

    def counting_read(image, **kw):
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        try:
            return real_read(image, **kw)
        finally:
            with lock:
                active[0] -= 1

    reader.read = counting_read
    data = photo_bytes(FIVE_DICE)
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: post_frame(app.test_client(), gid, data).status_code, range(24)))
    assert set(codes) <= {200, 503} and 200 in codes
    assert most[0] <= 2


def test_without_a_model_a_frame_is_a_503(tmp_path):
    empty = tmp_path / "no-models"
    empty.mkdir()
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "MODELS_DIR": str(empty), "ADVICE": False})
    client = app.test_client()
    gid = new_game(client)["id"]
    resp = post_frame(client, gid, photo_bytes(FIVE_DICE))
    assert resp.status_code == 503 and resp.json["code"] == "no_model"


BOARD_TWO_DICE = "roboflow_dice/dice_309_jpg.rf.74db48dfe3726e2f26935862998574cf.jpg"  # a 4 and a 2 among tokens


def test_a_frame_never_searches_for_missing_dice_but_a_photo_throw_does(client, app):
    """The second, closer look for dice a throw lacks costs more than a frame may (one every
    few hundred ms); the still the page takes once the dice settle gets it."""
    from dicecam.webapp.recognition import get_reader

    reader = get_reader(app)
    looked: list[int] = []
    search = reader._search

    def counted(image, found, photo, readings=None, *, aside=None):
        looked.append(1)
        return search(image, found, photo, readings, aside=aside)

    reader._search = counted
    try:
        gid = new_game(client)["id"]  # five dice expected; the photo shows two
        assert post_frame(client, gid, photo_bytes(BOARD_TWO_DICE)).status_code == 200
        assert looked == []
        res = upload(client, gid, photo_bytes(BOARD_TWO_DICE))
        assert res.status_code in (200, 201), res.json
        assert looked == [1]
    finally:
        del reader._search
