"""The render package's shared drawing kit: colours, discs, outlines, shadows, text and boxes.

`clutter`, `grid_objects` and `tiles` paint their pieces with these. OpenCV draws at whole
pixels unless given a `shift`: points scaled by `SUB` and drawn with `SHIFT` land at
sixteenths of a pixel, so a small piece is drawn where its box says, not up to half a
pixel off, and a box stays true to what a reader sees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import cv2
import numpy as np

from dicecam.training.render.dice import PIPS

#: A box in texture pixels: x0, y0, x1, y1.
Box = tuple[float, float, float, float]

#: OpenCV's fractional bits: points are scaled by `SUB` and drawn with `shift=SHIFT`.
SHIFT = 4
SUB = 1 << SHIFT
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
          cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_PLAIN)

#: A die's pip layout for each count (the dice renderer's), and none: real dominoes' halves and
#: score sheets' printed faces carry these, where `clutter._domino` draws other layouts for 4-6.
DIE_PIPS = {0: [], **PIPS}

#: A unit square's corners around its centre, to scale and turn.
SQUARE = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64)


def col(c: float | Iterable[float]) -> tuple[float, ...]:
    """A colour as OpenCV draws with it: a grey level or BGR values."""
    return tuple(float(v) for v in c) if isinstance(c, Iterable) else (float(c),) * 3


def any_colour(rng: np.random.Generator, *, sat: tuple[int, int] = (40, 255),
               val: tuple[int, int] = (40, 250)) -> np.ndarray:
    """A random BGR colour (float32) of any hue, its saturation and value drawn from `sat` and `val`."""
    hsv = np.array([[[rng.integers(0, 180), rng.integers(*sat), rng.integers(*val)]]], np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def disc(img: np.ndarray, c: tuple[float, float], r: float, colour, *, thickness: int = -1) -> None:
    """A filled (or, with `thickness`, outlined) anti-aliased circle of radius `r` at `c`, to the sub-pixel."""
    cv2.circle(img, (int(c[0] * SUB), int(c[1] * SUB)), max(1, int(r * SUB)), col(colour), thickness,
               cv2.LINE_AA, SHIFT)


def text_at(img: np.ndarray, text: str, c: tuple[float, float], height: float, colour, rng: np.random.Generator,
            *, font: int | None = None, angle: float = 0.0) -> None:
    """`text` centred at `c`, `height` pixels tall, turned by `angle` degrees."""
    font = _FONTS[rng.integers(len(_FONTS))] if font is None else font
    thick = max(1, int(height / 9))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = height / max(th, 1)
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = int(thick * 2 + 2)
    tile = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(tile, text, (pad, th + pad), font, scale, 255, thick, cv2.LINE_AA)
    m = np.asarray(cv2.getRotationMatrix2D((tile.shape[1] / 2, tile.shape[0] / 2), angle, 1.0), np.float64)
    m[:, 2] += (c[0] - tile.shape[1] / 2, c[1] - tile.shape[0] / 2)
    h, w = img.shape[:2]
    x0, y0 = int(max(0, c[0] - tile.shape[1])), int(max(0, c[1] - tile.shape[1]))
    x1, y1 = int(min(w, c[0] + tile.shape[1])), int(min(h, c[1] + tile.shape[1]))
    if x1 <= x0 or y1 <= y0:
        return
    m[:, 2] -= (x0, y0)
    a = cv2.warpAffine(tile, m, (x1 - x0, y1 - y0)).astype(np.float32)[..., None] / 255
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(roi * (1 - a) + np.float32(colour) * a, 0, 255).astype(img.dtype)


def shadow(img: np.ndarray, pts: np.ndarray, ppd: float, rng: np.random.Generator, *, strength: float = 0.35) -> None:
    """Darken under a flat object whose outline is the polygon `pts`, a little offset and soft."""
    h, w = img.shape[:2]
    blur = max(1, int(ppd * 0.08))
    d = rng.uniform(-0.08, 0.08, 2) * ppd
    pts = np.asarray(pts, np.float64) + d
    x0, y0 = np.floor(pts.min(0)).astype(int) - 3 * blur
    x1, y1 = np.ceil(pts.max(0)).astype(int) + 3 * blur
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.array((pts - (x0, y0)) * SUB, np.int32)], 255, cv2.LINE_AA, SHIFT)
    soft = cv2.GaussianBlur(mask, (2 * blur + 1, 2 * blur + 1), 0).astype(np.float32) / 255
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi.astype(np.float32) * (1 - strength * soft[..., None])).astype(img.dtype)


def circle(c: tuple[float, float], r: float, n: int = 24) -> np.ndarray:
    """`n` points (n, 2) round a circle of radius `r` at `c`: a round thing's outline, for `shadow`."""
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], 1)


def turned(c: tuple[float, float], ang: float, offsets: np.ndarray) -> np.ndarray:
    """Points `offsets` (N, 2) around `c`, turned by `ang` degrees."""
    t = np.deg2rad(ang)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return np.asarray(offsets, np.float64) @ rot.T + c


def box_around(points: np.ndarray, grow: float = 0.0) -> Box:
    """The box around `points` (N, 2) grown by `grow` each way: a block of marks at half its
    pitch is the block as a reader boxes it; 0 is a painted outline's own box."""
    x0, y0 = points.min(axis=0) - grow
    x1, y1 = points.max(axis=0) + grow
    return (float(x0), float(y0), float(x1), float(y1))


def seen_at_angle(draw: Callable[[np.ndarray, tuple[float, float]], Any], img: np.ndarray, c: tuple[float, float],
                  reach: float, *, squash: float, turn: float) -> tuple[float, float, float, float] | None:
    """Run `draw` (it paints a flat thing into the image part it is given, at the point given: `c`
    there, within `reach` px of it) on a copy of `img`'s part around `c`, then paint what it changed
    into `img` in place, squashed to `squash` of its size across the axis `turn` degrees from level,
    about `c`: a disc seen from the side is an ellipse. Returns the painted part's box, None where
    nothing was painted."""
    h, w = img.shape[:2]
    x0, y0 = max(int(c[0] - reach), 0), max(int(c[1] - reach), 0)
    x1, y1 = min(int(np.ceil(c[0] + reach)), w), min(int(np.ceil(c[1] + reach)), h)
    if x1 <= x0 or y1 <= y0:
        return None
    part = img[y0:y1, x0:x1]
    draw_at = np.ascontiguousarray(part.copy())
    draw(draw_at, (c[0] - x0, c[1] - y0))
    mask = (np.abs(draw_at.astype(np.int16) - part).max(axis=2) > 0).astype(np.float32)
    t = np.deg2rad(turn)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    m = rot @ np.diag([1.0, squash]) @ rot.T  # squash along the axis `turn` + 90 degrees
    centre = np.array([c[0] - x0, c[1] - y0])
    warp = np.hstack([m, (centre - m @ centre)[:, None]])
    size = (x1 - x0, y1 - y0)
    seen = cv2.warpAffine(draw_at, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpAffine(mask, warp, size, flags=cv2.INTER_LINEAR)[..., None]
    if not (alpha > 0.5).any():
        return None
    part[:] = np.round(seen * alpha + part * (1 - alpha)).astype(np.uint8)
    ys, xs = np.nonzero(alpha[..., 0] > 0.5)
    return float(xs.min() + x0), float(ys.min() + y0), float(xs.max() + 1 + x0), float(ys.max() + 1 + y0)
