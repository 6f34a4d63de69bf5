"""Die geometry, materials, pip faces, camera projection and drawing of one die."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from dicecam.training.render.textures import jitter_color, smooth_noise

# --- cube geometry (die-local frame, edge 1, centre at the origin) --------------------

NORMALS = np.array(
    [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], np.float64
)
VERTICES = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])


def _face_corners(n: np.ndarray) -> np.ndarray:
    # Texture x runs along u, y along v, and u x v = -n so that a face seen from outside
    # is not mirrored.
    u = np.array([0.0, 1.0, 0.0]) if abs(n[0]) > 0.5 else np.array([1.0, 0.0, 0.0])
    v = np.cross(u, n)
    return np.array([0.5 * n + 0.5 * (su * u + sv * v) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


FACE_CORNERS = np.stack([_face_corners(n) for n in NORMALS])  # (6, 4, 3)

# A standard die (opposite faces sum to 7) in body axes +X, -X, +Y, -Y, +Z, -Z.
_BASE_VALUES = np.array([3, 4, 5, 2, 1, 6])


def _cube_rotations() -> list[np.ndarray]:
    rots = []
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for signs in np.ndindex(2, 2, 2):
            m = np.zeros((3, 3))
            for row, (col, s) in enumerate(zip(perm, signs)):
                m[row, col] = -1 if s else 1
            if np.linalg.det(m) > 0:
                rots.append(m)
    return rots


_ROTATIONS = _cube_rotations()


def _face_value_table() -> dict[tuple[int, int], np.ndarray]:
    """(handedness, top value) -> (4, 6) possible values on the local faces."""
    table: dict[tuple[int, int], list[np.ndarray]] = {}
    for hand in (0, 1):
        base = _BASE_VALUES.copy()
        if hand:
            base[[0, 1]] = base[[1, 0]]
        for m in _ROTATIONS:
            # local face i shows the body face that m turns onto it
            values = np.array([base[int(np.argmax(NORMALS @ (m.T @ n)))] for n in NORMALS])
            table.setdefault((hand, int(values[4])), []).append(values)
    return {k: np.stack(v) for k, v in table.items()}


_FACE_VALUES = _face_value_table()


def face_values(rng: np.random.Generator, top: int) -> np.ndarray:
    """Values on the local faces (+X, -X, +Y, -Y, +Z, -Z) of a die showing ``top`` upward.

    Opposite faces sum to 7 and adjacent faces follow a real die of random handedness.
    """
    options = _FACE_VALUES[(int(rng.integers(2)), top)]
    return options[rng.integers(len(options))].copy()


# --- camera ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Camera:
    """Pinhole camera over the table plane z = 0; ``rot`` maps world to camera axes."""

    f: float
    cx: float
    cy: float
    rot: np.ndarray
    centre: np.ndarray

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) -> image points (N, 2)."""
        pc = (pts - self.centre) @ self.rot.T
        z = np.maximum(pc[:, 2:3], 1e-6)
        return pc[:, :2] / z * self.f + (self.cx, self.cy)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return (pts - self.centre) @ self.rot[2]

    def to_table(self, uv: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Image points (N, 2) -> points on the plane at height ``z`` (N, 3)."""
        uv = np.atleast_2d(uv)
        d = np.column_stack([(uv[:, 0] - self.cx) / self.f, (uv[:, 1] - self.cy) / self.f, np.ones(len(uv))])
        d = d @ self.rot  # camera -> world directions
        t = (z - self.centre[2]) / d[:, 2]
        return self.centre + t[:, None] * d

    def table_homography(self) -> np.ndarray:
        """3x3 map from table-plane (x, y, 1) to image pixels."""
        k = np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1]])
        return k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], -self.rot @ self.centre])


def make_camera(w: int, h: int, *, tilt_deg: float, roll_deg: float, fov_deg: float) -> Camera:
    """Camera at distance 1 from the table origin, tilted ``tilt_deg`` from straight down.

    The tilt is lowered until every image corner sees the table at a sane distance.
    """
    f = max(w, h) / (2 * np.tan(np.radians(fov_deg) / 2))
    corners = np.array([[0, 0], [w, 0], [0, h], [w, h]], np.float64)
    tilt = tilt_deg
    while True:
        t, r = np.radians(tilt), np.radians(roll_deg)
        fwd = np.array([0.0, np.sin(t), -np.cos(t)])
        x = np.array([1.0, 0.0, 0.0])
        y = np.cross(fwd, x)
        xr, yr = np.cos(r) * x + np.sin(r) * y, -np.sin(r) * x + np.cos(r) * y
        cam = Camera(f, w / 2, h / 2, np.stack([xr, yr, fwd]), -fwd)
        d = cam.depth(cam.to_table(corners))
        if tilt <= 0 or (np.all(d > 0) and d.max() / d.min() < 3.5):
            return cam
        tilt = max(0.0, tilt - 4)


# --- materials ------------------------------------------------------------------------


@dataclass(frozen=True)
class Material:
    """How a die looks: colours are BGR 0..255."""

    body: tuple[float, float, float]
    pip: tuple[float, float, float]
    one_pip: tuple[float, float, float]
    four_pip: tuple[float, float, float]
    one_scale: float = 1.0
    pip_radius: float = 0.1
    pip_spread: float = 0.27
    opacity: float = 1.0
    marble: tuple[float, float, float] | None = None
    marble_freq: float = 2.0
    marble_mix: float = 0.7
    gloss: float = 0.2
    shininess: float = 20.0
    corner: float = 0.12
    engraved: bool = False
    square_pips: bool = False
    #: Light caught on the wall of a drilled pip: a bright crescent (0 none, 1 white) at this angle.
    glint: float = 0.0
    glint_angle: float = 0.0
    #: A window or lamp mirrored in a glossy face: a sharp bright patch of this strength (0 none).
    #: On a dark die it can look like one pip more (byler_d6's glossy black 4 read as 5).
    sheen: float = 0.0
    #: Digits instead of pips (a numeral die): not a pip die, the reader must refuse its faces.
    numerals: bool = False


def _c(bgr) -> tuple[float, float, float]:
    b, g, r = bgr
    return float(b), float(g), float(r)


_WHITE = (235, 238, 240)
_BLACK = (25, 25, 25)
_RED = (40, 30, 200)
_COLOURS = {
    "red": (45, 35, 190), "green": (60, 140, 30), "blue": (170, 80, 25), "yellow": (40, 200, 230),
    "black": (30, 30, 30), "purple": (130, 40, 100), "orange": (30, 120, 235), "pink": (170, 120, 230),
    "teal": (140, 130, 20), "ivory": (200, 230, 240), "brown": (40, 70, 120), "grey": (130, 130, 130),
    # pastels: a light die on a white tray is still a die (not a blank, not "not a die")
    "light_blue": (235, 205, 150), "mint": (190, 230, 180), "lavender": (230, 190, 205), "peach": (170, 200, 250),
}


#: Sub-pixel drawing: OpenCV takes coordinates in fixed point with this many fraction bits.
_SHIFT = 4
_SUB = 1 << _SHIFT


#: Per material kind (white, coloured, black, translucent, marbled, pearl, smoke): how often it mirrors the room.
_SHEEN_SHARE = (0.15, 0.3, 0.5, 0.4, 0.3, 0.3, 0.5)

#: Share of coloured and translucent dice whose pips are a pale shade of the body (cream
#: or gold pips on an orange die): real dice the reader misread as the 4 of a 6's corners.
#: 0 draws nothing more from the generator, so every seed renders as before; training turns
#: it on (`train reader --pale-pips`).
PALE_PIPS = 0.0
_CREAM = (200, 235, 250)
_GOLD = (50, 190, 235)


def pale_pips(rng: np.random.Generator, body: np.ndarray) -> np.ndarray:
    """Pips that stand out from `body` only a little: on a light body a darker shade of it,
    on any other a blend a third to two thirds of the way to white, cream or gold."""
    if body.mean() > 150:
        return np.clip(body * rng.uniform(0.35, 0.65), 0, 255)
    tint = np.asarray((_WHITE, _CREAM, _GOLD)[rng.integers(3)], np.float32)
    return np.clip(body + rng.uniform(0.3, 0.65) * (tint - body), 0, 255)


def random_material(rng: np.random.Generator, *, clean: bool = False) -> Material:
    """Any die look: white/ivory, coloured, black, translucent, marbled, pearlescent or smoke; some glossy."""
    spread = float(rng.uniform(0.22, 0.33))
    pip_r = float(min(rng.uniform(0.07, 0.16), 0.47 * spread))  # the six's pips must not touch
    corner = float(rng.uniform(0.05, 0.35))  # sharp-ish to strongly rounded
    if clean:
        return Material(_WHITE, _BLACK, _BLACK, _BLACK, pip_radius=0.11, corner=0.1)
    kind = rng.choice(7, p=[0.31, 0.23, 0.08, 0.11, 0.11, 0.08, 0.08])
    marble = None
    opacity, gloss, shin = 1.0, float(rng.uniform(0.05, 0.35)), float(rng.uniform(8, 40))
    engraved, glint = bool(rng.random() < 0.3), 0.0
    if kind == 0:  # white or ivory, black pips
        body = jitter_color(rng, _WHITE if rng.random() < 0.6 else _COLOURS["ivory"], 0.06)
        pip = jitter_color(rng, _BLACK, 0.3) if rng.random() < 0.85 else jitter_color(
            rng, ((120, 40, 20), _RED, (30, 90, 30))[rng.integers(3)], 0.2)
    elif kind == 1:  # coloured
        name = ("red", "green", "blue", "yellow", "purple", "orange", "pink", "teal", "brown", "grey",
                "light_blue", "mint", "lavender", "peach")[rng.integers(14)]
        body = jitter_color(rng, _COLOURS[name], 0.15)
        light_body = body.mean() > 150
        pip = jitter_color(rng, _BLACK if light_body or rng.random() < 0.2 else _WHITE, 0.1)
        if PALE_PIPS and rng.random() < PALE_PIPS:
            pip = pale_pips(rng, body)
    elif kind == 2:  # black
        body = jitter_color(rng, _COLOURS["black"], 0.3)
        pip = jitter_color(rng, (_WHITE, _RED, (30, 200, 230), (40, 170, 220))[rng.integers(4)], 0.1)
        glint = float(rng.uniform(0.3, 0.9)) if engraved and rng.random() < 0.5 else 0.0
    elif kind == 3:  # translucent (casino style)
        name = ("red", "blue", "green", "purple", "yellow", "grey")[rng.integers(6)]
        body = jitter_color(rng, _COLOURS[name], 0.15)
        pip = jitter_color(rng, _WHITE, 0.05)
        if PALE_PIPS and rng.random() < PALE_PIPS:
            pip = pale_pips(rng, body)
        opacity = float(rng.uniform(0.45, 0.8))
        gloss, shin, corner = float(rng.uniform(0.3, 0.7)), float(rng.uniform(30, 80)), float(rng.uniform(0.01, 0.06))
        spread = float(rng.uniform(0.27, 0.33))  # casino dice: big pips near the edges
        pip_r = float(min(rng.uniform(0.12, 0.16), 0.47 * spread))
    elif kind == 4:  # marbled / swirled
        names = list(_COLOURS)
        a, b = rng.choice(len(names), 2, replace=False)
        body = jitter_color(rng, _COLOURS[names[a]], 0.15)
        marble = _c(jitter_color(rng, _COLOURS[names[b]], 0.15))
        mean = (body.mean() + np.mean(marble)) / 2
        # red pips too: on a dark swirl they all but vanish, and a reader must still count them
        light = (_WHITE, (60, 180, 220), _RED)[rng.choice(3, p=[0.55, 0.15, 0.3])] if mean <= 140 else None
        pip = jitter_color(rng, _BLACK if light is None else light, 0.1)
    elif kind == 5:  # pearlescent
        body = jitter_color(rng, tuple(rng.uniform(120, 250, 3)), 0.05)
        marble = _c(np.clip(body * rng.uniform(0.8, 1.15, 3), 0, 255))
        pip = jitter_color(rng, _BLACK if body.mean() > 140 else _WHITE, 0.1)
        gloss = float(rng.uniform(0.3, 0.6))
    else:  # smoke: dark and cloudy, pips in red, white or gold that sit low against the body
        body = jitter_color(rng, (float(rng.uniform(25, 80)),) * 3, 0.15)
        if rng.random() < 0.5:
            marble = _c(np.clip(body * rng.uniform(1.3, 2.2), 0, 255))  # lighter swirls in the smoke
        pip = jitter_color(rng, (_RED, _WHITE, (40, 170, 220))[rng.choice(3, p=[0.6, 0.25, 0.15])], 0.15)
        opacity = float(rng.uniform(0.7, 0.95))
        gloss, shin = float(rng.uniform(0.3, 0.6)), float(rng.uniform(20, 60))
        engraved = True
        glint = float(rng.uniform(0.3, 0.9)) if rng.random() < 0.7 else 0.0
    # glossy dark dice mirror the room most plainly; a matt white die hardly shows it
    sheen = float(rng.uniform(0.25, 0.8)) if rng.random() < _SHEEN_SHARE[int(kind)] else 0.0
    one_pip, four_pip, one_scale = pip, pip, 1.0
    u = rng.random()
    if u < 0.08:  # Asian style: red one and four
        one_pip = four_pip = jitter_color(rng, _RED, 0.1)
        one_scale = float(rng.uniform(1.3, 1.8))
    elif u < 0.25:
        one_scale = float(rng.uniform(1.2, 1.9))
        if rng.random() < 0.4:
            one_pip = jitter_color(rng, _RED, 0.1)
    return Material(
        _c(body), _c(pip), _c(one_pip), _c(four_pip), one_scale, pip_r, spread, opacity,
        marble, float(rng.uniform(0.5, 2.5)), float(rng.uniform(0.3, 1.0)), gloss, shin, corner,
        engraved=engraved, square_pips=bool(rng.random() < 0.06),
        glint=glint, glint_angle=float(rng.uniform(0, 360)), sheen=sheen,
    )


# --- face textures --------------------------------------------------------------------

#: A die's pip layout for each value, in steps of a pip's spacing from the face's middle.
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


@functools.lru_cache(maxsize=32)
def _grid(t: int) -> np.ndarray:
    return np.mgrid[0:t, 0:t].astype(np.float32) / t


@functools.lru_cache(maxsize=64)
def _face_masks(t: int, corner_q: int) -> tuple[np.ndarray, np.ndarray]:
    """(alpha of a rounded square, edge-distance 0..1 where 1 is the face centre)."""
    c = np.arange(t, dtype=np.float32) + 0.5
    d = np.minimum(c, t - c) / (t / 2)  # 0 at the edge, 1 at the centre line
    edge = np.minimum(d[:, None], d[None, :])
    r = max(corner_q / 100 * t, 0.5)
    qx = np.maximum(r - np.minimum(c, t - c), 0)
    dist = np.sqrt(qx[:, None] ** 2 + qx[None, :] ** 2)
    alpha = np.clip(r - dist + 0.5, 0, 1).astype(np.float32)
    return alpha, edge.astype(np.float32)


def face_texture(
    rng: np.random.Generator, value: int, t: int, mat: Material, *, diffuse: float, spec: float, bevel: float
) -> np.ndarray:
    """Premultiplied BGRA float32 (t, t, 4) of one lit face showing ``value``."""
    if mat.marble is not None:
        n = smooth_noise(rng, t, t, t / rng.uniform(1.5, 4))
        yy, xx = _grid(t)
        a = rng.uniform(0, np.pi)
        k = np.float32(mat.marble_freq * 2 * np.pi)
        s = np.sin((xx * np.float32(np.cos(a) * k) + yy * np.float32(np.sin(a) * k))
                   + n * np.float32(rng.uniform(4, 10)))
        m = (0.5 + 0.5 * s) ** 2 * np.float32(mat.marble_mix)
        img = np.asarray(mat.body, np.float32) * (1 - m[..., None]) + np.asarray(mat.marble, np.float32) * m[..., None]
        img = np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8))
    else:
        img = np.empty((t, t, 3), np.uint8)
        img[:] = np.asarray(mat.body, np.uint8)
    pipmask = np.zeros((t, t), np.uint8)
    colour = mat.one_pip if value == 1 else mat.four_pip if value == 4 else mat.pip
    r = min(mat.pip_radius * (mat.one_scale if value == 1 else 1.0), 0.3) * t
    if mat.numerals:
        _digit(img, pipmask, value, t, mat.pip)
    for px, py in () if mat.numerals else PIPS[value]:
        cx, cy = (0.5 + mat.pip_spread * px) * t, (0.5 + mat.pip_spread * py) * t
        centre = (int(cx * _SUB), int(cy * _SUB))
        if mat.square_pips:
            h = min(r * 0.85, 0.4 * mat.pip_spread * t)  # square pips must stay apart
            pts = np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]]) * _SUB
            cv2.fillConvexPoly(img, pts.astype(np.int32), colour, cv2.LINE_AA, _SHIFT)
            cv2.fillConvexPoly(pipmask, pts.astype(np.int32), 255, cv2.LINE_AA, _SHIFT)
            continue
        if mat.engraved:  # a drilled pip: dark rim, paint set slightly inside
            rim = tuple(float(v) * 0.45 for v in mat.body)
            cv2.circle(img, centre, int(r * 1.12 * _SUB), rim, -1, cv2.LINE_AA, _SHIFT)
        cv2.circle(img, centre, int(r * _SUB), colour, -1, cv2.LINE_AA, _SHIFT)
        if mat.glint > 0:  # the same side of every pip catches the lamp
            bright = tuple(float(c) + (255 - float(c)) * mat.glint for c in colour)
            crescent = int(r * 0.8 * _SUB)
            cv2.ellipse(img, centre, (crescent, crescent), mat.glint_angle, 0, 130, bright, max(1, int(r * 0.3)),
                        cv2.LINE_AA, _SHIFT)
        cv2.circle(pipmask, centre, int(r * _SUB), 255, -1, cv2.LINE_AA, _SHIFT)
    alpha, shade = _face_shading(t, round(mat.corner * 100), round(bevel * 100))
    col = img.astype(np.float32) * np.float32(diffuse)
    if mat.opacity < 1:
        alpha = alpha * (mat.opacity + (1 - mat.opacity) * pipmask.astype(np.float32) / 255)
    weight = shade * alpha
    if spec > 0.01:  # a glossy face mirrors the lamp as a soft spot
        col += _glow(t, int(rng.integers(5)), int(rng.integers(5)), int(rng.integers(1, 4))) * np.float32(255 * spec)
    if mat.sheen > 0 and rng.random() < 0.6:  # not every face points at the window
        col += reflection(rng, t)[..., None] * np.float32(255 * mat.sheen)
    col = np.minimum(col, 255)
    return cv2.merge([col[..., 0] * weight, col[..., 1] * weight, col[..., 2] * weight, alpha])


def _digit(img: np.ndarray, mask: np.ndarray, value: int, t: int, colour) -> None:
    """A numeral die's face: its number (6 and 9 underlined), centred, in `colour`."""
    font = cv2.FONT_HERSHEY_DUPLEX if value % 2 else cv2.FONT_HERSHEY_SIMPLEX
    text = str(value)
    thick = max(1, t // 12)
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = 0.55 * t / th
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (int((t - tw) / 2), int((t + th) / 2))
    for target, ink in ((img, tuple(float(c) for c in colour)), (mask, 255)):
        cv2.putText(target, text, org, font, scale, ink, thick, cv2.LINE_AA)
        if value in (6, 9):
            cv2.line(target, (org[0], org[1] + thick * 2), (org[0] + tw, org[1] + thick * 2), ink, thick, cv2.LINE_AA)


def back_pips(value: int, t: int, mat: Material, strength: float) -> np.ndarray:
    """Premultiplied BGRA float32 (t, t, 4): a hidden face's pips seen through a clear die."""
    pipmask = np.zeros((t, t), np.uint8)
    r = min(mat.pip_radius * (mat.one_scale if value == 1 else 1.0), 0.3) * t
    for px, py in PIPS[value]:
        centre = (int((0.5 + mat.pip_spread * px) * t * _SUB), int((0.5 + mat.pip_spread * py) * t * _SUB))
        cv2.circle(pipmask, centre, int(r * _SUB), 255, -1, cv2.LINE_AA, _SHIFT)
    a = pipmask.astype(np.float32) * np.float32(strength / 255)
    tint = np.asarray(mat.pip, np.float32) * (np.asarray(mat.body, np.float32) / 255 * 0.6 + 0.4)
    return cv2.merge([a * tint[0], a * tint[1], a * tint[2], a])


@functools.lru_cache(maxsize=256)
def _face_shading(t: int, corner_q: int, bevel_q: int) -> tuple[np.ndarray, np.ndarray]:
    """(rounded-square alpha, edge darkening) for one face size."""
    alpha, edge = _face_masks(t, corner_q)
    # rounded edges turn away from the light: darken a band along the face border
    shade = 1 - 0.45 * np.clip(1 - edge / max(bevel_q / 100, 1e-3), 0, 1) ** 2
    return alpha, shade.astype(np.float32)


def reflection(rng: np.random.Generator, t: int) -> np.ndarray:
    """(t, t) weight 0..1 of a window or lamp mirrored in a face: a sharp-edged bright patch.

    A streak, a blob or a window pane, anywhere on the face and as small as a pip or as long
    as the face, so a reader learns that a bright patch with a hard edge need not be a pip.
    """
    out: np.ndarray = np.zeros((t, t), np.float32)
    cx, cy = rng.uniform(0.15, 0.85, 2) * t
    long_, short = rng.uniform(0.06, 0.4) * t, rng.uniform(0.03, 0.12) * t
    angle = float(rng.uniform(0, 180))
    if rng.random() < 0.7:  # a streak or blob
        centre, axes = (int(cx * _SUB), int(cy * _SUB)), (int(long_ * _SUB), int(short * _SUB))
        cv2.ellipse(out, centre, axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA, _SHIFT)
    else:  # a window pane
        box = cv2.boxPoints(((cx, cy), (2 * long_, 2 * short), angle))
        cv2.fillConvexPoly(out, np.round(box * _SUB).astype(np.int32), 1.0, cv2.LINE_AA, _SHIFT)
    soft = rng.uniform(0.0, 0.025) * t
    if soft > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), soft)
    return out * np.float32(rng.uniform(0.6, 1.0))


@functools.lru_cache(maxsize=1024)
def _glow(t: int, ix: int, iy: int, width: int) -> np.ndarray:
    """(t, t, 3) weight of a soft highlight at grid cell (ix, iy) of a 5x5 grid."""
    yy, xx = _grid(t)
    cx, cy = 0.2 + 0.15 * ix, 0.2 + 0.15 * iy
    g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.08 * width) ** 2))
    return np.repeat(g[..., None], 3, -1).astype(np.float32)


# --- a die in the scene ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PlacedDie:
    """A die resting on the table: centre (3,), edge length, local->world rotation."""

    centre: np.ndarray
    size: float
    rot: np.ndarray
    values: np.ndarray  # value on each local face
    material: Material
    face_turns: np.ndarray  # quarter turns of each face's texture
    tilt_deg: float = 0.0

    def vertices(self) -> np.ndarray:
        return self.centre + self.size * VERTICES @ self.rot.T

    def top_face(self) -> int:
        return int(np.argmax((NORMALS @ self.rot.T)[:, 2]))

    @property
    def value(self) -> int:
        return int(self.values[self.top_face()])

    def face_corners(self, i: int) -> np.ndarray:
        return self.centre + self.size * FACE_CORNERS[i] @ self.rot.T


def place_die(
    rng: np.random.Generator, xy: np.ndarray, size: float, value: int, mat: Material,
    *, yaw: float, tilt_deg: float = 0.0, tilt_dir: float = 0.0,
) -> PlacedDie:
    """A die at table position ``xy``, turned by ``yaw`` and cocked by ``tilt_deg``."""
    cy, sy = np.cos(yaw), np.sin(yaw)
    r = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    if tilt_deg:
        axis = np.array([np.cos(tilt_dir), np.sin(tilt_dir), 0.0])
        r = _axis_rotation(axis, np.radians(tilt_deg)) @ r
    lowest = (size * VERTICES @ r.T)[:, 2].min()
    centre = np.array([xy[0], xy[1], -lowest])
    return PlacedDie(centre, size, r, face_values(rng, value), mat, rng.integers(0, 4, 6), tilt_deg)


def _axis_rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


@dataclass(frozen=True)
class Light:
    """Direction towards the light (unit, world), ambient share 0..1."""

    direction: tuple[float, float, float]
    ambient: float


def draw_die(rng: np.random.Generator, canvas: np.ndarray, die: PlacedDie, cam: Camera, light: Light) -> np.ndarray:
    """Paint ``die`` onto the float32 BGR ``canvas`` in place; return its 8 projected vertices."""
    uv = cam.project(die.vertices())
    hgt, wid = canvas.shape[:2]
    x0, y0 = np.floor(uv.min(0)).astype(int) - 2
    x1, y1 = np.ceil(uv.max(0)).astype(int) + 3
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, wid), min(y1, hgt)
    if x1 <= x0 or y1 <= y0:
        return uv
    roi = canvas[y0:y1, x0:x1]
    rw, rh = x1 - x0, y1 - y0
    local = uv - (x0, y0)
    mat = die.material
    edge_px = float(np.max(np.linalg.norm(local[None] - local[:, None], axis=-1))) / np.sqrt(3)

    hull = cv2.convexHull(np.round(local * _SUB).astype(np.int32))
    mask = np.zeros((rh, rw), np.uint8)
    cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_AA, _SHIFT)
    rad = int(mat.corner * edge_px * 0.6)
    if rad >= 1:  # round the silhouette's corners
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rad + 1, 2 * rad + 1))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k)
    m = mask.astype(np.float32)[..., None] * np.float32(1 / 255)
    body = np.asarray(mat.body, np.float32)
    if mat.opacity < 1:  # light through a translucent die takes its colour
        tint = np.clip(body / max(body.max(), 1) * 1.1, 0.1, 1)
        roi *= 1 - m * (1 - tint)
    ldir = np.asarray(light.direction)

    t = int(np.clip(np.ceil(edge_px * 1.25 / 8) * 8, 16, 128))
    bevel = float(np.clip(mat.corner * 1.2 + 0.05, 0.06, 0.3))
    world_n = NORMALS @ die.rot.T
    src = np.array([[0, 0], [t, 0], [t, t], [0, t]], np.float32)
    # all six faces at once: which face the camera, how they are lit, where they land
    centres = die.centre + 0.5 * die.size * world_n
    views = cam.centre - centres
    facing = np.einsum("ij,ij->i", world_n, views) > 0
    views /= np.linalg.norm(views, axis=1, keepdims=True)
    diffuse = light.ambient + (1 - light.ambient) * np.maximum(world_n @ ldir, 0)
    halves = ldir + views
    halves /= np.linalg.norm(halves, axis=1, keepdims=True)
    specs = mat.gloss * np.maximum(np.einsum("ij,ij->i", world_n, halves), 0) ** mat.shininess
    quads = (cam.project(die.centre + die.size * FACE_CORNERS.reshape(-1, 3) @ die.rot.T) - (x0, y0)).reshape(6, 4, 2)
    # visible faces of a convex die never overlap, so their premultiplied layers add up
    faces = np.zeros((rh, rw, 4), np.float32)
    for i in range(6):
        if not facing[i] and mat.opacity == 1:
            continue
        dst = np.roll(quads[i], int(die.face_turns[i]), axis=0).astype(np.float32)
        hmat = cv2.getPerspectiveTransform(src, dst)
        if not facing[i]:  # the far side's pips show through a clear die
            tex = back_pips(int(die.values[i]), t, mat, 0.9 * (1 - mat.opacity) * light.ambient)
            back = cv2.warpPerspective(tex, hmat, (rw, rh), flags=cv2.INTER_LINEAR)
            roi[:] = roi * (1 - back[..., 3:] * m) + back[..., :3] * m
            continue
        tex = face_texture(rng, int(die.values[i]), t, mat, diffuse=float(diffuse[i]), spec=float(specs[i]),
                           bevel=bevel)
        warped = cv2.warpPerspective(tex, hmat, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        cv2.add(faces, warped, dst=faces)
    # the rounded edges between faces: the body colour, dimmed, where no face covers
    face_a = np.minimum(faces[..., 3:4], 1)
    under = m * (1 - face_a) * mat.opacity
    roi[:] = roi * (1 - under - face_a * m) + (body * np.float32(light.ambient * 0.6)) * under + faces[..., :3] * m
    return uv
