"""Live camera frames (issue 35): a phone in live mode posts small frames, the server reads them.

`POST /api/games/<id>/frames` takes one frame (a JPEG, PNG or WebP body, about 640 px
on the long side) and answers the dice the shipped `DiceReader` finds in it, told how
many the current throw must show (`expected_dice`): the same reading as a photo
throw, so the live overlay and the throw that follows agree. Nothing is stored; the
page decides when the scene has settled and then posts a full-size still as a normal
photo throw (`POST /throws`). With `?still_side=N` (the long side of the still the
camera would take) the answer also says whether the dice would come out too small in
that still to be read reliably (`small_dice`), so the page can ask to move closer first;
`left_out` says how many dice it saw beyond the count (dice set aside, another player's),
so the page can ask for them to leave the picture before the still is taken.

Frames are cheap but many (several phones, several a second each), so they are
bounded apart from photo throws:

- each frame by its bytes (`FRAME_MAX_BYTES`) and pixels (`FRAME_MAX_SIDE`);
- all frames together by `FRAME_SLOTS` readings at once, with up to `FRAME_QUEUE` more
  waiting their turn (first come, first served) for at most `FRAME_WAIT_S`. A frame
  that finds the queue full is answered 503 at once, and one whose wait runs out 503
  too: the phone simply sends its next frame. Photo throws have their own slots, so
  live phones never hold up a throw.

Access is checked as for every write (Host, Origin: `webapp.access`).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import ClassVar

import numpy as np
from flask import Blueprint, Flask, current_app, jsonify, request

from dicecam.vision.decode import ImageError, read_header
from dicecam.vision.sizes import too_small_to_read
from dicecam.webapp import games, parse
from dicecam.webapp.db import game_cache, get_store
from dicecam.webapp.errors import Busy, Conflict, NotFound, TooLarge, Unavailable, UnsupportedType
from dicecam.webapp.recognition import WORK_LONG_SIDE, ImageRefused, RecognitionUnavailable, decode, get_reader

#: A 640 px JPEG at quality 0.7 is 30-80 KB; a 1280 px one well under this.
FRAME_MAX_BYTES = 512 * 1024
#: Frames are previews: at most this many pixels on either side (the page sends 640).
FRAME_MAX_SIDE = 1280
#: Frames read at once, over all phones: one per core of the 2-core laptop.
FRAME_SLOTS = 2
#: Frames that may wait for a slot (six phones at a table: two reading, four waiting),
#: each at most FRAME_WAIT_S: an overlay later than that is worth less than the next frame.
#: benchmarks/bench_live.py: without the queue, six phones got 2 overlays a second, with it 4.
FRAME_QUEUE = 4
FRAME_WAIT_S = 0.25
FRAME_TYPES = frozenset({"image/jpeg", "image/png", "image/webp"})

bp = Blueprint("camera", __name__, url_prefix="/api")


class FrameSlots:
    """At most `slots` frames read at once; up to `queue` more wait their turn, first come
    first served, for at most `wait_s`. Beyond that a frame is turned away at once."""

    def __init__(self, slots: int, queue: int, wait_s: float) -> None:
        self.free = slots
        self.queue = queue
        self.wait_s = wait_s
        self.waiting: deque[object] = deque()
        self.cond = threading.Condition()

    def acquire(self) -> bool:
        with self.cond:
            if self.free > 0 and not self.waiting:
                self.free -= 1
                return True
            if len(self.waiting) >= self.queue:
                return False
            ticket = object()
            self.waiting.append(ticket)
            deadline = time.monotonic() + self.wait_s
            while True:
                if self.waiting[0] is ticket and self.free > 0:
                    self.waiting.popleft()
                    self.free -= 1
                    self.cond.notify_all()
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    self.waiting.remove(ticket)
                    self.cond.notify_all()
                    return False
                self.cond.wait(left)

    def release(self) -> None:
        with self.cond:
            self.free += 1
            self.cond.notify_all()


class FramesBusy(Busy):
    """Every frame slot is reading and the queue is full (or this frame's wait ran out): it is
    skipped, the phone sends its next one."""

    headers: ClassVar[dict[str, str]] = {"Retry-After": "1"}

    def __init__(self) -> None:
        super().__init__("err_busy_frames")


@bp.record_once
def _setup(state) -> None:
    app: Flask = state.app
    app.config.setdefault("FRAME_SLOTS", FRAME_SLOTS)
    app.config.setdefault("FRAME_MAX_BYTES", FRAME_MAX_BYTES)
    app.config.setdefault("FRAME_MAX_SIDE", FRAME_MAX_SIDE)
    app.config.setdefault("FRAME_QUEUE", FRAME_QUEUE)
    app.config.setdefault("FRAME_WAIT_S", FRAME_WAIT_S)
    app.extensions["dicecam.frame_slots"] = FrameSlots(
        app.config["FRAME_SLOTS"], app.config["FRAME_QUEUE"], app.config["FRAME_WAIT_S"])


@bp.url_value_preprocessor
def _check_ids(endpoint: str | None, values: dict | None) -> None:
    if values and "game_id" in values and not parse.valid_id(values["game_id"]):
        raise NotFound("err_not_found")


def _frame_bytes(limit: int) -> bytes:
    """The request's body, refused unread when it says it is bigger than `limit`."""
    if request.mimetype not in FRAME_TYPES:
        raise UnsupportedType("err_frame_type")
    if request.content_length is not None and request.content_length > limit:
        raise TooLarge("err_frame_too_large", kb=limit // 1024)
    data = request.stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge("err_frame_too_large", kb=limit // 1024)
    return data


def _checked(data: bytes, max_side: int) -> bytes:
    """The frame's own bytes if its header shows a frame no bigger than `max_side`."""
    if not data:
        raise ImageRefused("err_image_empty")
    try:
        header = read_header(data)
    except ImageError as exc:
        raise ImageRefused(f"err_image_{exc.code}", reason=str(exc)) from exc
    if max(header.width, header.height) > max_side:
        raise TooLarge("err_frame_pixels", width=header.width, height=header.height, side=max_side)
    return data


def frame_json(dice: list[dict], width: int, height: int, low: float) -> list[dict]:
    """The reader's dice with boxes as shares of the frame (0..1), and whether each is unsure.

    `guess`: the reader gave it at most `ASKED_AT_MOST` confidence, so it was added to
    reach the count, was nearly left out for another box, or its box overlaps another die's
    (`ask_overlapping`): the page never takes a throw by itself while one is there.
    """
    from dicecam.vision.candidates import ASKED_AT_MOST

    out = []
    for d in dice:
        x0, y0, x1, y1 = d["box"]
        conf = float(d["confidence"])
        out.append({
            "value": int(d["value"]),
            "box": [round(x0 / width, 4), round(y0 / height, 4), round(x1 / width, 4), round(y1 / height, 4)],
            "confidence": round(conf, 3),
            "unsure": conf < low,
            "guess": conf <= ASKED_AT_MOST,
        })
    return out


def small_in_still(dice: list[dict], frame_side: int, still_side: int | None) -> bool:
    """Whether a frame's dice would come out too small to read reliably in a still whose
    long side is `still_side` (the frame's own where not given), as the still is read: at
    most `WORK_LONG_SIDE` pixels (`vision.sizes.READABLE_SIDE`)."""
    scale = min(still_side or frame_side, WORK_LONG_SIDE) / frame_side
    return too_small_to_read(np.asarray([d["box"] for d in dice], np.float32).reshape(-1, 4) * scale)


@bp.post("/games/<game_id>/frames")
def read_frame(game_id: str):
    """Read one live frame; nothing is stored. 503 at once when every frame slot is busy."""
    start = time.perf_counter()
    config = current_app.config
    data = _frame_bytes(config["FRAME_MAX_BYTES"])
    stored = games.load(get_store(), game_id, game_cache())
    if stored.game.finished:
        raise Conflict("err_finished")
    expected = games.expected_dice(stored)
    still_side = parse.pixels(request.args.get("still_side"), "still_side")
    data = _checked(data, config["FRAME_MAX_SIDE"])

    slots = current_app.extensions["dicecam.frame_slots"]
    if not slots.acquire():
        raise FramesBusy()
    try:
        try:
            image = decode(data)
        except ImageError as exc:
            raise ImageRefused(f"err_image_{exc.code}", reason=str(exc)) from exc
        try:
            reader = get_reader(current_app)
        except RecognitionUnavailable as exc:
            raise Unavailable("err_no_model") from exc
        read_start = time.perf_counter()
        # A frame is read without the search for missing dice (`DiceReader.read`): a
        # frame comes every few hundred ms, and the still the page takes once the dice
        # settle is read in full.
        counted = reader.read_counted(image, expected, search=False)
        dice, left_out = counted.dice.to_list(), counted.left_out.to_list()
        read_ms = (time.perf_counter() - read_start) * 1000
    finally:
        slots.release()

    height, width = image.shape[:2]
    found = frame_json(dice, width, height, float(reader.low_confidence))
    resp = jsonify({
        "dice": found,
        "small_dice": small_in_still(dice, max(width, height), still_side),
        "seen": sum(not d["guess"] for d in found),
        "expected": expected,
        "left_out": len(left_out),
        "left_out_boxes": [d["box"] for d in frame_json(left_out, width, height, float(reader.low_confidence))],
        "version": stored.version,
        "width": int(width),
        "height": int(height),
        "read_ms": round(read_ms, 1),
        "ms": round((time.perf_counter() - start) * 1000, 1),
    })
    resp.headers["Cache-Control"] = "no-store"
    return resp
