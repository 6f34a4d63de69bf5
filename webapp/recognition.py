"""Photo bytes -> dice and an annotated photo, with one model per app and a memory budget.

Reading a photo is the server's only heavy work, so it is bounded twice:

- each photo by its decode cost in bytes (`vision.decode.decode_cost`: what decoding
  it really spends; a big JPEG is decoded at a half, quarter or eighth of its size,
  never under `WORK_LONG_SIDE`), at most `DECODE_BUDGET`;
- all photos together by `PHOTO_SLOTS`: at most that many uploads are held in
  memory, decoded and read at once (the rest wait for a slot, briefly, in their
  spooled temporary files).

So N simultaneous worst-case uploads cost at most PHOTO_SLOTS x (upload + decode
budget + reading) over the idle server: about 600 MB in all with the defaults
(`benchmarks/hostile.py` measures it).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import IO

import cv2
import numpy as np
from flask import Flask

from dicecam.vision.decode import ImageError, decode_cost, read_header
from dicecam.vision.detections import UNSURE_BELOW
from dicecam.webapp.errors import BadRequest, Busy, TooLarge, Unavailable
from dicecam.webapp.games import Photo
from dicecam.webapp.rows import Die

# Phones upload about 2000 px on the long side; bigger photos (from API clients)
# are shrunk for reading and annotating, while the original is kept as evidence.
WORK_LONG_SIDE = 2000
# 12-megapixel phone photos pass at 8 bits (4032x3024); two at once plus the idle
# server and the live frames stay under 600 MB (benchmarks/hostile.py).
DECODE_BUDGET = 128 * 1024 * 1024
PHOTO_SLOTS = 2
SLOT_WAIT_S = 20.0


class RecognitionUnavailable(RuntimeError):
    """The dice model could not be loaded (not installed yet, or broken)."""


class ImageRefused(BadRequest):
    """A photo that cannot be read; its text says why in the phone's language."""

    @property
    def code(self) -> str:
        return "image"


@dataclass(frozen=True)
class Reading:
    """What the model saw in one photo."""

    dice: list[dict]          # [{"value", "box", "confidence"}], boxes in the annotated photo
    annotated_jpeg: bytes
    width: int
    height: int
    low_confidence: float
    read_ms: float
    left_out_dice: tuple[dict, ...] = ()  # dice seen beyond the throw's count (drawn grey, not counted)


_lock = threading.Lock()


def init_app(app: Flask) -> None:
    app.config.setdefault("DECODE_BUDGET", DECODE_BUDGET)
    app.config.setdefault("PHOTO_SLOTS", PHOTO_SLOTS)
    app.config.setdefault("PHOTO_WAIT_S", SLOT_WAIT_S)
    app.extensions["dicecam.photo_slots"] = threading.BoundedSemaphore(app.config["PHOTO_SLOTS"])


def get_reader(app: Flask):
    """The app's `DiceReader`, loaded on first use and then kept."""
    reader = app.extensions.get("dicecam.reader")
    if reader is not None:
        return reader
    with _lock:
        reader = app.extensions.get("dicecam.reader")
        if reader is None:
            try:
                from dicecam.vision.reader import DiceReader

                reader = DiceReader(app.config.get("MODELS_DIR"))
            except (ImportError, OSError, RuntimeError, ValueError) as exc:
                app.logger.warning("dice model unavailable: %s", exc)
                raise RecognitionUnavailable(str(exc)) from exc
            app.extensions["dicecam.reader"] = reader
    return reader


def decode(data: bytes) -> np.ndarray:
    """Bytes -> BGR image; `vision.decode.ImageError` for anything unreadable."""
    from dicecam.vision.decode import decode_image

    return decode_image(data, reduce_to=WORK_LONG_SIDE)


def as_read(image: np.ndarray) -> np.ndarray:
    """A decoded photo as it is read and annotated: at most `WORK_LONG_SIDE` pixels a side
    (the dice boxes of a throw are in this image's pixels)."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(h, w))
    if scale < 1.0:
        # At least a pixel a side: a 5000x1 strip would round to no rows at all.
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return image


def read_photo(app: Flask, image: np.ndarray, *, count: int | None = None) -> Reading:
    """Read the dice in a decoded photo and draw them onto a copy.

    `count`: how many dice the throw shows (the game knows it); the reader then
    returns that many, marking the ones it had to add or doubted unsure, and the
    dice it saw beyond them are drawn grey and counted in `left_out`.
    """
    from dicecam.vision.annotate import annotate

    reader = get_reader(app)
    image = as_read(image)
    start = time.perf_counter()
    if count is None:
        dice, left_out = reader.read(image), None
    else:
        counted = reader.read_counted(image, count)
        dice, left_out = counted.dice, counted.left_out
    read_ms = (time.perf_counter() - start) * 1000
    low = float(getattr(reader, "low_confidence", UNSURE_BELOW))
    drawn = annotate(image, dice, low_confidence=low, left_out=left_out)
    ok, jpeg = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise RuntimeError("could not encode the annotated photo")
    return Reading(
        dice=dice.to_list(),
        annotated_jpeg=jpeg.tobytes(),
        width=int(image.shape[1]),
        height=int(image.shape[0]),
        low_confidence=low,
        read_ms=read_ms,
        left_out_dice=() if left_out is None else tuple(left_out.to_list()),
    )


def _refused(exc: ImageError) -> ImageRefused:
    return ImageRefused(f"err_image_{exc.code}", reason=str(exc))


def check_photo(data: bytes, budget: int) -> bytes:
    """The photo's own bytes (anything after the image's end is cut off), if its
    decode fits `budget`; `ImageRefused` or `TooLarge` otherwise."""
    if not data:
        raise ImageRefused("err_image_empty")
    try:
        facts = read_header(data)  # the player's reason for anything vision cannot read
    except ImageError as exc:
        raise _refused(exc) from exc
    cost = decode_cost(facts, reduce_to=WORK_LONG_SIDE)
    if cost > budget:
        raise TooLarge(
            "err_photo_pixels", width=facts.width, height=facts.height, bits=facts.bits,
            mb=cost // (1024 * 1024), budget=budget // (1024 * 1024),
        )
    return data[: facts.end]


def read_upload(app: Flask, upload: IO[bytes], *, count: int | None = None) -> tuple[Photo, list[Die]]:
    """Read an uploaded photo within the app's photo slots; the evidence and the dice
    (`count`: the dice the throw must show, see `read_photo`)."""
    from dicecam.webapp.evidence import sniff_type

    slots = app.extensions["dicecam.photo_slots"]
    if not slots.acquire(timeout=app.config["PHOTO_WAIT_S"]):
        raise Busy("err_busy_photos")
    try:
        data = check_photo(upload.read(), app.config["DECODE_BUDGET"])
        try:
            image = decode(data)
        except ImageError as exc:
            raise _refused(exc) from exc
        try:
            reading = read_photo(app, image, count=count)
        except RecognitionUnavailable as exc:
            raise Unavailable("err_no_model") from exc
        del image
    finally:
        slots.release()
    photo = Photo(
        data=data,
        mime=sniff_type(data),
        annotated=reading.annotated_jpeg,
        width=reading.width,
        height=reading.height,
        low_confidence=reading.low_confidence,
        read_ms=reading.read_ms,
        left_out_dice=tuple(_stored(d) for d in reading.left_out_dice),
    )
    return photo, [_stored(d) for d in reading.dice]


def _stored(die: dict) -> Die:
    """A die read, as a throw keeps it."""
    return {"value": die["value"], "box": die["box"], "confidence": die["confidence"]}
