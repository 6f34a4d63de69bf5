"""Photos changed the way photos from other cameras, dice and rooms differ, labels moved along.

Each change takes (photo, labelled boxes) and returns both changed, so that a changed
photo is scored against the same dice (`benchmarks/robustness.py`, `tests/vision`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

# A change takes (photo, labelled boxes) and returns both changed.
Change = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def _photometric(fn: Callable[[np.ndarray], np.ndarray]) -> Change:
    return lambda image, boxes: (fn(image), boxes)


def _scaled(factor: float) -> Change:
    def change(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = image.shape[:2]
        size = (round(w * factor), round(h * factor))
        interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
        return cv2.resize(image, size, interpolation=interp), boxes * np.float32(factor)
    return change


def further_away(factor: float) -> Change:
    """The photo shrunk by `factor` in the middle of a same-size frame of its table's colour:
    the dice small in the frame, as from a phone held high over a big table."""
    def change(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h, w = image.shape[:2]
        small = cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=cv2.INTER_AREA)
        canvas = np.empty_like(image)
        canvas[:] = np.median(image.reshape(-1, 3), axis=0).astype(np.uint8)
        y0, x0 = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
        canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
        return canvas, boxes * np.float32(factor) + np.array([x0, y0, x0, y0], np.float32)
    return change


def turn_hue(image: np.ndarray, degrees: float) -> np.ndarray:
    """The photo with every colour's hue turned by `degrees` (saturation and value kept)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    # OpenCV keeps 8-bit hue in 2-degree steps, 0-179.
    hsv[..., 0] = (hsv[..., 0].astype(np.int16) + int(degrees // 2)) % 180
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def _hue(degrees: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda image: turn_hue(image, degrees)


def _gamma(g: float) -> Callable[[np.ndarray], np.ndarray]:
    lut = np.clip(((np.arange(256) / 255.0) ** g) * 255 + 0.5, 0, 255).astype(np.uint8)
    return lambda image: cv2.LUT(image, lut)


def _jpeg(quality: int) -> Callable[[np.ndarray], np.ndarray]:
    def recode(image: np.ndarray) -> np.ndarray:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert decoded is not None  # a JPEG that OpenCV itself just wrote
        return decoded
    return recode


def _quarter_turn(image: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Clockwise: (x, y) -> (h - y, x)."""
    h = image.shape[0]
    x0, y0, x1, y1 = boxes.T
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), np.stack([h - y1, x0, h - y0, x1], axis=1)


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


CHANGES: dict[str, Change] = {
    "as taken": lambda image, boxes: (image, boxes),
    "colours swapped (BGR->RGB)": _photometric(lambda image: np.ascontiguousarray(image[..., ::-1])),
    "hue +120 degrees": _photometric(_hue(120)),
    "grey": _photometric(_grey),
    "dark room (gamma 2)": _photometric(_gamma(2.0)),
    "bright, washed out (gamma 0.5)": _photometric(_gamma(0.5)),
    "half resolution": _scaled(0.5),
    "double resolution": _scaled(2.0),
    "from further away (dice at 50%)": further_away(0.5),
    "JPEG quality 25": _photometric(_jpeg(25)),
    "shaky hand (blur sigma 1.5)": _photometric(lambda image: cv2.GaussianBlur(image, (0, 0), 1.5)),
    "phone turned (90 degrees)": _quarter_turn,
}
