"""What lies on a real game table besides the dice: printed cloths, boards, tokens, pieces, other dice.

Surfaces return a uint8 BGR texture (h, w, 3) in table coordinates, like
`textures.SURFACES`; `add_objects` paints things into such a texture in place. Sizes are in
texture pixels per die edge (`ppd`), so a token is as big beside a die as on a real table.
Both return the boxes (texture pixels, [x0, y0, x1, y1]) of what could pass for a die at a
glance: number tokens, numeral and polyhedral dice, domino halves, eyes, snaps;
`cluttered_surface` and `add_objects` name each one's kind too (`Decoy`). The scene
carries them through its camera, so training can show each one as "not a die" and the
rendered benchmark can say which kinds still pass for dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from dicecam.training.render.drawing import DIE_PIPS, SHIFT, SUB, Box, any_colour, circle, col, disc, shadow, text_at
from dicecam.training.render.textures import fine_noise, jitter_color, smooth_noise

Boxes = list[Box]


@dataclass(frozen=True)
class Decoy:
    """Something that could pass for a die and is none: its box, and which surface or object it is."""

    box: Box
    kind: str


def _contrasting(rng: np.random.Generator, base: np.ndarray) -> np.ndarray:
    """A colour that stands out from `base`: dark on light, light on dark, or another hue."""
    if rng.random() < 0.5:
        return jitter_color(rng, (25, 25, 25) if base.mean() > 120 else (235, 235, 235), 0.15)
    for _ in range(10):
        c = any_colour(rng)
        if np.abs(c - base).sum() > 180:
            return c
    return np.array([255, 255, 255], np.float32) - base


# --- surfaces ---------------------------------------------------------------------------


def polka(rng: np.random.Generator, h: int, w: int, ppd: float) -> tuple[np.ndarray, Boxes]:
    """A polka-dot print: dots of one or two colours, in rows or scattered, small to coin-sized."""
    base = any_colour(rng, sat=(0, 200))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base.astype(np.uint8)
    colours = [_contrasting(rng, base) for _ in range(1 + int(rng.random() < 0.4))]
    r = ppd * float(np.exp(rng.uniform(np.log(0.05), np.log(0.45))))
    step = r * rng.uniform(2.2, 5.0)
    boxes: Boxes = []
    if rng.random() < 0.6:
        ys = np.arange(-step, h + step, step * rng.uniform(0.8, 1.2))
        pts = [(x + (step / 2 if i % 2 else 0), y) for i, y in enumerate(ys) for x in np.arange(-step, w + step, step)]
    else:
        n = int(h * w / step**2)
        pts = list(zip(rng.uniform(0, w, n), rng.uniform(0, h, n)))
    for k, (x, y) in enumerate(pts):
        rr = r * (rng.uniform(0.9, 1.1) if rng.random() < 0.8 else rng.uniform(0.5, 1.6))
        disc(img, (x, y), rr, colours[k % len(colours)])
    # dots as big as pips, in groups, are what the reader must refuse: any window of them
    for _ in range(4):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        boxes.append((x - ppd / 2, y - ppd / 2, x + ppd / 2, y + ppd / 2))
    return _woven(rng, img), boxes


def eyes(rng: np.random.Generator, h: int, w: int, ppd: float) -> tuple[np.ndarray, Boxes]:
    """A print of owls' or cartoon eyes: light rings with dark pupils, in pairs, on a busy ground."""
    base = any_colour(rng, sat=(30, 220))
    t = smooth_noise(rng, h, w, ppd * rng.uniform(1, 4))
    img = np.clip(base[None, None] * (0.75 + 0.5 * t[..., None]), 0, 255).astype(np.uint8)
    r = ppd * rng.uniform(0.12, 0.45)
    step = r * rng.uniform(5, 9)
    white = jitter_color(rng, (235, 240, 240), 0.08)
    ring = _contrasting(rng, base)
    pupil = jitter_color(rng, (20, 20, 20), 0.3)
    boxes: Boxes = []
    for y in np.arange(step / 2, h, step):
        for x in np.arange(step / 2 + rng.uniform(0, step / 2), w, step):
            if rng.random() < 0.15:
                continue
            gap = r * rng.uniform(1.1, 1.6)
            for sx in (-gap, gap):
                c = (x + sx, y)
                disc(img, c, r * 1.2, ring)
                disc(img, c, r, white)
                disc(img, (c[0] + rng.uniform(-0.2, 0.2) * r, c[1] + rng.uniform(-0.2, 0.2) * r),
                     r * rng.uniform(0.35, 0.6), pupil)
            if rng.random() < 0.5:  # a beak or a mouth below
                beak = [[x - r * 0.4, y + r * 0.9], [x + r * 0.4, y + r * 0.9], [x, y + r * 1.6]]
                cv2.fillConvexPoly(img, np.array(beak, np.int32),
                                   col(jitter_color(rng, (40, 140, 230), 0.2)), cv2.LINE_AA)
            boxes.append((x - 2.2 * r, y - 1.5 * r, x + 2.2 * r, y + 1.5 * r))
            boxes.append((x + gap - 1.3 * r, y - 1.3 * r, x + gap + 1.3 * r, y + 1.3 * r))
    return _woven(rng, img), boxes


def speckle(rng: np.random.Generator, h: int, w: int, ppd: float) -> tuple[np.ndarray, Boxes]:
    """Terrazzo, granite, a speckled carpet or laminate: many specks of many colours and sizes."""
    base = any_colour(rng, sat=(0, 120), val=(60, 240))
    t = smooth_noise(rng, h, w, ppd * rng.uniform(0.5, 3))
    img = np.clip(base[None, None] * (0.85 + 0.3 * t[..., None]), 0, 255).astype(np.uint8)
    palette = [_contrasting(rng, base) for _ in range(int(rng.integers(1, 6)))]
    density = rng.uniform(0.5, 6.0)
    n = int(density * h * w / ppd**2 * 4)
    sizes = ppd * np.exp(rng.uniform(np.log(0.015), np.log(rng.uniform(0.05, 0.25)), n))
    xs, ys = rng.uniform(0, w, n), rng.uniform(0, h, n)
    for x, y, s, k in zip(xs, ys, sizes, rng.integers(0, len(palette), n)):
        if s < 1.5:
            img[int(y) % h, int(x) % w] = palette[k].astype(np.uint8)
        elif rng.random() < 0.6:
            disc(img, (x, y), s, palette[k])
        else:  # a chip: an irregular little polygon
            a = rng.uniform(0, 2 * np.pi, 5)
            pts = np.stack([x + s * np.cos(np.sort(a)) * 1.3, y + s * np.sin(np.sort(a)) * 1.3], 1)
            cv2.fillConvexPoly(img, np.array(pts * SUB, np.int32), col(palette[k]), cv2.LINE_AA, SHIFT)
    boxes = [(x - ppd / 2, y - ppd / 2, x + ppd / 2, y + ppd / 2)
             for x, y in zip(rng.uniform(0, w, 4), rng.uniform(0, h, 4))]
    return img, boxes


def printed(rng: np.random.Generator, h: int, w: int, ppd: float) -> tuple[np.ndarray, Boxes]:
    """A print of numbers, letters, stars and flowers (a newspaper, a patterned cloth, a game mat)."""
    base = any_colour(rng, sat=(0, 150))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base.astype(np.uint8)
    ink = [_contrasting(rng, base) for _ in range(int(rng.integers(1, 4)))]
    size = ppd * rng.uniform(0.2, 0.9)
    step = size * rng.uniform(1.5, 3.5)
    boxes: Boxes = []
    for y in np.arange(step / 2, h, step):
        for x in np.arange(step / 2, w, step * rng.uniform(0.9, 1.3)):
            kind = rng.random()
            colour = ink[int(rng.integers(len(ink)))]
            if kind < 0.55:
                text_at(img, str(rng.integers(0, 13)) if rng.random() < 0.7 else chr(65 + int(rng.integers(26))),
                        (x, y), size, colour, rng, angle=float(rng.uniform(-30, 30)))
            elif kind < 0.8:  # a flower: petals around a centre
                for a in np.linspace(0, 2 * np.pi, int(rng.integers(4, 8)), endpoint=False):
                    disc(img, (x + np.cos(a) * size * 0.35, y + np.sin(a) * size * 0.35), size * 0.22, colour)
                disc(img, (x, y), size * 0.15, ink[0])
            else:  # a star
                pts = [(x + np.cos(a) * size * (0.5 if i % 2 == 0 else 0.2),
                        y + np.sin(a) * size * (0.5 if i % 2 == 0 else 0.2))
                       for i, a in enumerate(np.linspace(0, 2 * np.pi, 10, endpoint=False))]
                cv2.fillPoly(img, [np.array(np.array(pts) * SUB, np.int32)], col(colour), cv2.LINE_AA, SHIFT)
            if rng.random() < 0.02:
                boxes.append((x - size, y - size, x + size, y + size))
    return img, boxes


def board(rng: np.random.Generator, h: int, w: int, ppd: float) -> tuple[np.ndarray, Boxes]:
    """A printed game board: hexagon or square fields of textured colour, with number tokens on some."""
    sea = jitter_color(rng, ((170, 110, 30), (200, 150, 60), (120, 160, 60), (60, 90, 120))[rng.integers(4)], 0.15)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = sea.astype(np.uint8)
    fields = [(60, 140, 40), (40, 170, 200), (40, 90, 150), (130, 130, 130), (80, 190, 150), (50, 110, 70)]
    r = ppd * rng.uniform(1.5, 4.5)
    hexes = rng.random() < 0.7
    border = jitter_color(rng, (150, 200, 225), 0.15)
    boxes: Boxes = []
    step_x, step_y = (r * np.sqrt(3), r * 1.5) if hexes else (2 * r, 2 * r)
    x0, y0 = rng.uniform(-w * 0.2, w * 0.2), rng.uniform(-h * 0.2, h * 0.2)
    for j, y in enumerate(np.arange(y0, h + r, step_y)):
        for x in np.arange(x0 + (step_x / 2 if hexes and j % 2 else 0), w + r, step_x):
            colour = jitter_color(rng, fields[rng.integers(len(fields))], 0.2)
            if hexes:
                corners = np.linspace(np.pi / 6, 2 * np.pi + np.pi / 6, 6, endpoint=False)
                pts = np.array([(x + r * np.cos(a), y + r * np.sin(a)) for a in corners])
            else:
                pts = np.array([(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)])
            cv2.fillConvexPoly(img, np.array(pts * SUB, np.int32), col(border), cv2.LINE_AA, SHIFT)
            inner = (pts - (x, y)) * 0.9 + (x, y)
            cv2.fillConvexPoly(img, np.array(inner * SUB, np.int32), col(colour), cv2.LINE_AA, SHIFT)
    # field texture: printed grass, fields, rock
    t = smooth_noise(rng, h, w, ppd * rng.uniform(0.1, 0.4)) - 0.5
    img = np.clip(img.astype(np.float32) * (1 + 0.5 * t[..., None]), 0, 255).astype(np.uint8)
    for j, y in enumerate(np.arange(y0, h + r, step_y)):
        for x in np.arange(x0 + (step_x / 2 if hexes and j % 2 else 0), w + r, step_x):
            if rng.random() < 0.6:
                boxes.append(_token(rng, img, (x + rng.normal(0, 0.05) * r, y + rng.normal(0, 0.05) * r), ppd))
    return img, boxes


def _woven(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A cloth's weave and a little grain over a print."""
    if rng.random() < 0.5:
        return img
    h, w = img.shape[:2]
    t = 1 + fine_noise(rng, h, w) * np.float32(rng.uniform(0.03, 0.12))
    return np.clip(img.astype(np.float32) * t[..., None], 0, 255).astype(np.uint8)


#: The printed surfaces a game table may have, with how often each is drawn.
SURFACES: dict[str, tuple[Callable[[np.random.Generator, int, int, float], tuple[np.ndarray, Boxes]], float]] = {
    "polka": (polka, 0.22),
    "eyes": (eyes, 0.12),
    "speckle": (speckle, 0.28),
    "printed": (printed, 0.13),
    "board": (board, 0.25),
}


def cluttered_surface(rng: np.random.Generator, h: int, w: int, ppd: float) -> tuple[np.ndarray, list[Decoy]]:
    """One of `SURFACES`, drawn by its weight; its decoys are of that surface's kind."""
    names = list(SURFACES)
    p = np.array([SURFACES[n][1] for n in names])
    name = names[rng.choice(len(names), p=p / p.sum())]
    tex, boxes = SURFACES[name][0](rng, h, w, ppd)
    return tex, [Decoy(box, name) for box in boxes]


# --- objects ----------------------------------------------------------------------------


def _token(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A round number token: a number, and sometimes a row of dots (a board game's odds) or dots alone."""
    r = ppd * rng.uniform(0.45, 0.95)
    face = jitter_color(rng, ((170, 215, 235), (225, 235, 240), (120, 180, 220), (200, 200, 200))[rng.integers(4)], 0.1)
    if rng.random() < 0.2:
        face = any_colour(rng)
    shadow(img, circle(c, r), ppd, rng)
    disc(img, c, r, face * 0.8)
    disc(img, c, r * 0.92, face)
    ink = jitter_color(rng, ((30, 30, 40), (30, 30, 170))[rng.integers(2)], 0.2)
    kind = rng.random()
    if kind < 0.8:
        text_at(img, str(int(rng.integers(2, 13))), (c[0], c[1] - r * 0.12), r * rng.uniform(0.5, 0.8), ink, rng,
                angle=float(rng.uniform(-180, 180)) if rng.random() < 0.3 else 0.0)
    if kind > 0.4:
        dots = int(rng.integers(1, 6))
        dr = r * rng.uniform(0.07, 0.12)
        y = c[1] + (r * 0.5 if kind < 0.8 else 0.0)
        for k in range(dots):
            disc(img, (c[0] + (k - (dots - 1) / 2) * dr * 2.6, y), dr, ink)
    return (c[0] - r, c[1] - r, c[0] + r, c[1] + r)


def numeral_mark(number: str, rng: np.random.Generator) -> str:
    """A numeral die's `number` as printed: a 6 or a 9 half the time with a dot, which tells it upright."""
    return number + ("." if number in ("6", "9") and rng.random() < 0.5 else "")


def _numeral_die(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A die with digits or a polyhedral die (d4 to d20) seen from above: facets and a number."""
    s = ppd * rng.uniform(0.8, 1.3)
    body = any_colour(rng, sat=(0, 255), val=(30, 240))
    ink = _contrasting(rng, body)
    sides = int(rng.choice([3, 4, 4, 5, 6, 10]))
    a0 = rng.uniform(0, 2 * np.pi)
    outer = np.array([(c[0] + s * 0.6 * np.cos(a0 + 2 * np.pi * k / sides),
                       c[1] + s * 0.6 * np.sin(a0 + 2 * np.pi * k / sides)) for k in range(sides)])
    shadow(img, outer, ppd, rng)
    cv2.fillConvexPoly(img, np.array(outer * SUB, np.int32), col(body * 0.7), cv2.LINE_AA, SHIFT)
    top = (outer - c) * rng.uniform(0.55, 0.8) + c  # the face turned to the camera, facets around it
    cv2.fillConvexPoly(img, np.array(top * SUB, np.int32), col(body), cv2.LINE_AA, SHIFT)
    for p, q in zip(top, outer):
        cv2.line(img, (int(p[0] * SUB), int(p[1] * SUB)), (int(q[0] * SUB), int(q[1] * SUB)), col(body * 0.55), 1,
                 cv2.LINE_AA, SHIFT)
    marked = numeral_mark(str(int(rng.integers(1, 21 if sides != 4 else 7))), rng)
    text_at(img, marked, c, s * rng.uniform(0.3, 0.5), ink, rng,
            angle=float(rng.uniform(0, 360)))
    return (c[0] - s * 0.6, c[1] - s * 0.6, c[0] + s * 0.6, c[1] + s * 0.6)


def _domino(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A domino seen from above: two halves of pips, a line between them."""
    s = ppd * rng.uniform(0.7, 1.1)
    ang = rng.uniform(0, 180)
    light, dark = (235, 238, 240), (25, 25, 25)
    body_bgr, ink_bgr = (light, dark) if rng.random() < 0.6 else (dark, light)
    body, ink = jitter_color(rng, body_bgr, 0.08), jitter_color(rng, ink_bgr, 0.2)
    rect = cv2.boxPoints((c, (2 * s, s), ang))
    shadow(img, rect, ppd, rng)
    cv2.fillConvexPoly(img, np.array(rect * SUB, np.int32), col(body), cv2.LINE_AA, SHIFT)
    rot = cv2.getRotationMatrix2D(c, -ang, 1.0)
    for half in (-1, 1):
        a = rot @ np.array([c[0], c[1] - 0.45 * s, 1.0]) if half < 0 else rot @ np.array([c[0], c[1] + 0.45 * s, 1.0])
        if half < 0:
            b = rot @ np.array([c[0], c[1] + 0.45 * s, 1.0])
            cv2.line(img, (int(a[0] * SUB), int(a[1] * SUB)), (int(b[0] * SUB), int(b[1] * SUB)), col(ink), 1,
                     cv2.LINE_AA, SHIFT)
        n = int(rng.integers(0, 7))
        grid = [(-1, -1), (1, 1), (0, 0), (1, -1), (-1, 1), (-1, 0), (1, 0)][:n]
        for gx, gy in grid:
            p = rot @ np.array([c[0] + half * s * 0.5 + gx * s * 0.25, c[1] + gy * s * 0.25, 1.0])
            disc(img, (p[0], p[1]), s * 0.08, ink)
    return (c[0] - s, c[1] - s, c[0] + s, c[1] + s)


def domino_row(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """One to three dominoes side by side at one angle, as players line them up: halves with a
    die's pip layouts, pips and the divider of varied weight, an outline now and then. The box
    holds the whole row."""
    s = ppd * rng.uniform(0.7, 1.1)
    n = int(rng.integers(1, 4))
    gap = s * rng.uniform(0.0, 0.3)
    ang = float(rng.uniform(0, 180))
    light, dark = (235, 238, 240), (25, 25, 25)
    body_bgr, ink_bgr = (light, dark) if rng.random() < 0.6 else (dark, light)
    body, ink = jitter_color(rng, body_bgr, 0.08), jitter_color(rng, ink_bgr, 0.2)
    pip, line = s * rng.uniform(0.07, 0.12), int(rng.integers(1, 4))
    outline = rng.random() < 0.5
    rot = cv2.getRotationMatrix2D(c, -ang, 1.0)

    def at(x: float, y: float) -> tuple[float, float]:
        p = rot @ np.array([x, y, 1.0])
        return float(p[0]), float(p[1])

    corners = []
    for k in range(n):
        cx = c[0] + (k - (n - 1) / 2) * (s + gap)  # dominoes stand long side up, side by side
        rect = np.array([at(cx - s / 2, c[1] - s), at(cx + s / 2, c[1] - s), at(cx + s / 2, c[1] + s),
                         at(cx - s / 2, c[1] + s)], np.float32)
        corners.append(rect)
        shadow(img, rect, ppd, rng)
        cv2.fillConvexPoly(img, np.array(rect * SUB, np.int32), col(body), cv2.LINE_AA, SHIFT)
        if outline:
            cv2.polylines(img, [np.array(rect * SUB, np.int32)], True, col(ink), 1, cv2.LINE_AA, SHIFT)
        a, b = at(cx - 0.4 * s, c[1]), at(cx + 0.4 * s, c[1])
        cv2.line(img, (int(a[0] * SUB), int(a[1] * SUB)), (int(b[0] * SUB), int(b[1] * SUB)), col(ink), line,
                 cv2.LINE_AA, SHIFT)
        for half in (-1, 1):
            for gx, gy in DIE_PIPS[int(rng.integers(0, 7))]:
                disc(img, at(cx + gx * s * 0.25, c[1] + half * s * 0.5 + gy * s * 0.25), pip, ink)
    pts = np.concatenate(corners)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    return (float(x0), float(y0), float(x1), float(y1))


def _piece(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A meeple, a pawn or a little house: a coloured wooden piece with a shaded edge."""
    s = ppd * rng.uniform(0.6, 1.4)
    colour = any_colour(rng, sat=(120, 255), val=(60, 240))
    kind = rng.integers(3)
    if kind == 0:  # meeple: head, arms, legs
        pts = np.array([(0, -0.5), (0.15, -0.35), (0.45, -0.15), (0.4, 0.0), (0.2, 0.0), (0.4, 0.5), (0.1, 0.5),
                        (0, 0.25), (-0.1, 0.5), (-0.4, 0.5), (-0.2, 0.0), (-0.4, 0.0), (-0.45, -0.15), (-0.15, -0.35)])
    elif kind == 1:  # a house
        pts = np.array([(-0.4, 0.4), (0.4, 0.4), (0.4, -0.1), (0, -0.5), (-0.4, -0.1)])
    else:  # a road or a bar
        pts = np.array([(-0.5, -0.12), (0.5, -0.12), (0.5, 0.12), (-0.5, 0.12)])
    m = cv2.getRotationMatrix2D((0, 0), rng.uniform(0, 360), s)[:, :2]
    pts = pts @ m.T + c
    shadow(img, pts, ppd, rng)
    cv2.fillPoly(img, [np.array(pts * SUB, np.int32)], col(colour * 0.7), cv2.LINE_AA, SHIFT)
    cv2.fillPoly(img, [np.array(((pts - c) * 0.85 + c) * SUB, np.int32)], col(colour), cv2.LINE_AA, SHIFT)
    return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))


def _card(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A playing or game card: a white face with corner numbers and suit marks, or a patterned back."""
    s = ppd * rng.uniform(2.0, 3.5)
    ang = rng.uniform(0, 180)
    rect = cv2.boxPoints((c, (s, s * 1.4), ang))
    shadow(img, rect, ppd, rng)
    face = jitter_color(rng, (240, 242, 245), 0.05) if rng.random() < 0.7 else any_colour(rng)
    cv2.fillConvexPoly(img, np.array(rect * SUB, np.int32), col(face), cv2.LINE_AA, SHIFT)
    ink = jitter_color(rng, ((30, 30, 30), (40, 40, 200))[rng.integers(2)], 0.2)
    rot = cv2.getRotationMatrix2D(c, -ang, 1.0)
    n = int(rng.integers(1, 11))
    for _ in range(n):
        p = rot @ np.array([c[0] + rng.uniform(-0.3, 0.3) * s, c[1] + rng.uniform(-0.5, 0.5) * s, 1.0])
        disc(img, (p[0], p[1]), s * 0.07, ink)
    corner = rot @ np.array([c[0] - 0.38 * s, c[1] - 0.58 * s, 1.0])
    text_at(img, str(int(rng.integers(1, 11))), (corner[0], corner[1]), s * 0.12, ink, rng, angle=-ang)
    return (c[0] - 0.3 * s, c[1] - 0.3 * s, c[0] + 0.3 * s, c[1] + 0.3 * s)


def _hardware(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A tray's metal snap, a rivet or a hook: a small shiny ring with a highlight."""
    r = ppd * rng.uniform(0.12, 0.4)
    metal = jitter_color(rng, ((170, 170, 175), (60, 130, 190), (90, 90, 95))[rng.integers(3)], 0.15)
    disc(img, c, r * 1.1, metal * 0.4)
    disc(img, c, r, metal)
    disc(img, c, r * 0.55, metal * 0.6)
    a = rng.uniform(0, 2 * np.pi)
    disc(img, (c[0] + np.cos(a) * r * 0.5, c[1] + np.sin(a) * r * 0.5), r * 0.2, (250, 250, 250))
    if rng.random() < 0.4:  # a hook's bent wire
        end = (c[0] + np.cos(a) * r * 4, c[1] + np.sin(a) * r * 4)
        cv2.line(img, (int(c[0] * SUB), int(c[1] * SUB)), (int(end[0] * SUB), int(end[1] * SUB)), col(metal),
                 max(1, int(r * 0.4)), cv2.LINE_AA, SHIFT)
    return (c[0] - r * 2, c[1] - r * 2, c[0] + r * 2, c[1] + r * 2)


def _scrap(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A scrap of paper or a wrapper: an irregular light polygon, sometimes with print."""
    s = ppd * rng.uniform(0.5, 2.0)
    a = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(4, 8))))
    rad = s * rng.uniform(0.5, 1.0, len(a))
    pts = np.stack([c[0] + rad * np.cos(a), c[1] + rad * np.sin(a)], 1)
    colour = jitter_color(rng, (235, 240, 242), 0.08) if rng.random() < 0.7 else any_colour(rng)
    cv2.fillPoly(img, [np.array(pts * SUB, np.int32)], col(colour), cv2.LINE_AA, SHIFT)
    if rng.random() < 0.5:
        text_at(img, str(int(rng.integers(0, 100))), c, s * 0.4, (40, 40, 40), rng)
    return (c[0] - s, c[1] - s, c[0] + s, c[1] + s)


def _lint(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A few specks of lint or crumbs: tiny light fibres and dots, as a dark cloth gathers them."""
    colour = jitter_color(rng, (220, 220, 225), 0.2) if rng.random() < 0.7 else any_colour(rng)
    spread = ppd * rng.uniform(0.3, 1.2)
    for _ in range(int(rng.integers(2, 9))):
        p = np.array(c) + rng.normal(0, spread / 2, 2)
        if rng.random() < 0.5:
            disc(img, (p[0], p[1]), ppd * rng.uniform(0.02, 0.08), colour)
        else:
            q = p + rng.normal(0, ppd * 0.15, 2)
            cv2.line(img, (int(p[0] * SUB), int(p[1] * SUB)), (int(q[0] * SUB), int(q[1] * SUB)), col(colour), 1,
                     cv2.LINE_AA, SHIFT)
    return (c[0] - spread, c[1] - spread, c[0] + spread, c[1] + spread)


def _bowl(rng: np.random.Generator, img: np.ndarray, c: tuple[float, float], ppd: float) -> Box:
    """A bowl or a cup seen from above: a big ring with a bright rim and a shaded inside."""
    r = ppd * rng.uniform(2.5, 6.0)
    colour = any_colour(rng, sat=(0, 200))
    shadow(img, circle(c, r), ppd * 3, rng)
    disc(img, c, r, colour * 0.85)
    disc(img, c, r * 0.92, np.minimum(colour * 1.3 + 20, 255))
    disc(img, c, r * 0.85, colour * 0.7)
    disc(img, (c[0] + r * 0.1, c[1] + r * 0.1), r * 0.6, colour * 0.6)
    return (c[0] - r, c[1] - r, c[0] + r, c[1] + r)


#: Things on a table, with how often each is drawn.
OBJECTS: dict[str, tuple[Callable[..., Box], float]] = {
    "token": (_token, 0.22),
    "numeral_die": (_numeral_die, 0.16),
    "domino": (_domino, 0.06),
    "piece": (_piece, 0.12),
    "card": (_card, 0.08),
    "hardware": (_hardware, 0.12),
    "scrap": (_scrap, 0.08),
    "lint": (_lint, 0.1),
    "bowl": (_bowl, 0.06),
}


#: A table of things to draw: kind -> (painter, how often).
Objects = Mapping[str, tuple[Callable[..., Box], float]]


def add_objects(rng: np.random.Generator, img: np.ndarray, ppd: float, *, count: int,
                objects: Objects | None = None) -> list[Decoy]:
    """Paint `count` random `objects` (default `OBJECTS`) into `img` in place; their boxes
    (texture pixels) and kinds."""
    h, w = img.shape[:2]
    objects = OBJECTS if objects is None else objects
    names = list(objects)
    p = np.array([objects[n][1] for n in names])
    decoys: list[Decoy] = []
    for _ in range(count):
        name = names[rng.choice(len(names), p=p / p.sum())]
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        decoys.append(Decoy(objects[name][0](rng, img, c, ppd), name))
    return decoys
