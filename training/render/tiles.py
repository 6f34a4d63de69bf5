"""Game pieces the size and shape of a die's face: tiles, wooden cubes, chips, score sheets.

A letter tile (Scrabble, Rummikub) is a light square with a letter or a number; a mahjong
tile of the circles suit carries one to nine rings in rows, as a die's face carries pips;
Euro games' resource cubes are plain coloured cubes; a poker chip is a disc with spots round
its edge; a Kniffel or Yahtzee score sheet prints a die's faces, one to six, down its upper
section. Like `clutter`'s objects each is painted into a table texture in place, sized by
`ppd` (texture pixels per die edge), and returns its box.
"""

from __future__ import annotations

import string

import cv2
import numpy as np

from dicecam.training.render.drawing import (
    DIE_PIPS,
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

#: Ring layouts of the mahjong circles suit (1-9), in units of a third of the tile's width.
_RINGS: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)], 2: [(0, -1), (0, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-0.6, -1), (0.6, -1), (-0.6, 0), (0.6, 0), (-0.6, 1), (0.6, 1)],
    7: [(-1, -1.2), (0, -0.9), (1, -0.6), (-0.6, 0.3), (0.6, 0.3), (-0.6, 1.1), (0.6, 1.1)],
    8: [(-0.6, -1.2), (0.6, -1.2), (-0.6, -0.4), (0.6, -0.4), (-0.6, 0.4), (0.6, 0.4), (-0.6, 1.2), (0.6, 1.2)],
    9: [(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)],
}


def _tile_body(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float,
               aspect: float) -> tuple[Box, float, float]:
    """A light tile with a darker edge and a shadow: its box, its half width and its angle."""
    half = ppd * rng.uniform(0.4, 0.6)
    ang = float(rng.uniform(0, 360))
    outline = turned(c, ang, SQUARE * (half, half * aspect))
    shadow(img, outline, ppd, rng, strength=0.4)
    face = jitter_color(rng, ((225, 238, 244), (215, 225, 232), (235, 240, 240))[rng.integers(3)], 0.06)
    cv2.fillConvexPoly(img, np.array(outline * SUB, np.int32), col(face * 0.8), cv2.LINE_AA, SHIFT)
    inner = turned(c, ang, SQUARE * (half * 0.88, half * aspect * 0.9))
    cv2.fillConvexPoly(img, np.array(inner * SUB, np.int32), col(face), cv2.LINE_AA, SHIFT)
    return box_around(outline), half, ang


def _letter_tile(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A Scrabble or Rummikub tile: a letter or a number, sometimes a small score in a corner."""
    box, half, ang = _tile_body(rng, img, c, ppd, aspect=1.0 if rng.random() < 0.6 else 1.3)
    ink = jitter_color(rng, ((30, 30, 30), (40, 40, 190), (170, 90, 30), (40, 130, 40))[rng.integers(4)], 0.2)
    mark = rng.choice(list(string.ascii_uppercase)) if rng.random() < 0.6 else str(int(rng.integers(1, 14)))
    text_at(img, str(mark), c, half * rng.uniform(0.7, 1.1), ink, rng, angle=-ang)
    if rng.random() < 0.5:
        corner = turned(c, ang, np.array([(half * 0.55, half * 0.55)]))[0]
        text_at(img, str(int(rng.integers(1, 11))), (corner[0], corner[1]), half * 0.3, ink, rng, angle=-ang)
    return box


def _ring_tile(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A mahjong tile of the circles suit: one to nine coloured rings in a die's kind of rows."""
    aspect = rng.uniform(1.25, 1.4)
    box, half, ang = _tile_body(rng, img, c, ppd, aspect=aspect)
    n = int(rng.integers(1, 10))
    unit = half * 0.55
    r = unit * (0.45 if n > 4 else 0.6) * (1.5 if n == 1 else 1.0)
    colours = [jitter_color(rng, bgr, 0.2) for bgr in ((40, 40, 180), (60, 120, 40), (140, 60, 30))]
    for k, (x, y) in enumerate(_RINGS[n]):
        p = turned(c, ang, np.array([(x * unit, y * unit * aspect * 0.8)]))[0]
        colour = colours[(k + n) % 3]
        disc(img, (p[0], p[1]), r, colour)
        disc(img, (p[0], p[1]), r * 0.6, np.array([235, 240, 240], np.float32))
        disc(img, (p[0], p[1]), r * 0.25, colour)
    return box


def _cube(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A wooden resource cube: a plain coloured square, lit on one edge, shaded on another."""
    half = ppd * rng.uniform(0.25, 0.45)
    ang = float(rng.uniform(0, 360))
    colour = any_colour(rng, sat=(120, 255), val=(60, 230))
    outline = turned(c, ang, SQUARE * half)
    shadow(img, outline, ppd, rng, strength=0.5)
    cv2.fillConvexPoly(img, np.array(outline * SUB, np.int32), col(colour * 0.7), cv2.LINE_AA, SHIFT)
    top = turned((c[0] - half * 0.08, c[1] - half * 0.08), ang, SQUARE * half * 0.85)
    cv2.fillConvexPoly(img, np.array(top * SUB, np.int32), col(colour), cv2.LINE_AA, SHIFT)
    return box_around(outline)


def _chip(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A poker chip: a coloured disc with light spots round its edge and a plain middle."""
    r = ppd * rng.uniform(0.5, 0.8)
    colour = any_colour(rng, sat=(100, 255), val=(50, 220))
    shadow(img, circle(c, r), ppd, rng)
    disc(img, c, r, colour)
    spots = int(rng.choice([4, 6, 8]))
    a0 = rng.uniform(0, 2 * np.pi)
    for k in range(spots):
        a = a0 + 2 * np.pi * k / spots
        disc(img, (c[0] + np.cos(a) * r * 0.82, c[1] + np.sin(a) * r * 0.82), r * 0.14, (235, 235, 235))
    disc(img, c, r * 0.55, np.minimum(colour * 1.2 + 20, 255))
    if rng.random() < 0.5:
        text_at(img, str(int(rng.choice([1, 5, 10, 25, 100]))), c, r * 0.4, colour * 0.5, rng,
                angle=float(rng.uniform(0, 360)))
    return (c[0] - r, c[1] - r, c[0] + r, c[1] + r)


def _score_sheet(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A dice game's score sheet: ruled paper with a column of printed die faces, one to six, each
    a small square with its pips, and numbers written beside some; the box is the faces' column."""
    icon = ppd * rng.uniform(0.3, 0.6)
    ang = float(rng.uniform(0, 360))
    gap = icon * rng.uniform(1.3, 1.8)
    paper = jitter_color(rng, (240, 244, 245), 0.04)
    ink = jitter_color(rng, ((30, 30, 30), (90, 40, 30), (40, 40, 160))[rng.integers(3)], 0.2)
    width, height = icon * rng.uniform(5, 9), gap * 7
    outline = turned(c, ang, SQUARE * (width / 2, height / 2))
    shadow(img, outline, ppd, rng, strength=0.2)
    cv2.fillConvexPoly(img, np.array(outline * SUB, np.int32), col(paper), cv2.LINE_AA, SHIFT)
    left = -width / 2 + icon
    for row in range(8):  # the ruled lines
        y = -height / 2 + row * gap
        a, b = turned(c, ang, np.array([(-width / 2, y), (width / 2, y)]))
        cv2.line(img, (int(a[0] * SUB), int(a[1] * SUB)), (int(b[0] * SUB), int(b[1] * SUB)), col(paper * 0.7), 1,
                 cv2.LINE_AA, SHIFT)
    centres = []
    for value in range(1, 7):
        y = -height / 2 + (value - 0.5) * gap
        centre = turned(c, ang, np.array([(left, y)]))[0]
        centres.append(centre)
        square = turned((centre[0], centre[1]), ang, SQUARE * icon / 2)
        cv2.polylines(img, [np.array(square * SUB, np.int32)], True, col(ink), 1, cv2.LINE_AA, SHIFT)
        for gx, gy in DIE_PIPS[value]:
            p = turned((centre[0], centre[1]), ang, np.array([(gx * icon * 0.27, gy * icon * 0.27)]))[0]
            disc(img, (p[0], p[1]), icon * 0.09, ink)
        if rng.random() < 0.5:
            score = turned(c, ang, np.array([(left + icon * 2.5, y)]))[0]
            text_at(img, str(value * int(rng.integers(1, 6))), (score[0], score[1]), icon * 0.6, ink, rng,
                    angle=-ang)
    return box_around(np.array(centres), icon * 0.75)


#: These pieces, with how often each is drawn (`clutter.add_objects` takes them with its own).
TILE_OBJECTS = {
    "letter_tile": (_letter_tile, 0.3),
    "ring_tile": (_ring_tile, 0.3),
    "cube": (_cube, 0.2),
    "chip": (_chip, 0.2),
    "score_sheet": (_score_sheet, 0.2),
}
