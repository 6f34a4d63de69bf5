"""Things on a table made of rows of round marks, which a pip reader takes for a die's face.

A remote's or a calculator's keypad (dev's `dice_431`: a remote's 3x4 buttons read as a sure
6), a toy brick's studs (2x2 reads as 4, 2x3 as 6), a sewing button's holes (2 or 4) and
coins. Like `clutter`'s objects each is painted into a table texture in place, sized by
`ppd` (texture pixels per die edge), and returns the box of what could pass for a die: the
die-sized block of marks a reader would box, not the whole object.
"""

from __future__ import annotations

import cv2
import numpy as np

from dicecam.training.render.drawing import (
    SHIFT,
    SQUARE,
    SUB,
    Box,
    any_colour,
    box_around,
    circle,
    col,
    disc,
    shadow,
    text_at,
    turned,
)
from dicecam.training.render.textures import jitter_color


def _keypad(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A remote, calculator or phone: a dark or light body with a grid of round or square keys,
    some with a digit; the box is a die-sized 2x2 to 3x3 block of keys."""
    rows, cols = int(rng.integers(3, 6)), int(rng.integers(3, 5))
    pitch = ppd * rng.uniform(0.28, 0.45)
    ang = float(rng.uniform(0, 360))
    body = jitter_color(rng, ((30, 30, 32), (200, 200, 205), (60, 60, 70))[rng.integers(3)], 0.15)
    key = jitter_color(rng, (230, 230, 230) if body.mean() < 120 else (40, 40, 45), 0.2)
    if rng.random() < 0.3:
        key = any_colour(rng, sat=(60, 255), val=(80, 240))
    half = np.array([cols * pitch / 2 + pitch * 0.6, rows * pitch / 2 + pitch * 1.5])
    outline = turned(c, ang, SQUARE * half)
    shadow(img, outline, ppd, rng)
    cv2.fillConvexPoly(img, np.array(outline * SUB, np.int32), col(body), cv2.LINE_AA, SHIFT)
    grid = np.array([((j - (cols - 1) / 2) * pitch, (i - (rows - 1) / 2) * pitch + pitch * 0.6)
                     for i in range(rows) for j in range(cols)])
    keys = turned(c, ang, grid)
    round_keys = rng.random() < 0.6
    size = pitch * rng.uniform(0.25, 0.4)
    ink = jitter_color(rng, (30, 30, 30) if key.mean() > 120 else (230, 230, 230), 0.2)
    digits = rng.random() < 0.5
    for n, (x, y) in enumerate(keys):
        if round_keys:
            disc(img, (x, y), size, key)
        else:
            square = turned((x, y), ang, SQUARE * size)
            cv2.fillConvexPoly(img, np.array(square * SUB, np.int32), col(key), cv2.LINE_AA, SHIFT)
        if digits and size > 3:
            text_at(img, str((n + 1) % 10), (x, y), size * 0.9, ink, rng, angle=-ang)
    r0, c0 = int(rng.integers(0, rows - 1)), int(rng.integers(0, cols - 1))
    r1, c1 = min(rows, r0 + int(rng.integers(2, 4))), min(cols, c0 + int(rng.integers(2, 4)))
    block = grid.reshape(rows, cols, 2)[r0:r1, c0:c1].reshape(-1, 2)
    return box_around(turned(c, ang, block), pitch / 2)


def _bricks(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A toy brick from above: a coloured block with 1x2 to 2x4 round studs, each lit on one side."""
    rows, cols = (1, 2) if rng.random() < 0.15 else (2, int(rng.choice([2, 2, 3, 4])))
    pitch = ppd * rng.uniform(0.3, 0.5)
    ang = float(rng.uniform(0, 360))
    colour = any_colour(rng, sat=(100, 255), val=(60, 240)) if rng.random() < 0.85 else \
        jitter_color(rng, (235, 235, 235), 0.05)
    half = np.array([cols * pitch / 2, rows * pitch / 2])
    outline = turned(c, ang, SQUARE * half)
    shadow(img, outline, ppd, rng, strength=0.45)
    cv2.fillConvexPoly(img, np.array(outline * SUB, np.int32), col(colour * 0.85), cv2.LINE_AA, SHIFT)
    grid = np.array([((j - (cols - 1) / 2) * pitch, (i - (rows - 1) / 2) * pitch)
                     for i in range(rows) for j in range(cols)])
    studs = turned(c, ang, grid)
    r = pitch * rng.uniform(0.28, 0.36)
    lit = rng.uniform(0, 2 * np.pi)
    for x, y in studs:
        disc(img, (x + np.cos(lit) * r * 0.15, y + np.sin(lit) * r * 0.15), r * 1.05, colour * 0.6)
        disc(img, (x, y), r, np.minimum(colour * 1.15 + 15, 255))
        disc(img, (x - np.cos(lit) * r * 0.4, y - np.sin(lit) * r * 0.4), r * 0.3, np.minimum(colour * 1.4 + 50, 255))
    return box_around(studs, pitch / 2)


def _button(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A sewing button: a disc with a rim and two or four holes in its middle."""
    r = ppd * rng.uniform(0.25, 0.6)
    colour = any_colour(rng, sat=(0, 255), val=(40, 245))
    shadow(img, circle(c, r), ppd, rng)
    disc(img, c, r, colour * 0.8)
    disc(img, c, r * 0.8, colour)
    hole = r * rng.uniform(0.1, 0.16)
    gap = r * rng.uniform(0.22, 0.32)
    ang = rng.uniform(0, np.pi)
    n = 4 if rng.random() < 0.6 else 2
    for k in range(n):
        a = ang + 2 * np.pi * k / n + (np.pi / 4 if n == 4 else 0)
        disc(img, (c[0] + np.cos(a) * gap, c[1] + np.sin(a) * gap), hole, colour * 0.3)
    return (c[0] - r, c[1] - r, c[0] + r, c[1] + r)


def _coin(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A coin: a metal disc with a raised rim, a lit side and a faint embossed mark."""
    r = ppd * rng.uniform(0.35, 0.7)
    metal = jitter_color(rng, ((60, 140, 190), (170, 170, 175), (70, 110, 150))[rng.integers(3)], 0.12)
    shadow(img, circle(c, r), ppd, rng)
    disc(img, c, r, metal * 0.75)
    disc(img, c, r * 0.88, metal)
    lit = rng.uniform(0, 2 * np.pi)
    disc(img, (c[0] + np.cos(lit) * r * 0.35, c[1] + np.sin(lit) * r * 0.35), r * 0.35, np.minimum(metal * 1.2, 255))
    if rng.random() < 0.6:
        text_at(img, str(int(rng.choice([1, 2, 5, 10, 20, 50]))), c, r * 0.6, metal * 0.6, rng,
                angle=float(rng.uniform(0, 360)))
    return (c[0] - r, c[1] - r, c[0] + r, c[1] + r)


#: These things, with how often each is drawn (`clutter.add_objects` takes them with its own).
GRID_OBJECTS = {
    "keypad": (_keypad, 0.3),
    "bricks": (_bricks, 0.3),
    "button": (_button, 0.25),
    "coin": (_coin, 0.15),
}
