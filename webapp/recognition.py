"""Photo bytes -> dice and an annotated photo, with one model per app."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import cv2
import numpy as np
from flask import Flask

from dicecam.vision.detections import UNSURE_BELOW

# Phones upload about 2000 px on the long side; bigger photos (from API clients)
# are shrunk for reading and annotating, while the original is kept as evidence.
WORK_LONG_SIDE = 2000


class RecognitionUnavailable(RuntimeError):
    """The dice model could not be loaded (not installed yet, or broken)."""


@dataclass(frozen=True)
class Reading:
    """What the model saw in one photo."""

    dice: list[dict]          # [{"value", "box", "confidence"}], boxes in the annotated photo
    annotated_jpeg: bytes
    width: int
    height: int
    low_confidence: float
    read_ms: float


_lock = threading.Lock()


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

    return decode_image(data)


def read_photo(app: Flask, image: np.ndarray) -> Reading:
    """Read the dice in a decoded photo and draw them onto a copy."""
    from dicecam.vision.annotate import annotate

    reader = get_reader(app)
    h, w = image.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(h, w))
    if scale < 1.0:
        image = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    start = time.perf_counter()
    dice = reader.read(image)
    read_ms = (time.perf_counter() - start) * 1000
    low = float(getattr(reader, "low_confidence", UNSURE_BELOW))
    drawn = annotate(image, dice, low_confidence=low)
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
    )
