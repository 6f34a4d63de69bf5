"""Synthetic dice photos for training the vision model.

Pure functions of a ``numpy.random.Generator``: the same seed gives the same picture.
A scene is a pinhole camera over a textured table (top-down to 55 degrees oblique), lit
from one direction with cast shadows, with 1-30 real 3D dice (every visible face shows
its own pips, opposite faces sum to 7), then a phone camera's faults: uneven light,
colour cast, blur, noise and JPEG.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from dicecam.training.render.clutter import Decoy, Objects, add_objects, cluttered_surface
from dicecam.training.render.dice import (
    NORMALS,
    Camera,
    Light,
    Material,
    PlacedDie,
    draw_die,
    make_camera,
    place_die,
    random_material,
)
from dicecam.training.render.textures import add_clutter, photo_surface, random_surface

Box = tuple[float, float, float, float]

#: Camera tilt (degrees) from which an upright phone's photo has an up: under it the view
#: is from above, where no face is the far one, and the camera turns any way.
UPRIGHT_FROM_TILT = 10.0


def keeps_up(tilt: float, upright: bool) -> bool:
    """Whether a view has an up: an upright phone's view from `UPRIGHT_FROM_TILT` degrees on.

    Such a view is never turned any way: not by the renderer's camera, not by training.
    """
    return upright and tilt >= UPRIGHT_FROM_TILT


@dataclass(frozen=True)
class SynthDie:
    """One rendered die and what a labeller would write for it."""

    value: int
    top_box: Box  # box of the top face's projected quad, image pixels
    die_box: Box  # box of the whole visible die
    readable: bool  # False when even a person could not be sure of the top face


@dataclass(frozen=True)
class Scene:
    """A rendered photo (BGR uint8) and its dice."""

    image: np.ndarray
    dice: tuple[SynthDie, ...]
    #: The camera's tilt from straight down, degrees (0: top-down).
    tilt_deg: float = 0.0
    #: Boxes of things that could pass for a die and are none: tokens, numeral dice, eyes (image pixels).
    decoys: tuple[Box, ...] = ()
    #: What each of `decoys` is: a surface (`clutter.SURFACES`) or an object (`clutter.OBJECTS`) by
    #: name, or "numeral_d6": a cube die with digits for pips, thrown among the dice.
    decoy_kinds: tuple[str, ...] = ()


def render_scene(
    rng: np.random.Generator,
    *,
    size: tuple[int, int] | None = None,
    n_dice: int | None = None,
    clean: bool = False,
    backgrounds: Sequence[np.ndarray] = (),
    photo_share: float = 0.1,
    upright: bool = False,
    steep: bool = False,
    clutter: float = 0.0,
    objects: Objects | None = None,
) -> Scene:
    """Render one random photo of dice on a table.

    ``size`` is (width, height); None picks a phone-like aspect with the long side
    480..1024. ``clean=True`` gives a straight top-down view of white dice with black
    pips near the image centre on a plain light table, without camera faults (for tests).
    ``backgrounds`` (from ``synth_textures.load_backgrounds``) are real table photos used
    as the table in ``photo_share`` of the scenes. The camera is turned about its axis any
    way; ``upright=True`` holds it as a phone is held over a table, its photo turned the
    right way up (EXIF): a tilted view has the table's far side at the photo's top,
    within 15 degrees. Views from above (under 10 degrees) are turned any way either way.
    ``steep=True`` draws steep views more often (`_camera_tilt`); the default draws are
    unchanged by it. ``clutter`` is the share of scenes on a game table's clutter
    (`render.clutter`): printed cloths and boards, tokens, pieces and other dice, whose
    boxes come back as the scene's ``decoys``; 0 draws exactly what it drew before.
    ``objects`` are the things such a table has lying on it (default `clutter.OBJECTS`).
    """
    w, h = size if size is not None else _phone_size(rng)
    n = int(n_dice) if n_dice is not None else _dice_count(rng)
    if not 1 <= n <= 60:
        raise ValueError(f"n_dice must be 1..60, got {n}")
    if clean:
        tilt = 0.0
        cam = make_camera(w, h, tilt_deg=tilt, roll_deg=0.0, fov_deg=60.0)
    else:
        tilt = _camera_tilt(rng, steep=steep)
        roll = _upright_roll(rng.uniform(0, 360), tilt, upright)
        cam = make_camera(w, h, tilt_deg=tilt, roll_deg=roll, fov_deg=rng.uniform(50, 75))
    s_px = w * (rng.uniform(0.1, 0.14) if clean else np.exp(rng.uniform(np.log(0.025), np.log(0.2))))
    s_px = min(s_px, np.sqrt(0.3 * w * h / n))
    light = _random_light(rng, clean)
    cluttered = not clean and clutter > 0 and rng.random() < clutter
    decoys: list[Decoy] = []
    if len(backgrounds) and not clean and rng.random() < photo_share:
        canvas = photo_surface(rng, backgrounds, h, w).astype(np.float32)
    else:
        canvas, decoys = _table(rng, cam, w, h, s_px / cam.f, clean, cluttered=cluttered, objects=objects)
    others = int(rng.integers(1, 4)) if cluttered and rng.random() < 0.35 else 0
    placed = _layout(rng, cam, w, h, n + others, s_px / cam.f, clean=clean)
    dice, fakes = placed[:n], [_numeral(rng, d) for d in placed[n:]]
    _cast_shadows(rng, canvas, placed, cam, light, s_px, clean)
    labels = _draw_dice(rng, canvas, dice, cam, light, behind=fakes)
    decoys += [Decoy(_clip(_box(cam.project(d.face_corners(d.top_face()))), w, h), "numeral_d6")
               for d in fakes]
    image = _photo_effects(rng, canvas) if not clean else np.clip(canvas, 0, 255).astype(np.uint8)
    seen = [d for d in decoys if _area(d.box) > 4]
    return Scene(image, labels, float(tilt), tuple(d.box for d in seen), tuple(d.kind for d in seen))


def _numeral(rng: np.random.Generator, die: PlacedDie) -> PlacedDie:
    """The same die with digits for pips (opaque: no digits show through), in its own colours."""
    mat = random_material(rng)
    return replace(die, material=replace(mat, numerals=True, opacity=1.0, marble=None))


def render_crop(rng: np.random.Generator, value: int, *, size: int = 64, upright: bool = False) -> np.ndarray:
    """One die showing ``value`` as the face reader sees it: a (size, size, 3) BGR uint8 crop.

    The die fills 55-90% of the crop with offset, scale and rotation jitter; oblique views
    show its side faces; neighbours sometimes intrude at the border. ``upright``: as in an
    upright phone's photo (see `render_scene`), the tilted die's top face above its sides.
    """
    return render_crop_and_tilt(rng, value, size=size, upright=upright)[0]


def render_crop_and_tilt(rng: np.random.Generator, value: int, *, size: int = 64,
                         upright: bool = False) -> tuple[np.ndarray, float]:
    """`render_crop`'s crop and the camera tilt it was seen from (degrees from straight down)."""
    _check_value(value)
    tilt = rng.uniform(0, 10) if rng.random() < 0.3 else rng.uniform(10, 55)
    crop, _ = _die_framed(rng, value, size, tilt, upright=upright, fill=(0.55, 0.9), shift=0.08)
    return crop, float(tilt)


def render_die_and_box(rng: np.random.Generator, value: int, *, size: int = 128, tilt: float,
                       upright: bool = True) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A (size, size, 3) BGR uint8 photo of one die showing ``value`` seen at ``tilt`` degrees
    from straight down, and the box (x0, y0, x1, y1) of the whole die in it (top and side
    faces, as roboflow_dice boxes a die), the die 35-50% of the photo's side; ``upright`` as
    in `render_crop`."""
    _check_value(value)
    return _die_framed(rng, value, size, tilt, upright=upright, fill=(0.35, 0.5), shift=0.1)


def _check_value(value: int) -> None:
    if value not in range(1, 7):
        raise ValueError(f"die value must be 1..6, got {value}")


def _die_framed(rng: np.random.Generator, value: int, size: int, tilt: float, *, upright: bool,
                fill: tuple[float, float], shift: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A close-up of a die (`_close_up`) framed so the whole die fills a `fill` share of the
    `size` px square, off centre by up to `shift` of it, with the photo's effects; and the
    whole die's box in that square."""
    canvas, cam, (main, *_) = _close_up(rng, value, 4 * size, tilt, upright=upright)
    uv = cam.project(main.vertices())
    (bx0, by0), (bx1, by1) = uv.min(0), uv.max(0)
    side = max(bx1 - bx0, by1 - by0) / rng.uniform(*fill)
    cx = (bx0 + bx1) / 2 + rng.uniform(-shift, shift) * side
    cy = (by0 + by1) / 2 + rng.uniform(-shift, shift) * side
    k, x0, y0 = size / side, cx - side / 2, cy - side / 2
    box = ((bx0 - x0) * k, (by0 - y0) * k, (bx1 - x0) * k, (by1 - y0) * k)
    return _photo_effects(rng, _frame(canvas, cx, cy, side, size)), box


def render_side_crop(rng: np.random.Generator, *, size: int = 64) -> np.ndarray:
    """A crop centred on a die's side face, as a detector box on it would cut it.

    Seen from an angle, a side face shows its pips as plainly as the top face does; the
    face reader must learn to refuse it ("not a die"), because only the top face counts.
    The window is the side face's box grown by the reader's crop factor (1.35, with
    jitter), like the crop of a detection on the side face. Every top face in the picture
    stays over 0.3 window sides from its centre (a die's crop has it within about 0.05),
    so no crop it gives frames a die that should be read.
    """
    while True:
        canvas, cam, dice = _close_up(rng, int(rng.integers(1, 7)), 4 * size, rng.uniform(25, 55))
        window = side_face_window(rng, cam, dice)
        if window is not None:
            return _photo_effects(rng, _frame(canvas, *window, size))


def side_face_window(rng: np.random.Generator, cam: Camera,
                     dice: Sequence[PlacedDie]) -> tuple[float, float, float] | None:
    """(cx, cy, side) of a reader crop on a side face of ``dice[0]``, or None if it shows none.

    The side faces the camera sees are tried in random order; the first that looks
    narrower than the top face (under 0.8 of its area in the picture) and whose window
    keeps every die's top-face centre over 0.3 sides from its centre is taken. A side
    face seen more squarely than the top face looks just like the top face of a die seen
    from higher up (the reader sees crops at any rotation): taught as "not a die", it
    made the reader refuse real top faces (session 10, models/HISTORY.md).
    """
    main = dice[0]
    top_quads = [cam.project(d.face_corners(d.top_face())) for d in dice]
    top_area = cv2.contourArea(top_quads[0].astype(np.float32))
    tops = np.array([q.mean(0) for q in top_quads])
    normals = NORMALS @ main.rot.T
    centres = main.centre + 0.5 * main.size * normals
    facing = np.einsum("ij,ij->i", normals, cam.centre - centres) > 0
    for i in rng.permutation(6):
        if not facing[i] or i == main.top_face():
            continue
        quad = cam.project(main.face_corners(int(i)))
        if cv2.contourArea(quad.astype(np.float32)) >= 0.8 * top_area:
            continue
        (bx0, by0), (bx1, by1) = quad.min(0), quad.max(0)
        # 1.35: training.reader_data.CROP_SCALE, not imported (it would pull torch into the renderer)
        side = max(bx1 - bx0, by1 - by0) * 1.35 * rng.uniform(0.85, 1.2)
        cx = (bx0 + bx1) / 2 + rng.normal(0, 0.06) * (bx1 - bx0)
        cy = (by0 + by1) / 2 + rng.normal(0, 0.06) * (by1 - by0)
        if np.min(np.hypot(tops[:, 0] - cx, tops[:, 1] - cy)) > 0.3 * side:
            return float(cx), float(cy), float(side)
    return None


def _camera_tilt(rng: np.random.Generator, *, steep: bool = False) -> float:
    """A rendered scene's camera tilt, degrees from straight down.

    By default views from above (0-10 degrees) come 35% of the time and the rest spread
    evenly over 10-55. `steep` favours steep views, for training on them: views from above
    15%, and over 10 degrees a density rising in a straight line towards 55, so 40-55
    degrees is about 47% of all views against 22%: where the shipped detector places its
    boxes worst (the old diary, `git show d2b37d4:models/HISTORY.md`, "Where steep views lose
    their readings").
    """
    if rng.random() < (0.15 if steep else 0.35):
        return float(rng.uniform(0, 10))
    return float(10 + 45 * np.sqrt(rng.random())) if steep else float(rng.uniform(10, 55))


def _upright_roll(roll: float, tilt: float, upright: bool) -> float:
    """The camera's roll: any way, or for an upright phone's tilted view within 15 degrees.

    The same draw is mapped onto -15..15 degrees, so the random stream keeps its length.
    """
    return (roll / 360 - 0.5) * 30 if keeps_up(tilt, upright) else roll


def _close_up(rng: np.random.Generator, value: int, r: int, tilt: float,
              *, upright: bool = False) -> tuple[np.ndarray, Camera, list[PlacedDie]]:
    """An r x r float canvas of one die showing ``value`` near its centre (first of the dice
    returned), maybe with touching neighbours; ``upright`` as in `render_crop`."""
    roll = _upright_roll(rng.uniform(0, 360), tilt, upright)
    cam = make_camera(r, r, tilt_deg=tilt, roll_deg=roll, fov_deg=rng.uniform(50, 75))
    s = r * rng.uniform(0.17, 0.22) / cam.f
    light = _random_light(rng, False)
    canvas, _ = _table(rng, cam, r, r, s, False)
    mats = _materials(rng, False)
    centre = cam.to_table(np.array([[r / 2, r / 2]]))[0, :2]
    main = place_die(rng, centre, s, value, mats[0], yaw=rng.uniform(0, 2 * np.pi),
                     tilt_deg=rng.uniform(0, 6), tilt_dir=rng.uniform(0, 2 * np.pi))
    dice = [main]
    main_top = cam.project(main.face_corners(main.top_face()))
    main_depth = float(cam.depth(main.centre[None])[0])
    for _ in range(rng.choice(4, p=[0.5, 0.25, 0.15, 0.1])):
        d = _touching(rng, dice, s, mats[rng.integers(len(mats))], rng.uniform(1.02, 1.5),
                      cocked=bool(rng.random() < 0.1))
        # a neighbour may crowd the crop but must not hide the face being read
        if d is not None and (float(cam.depth(d.centre[None])[0]) > main_depth
                              or _hidden_share(main_top, [cam.project(d.vertices())]) < 0.1):
            dice.append(d)
    _cast_shadows(rng, canvas, dice, cam, light, s * cam.f, False)
    for d in sorted(dice, key=lambda d: -float(cam.depth(d.centre[None])[0])):
        draw_die(rng, canvas, d, cam, light)
    return canvas, cam, dice


def _frame(canvas: np.ndarray, cx: float, cy: float, side: float, size: int) -> np.ndarray:
    """The ``side``-pixel square of ``canvas`` around (cx, cy), resampled to ``size``."""
    half = side / 2
    src = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]], np.float32)
    dst = np.array([[0, 0], [size, 0], [0, size]], np.float32)
    crop = cv2.warpAffine(canvas, cv2.getAffineTransform(src, dst), (size, size),
                          flags=cv2.INTER_AREA if side > size else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    if side > 2 * size:  # warpAffine does not pre-filter: soften like a lens would
        crop = cv2.GaussianBlur(crop, (0, 0), 0.35 * side / size)
    return crop


# --- scene parts ------------------------------------------------------------------------


def _phone_size(rng: np.random.Generator) -> tuple[int, int]:
    aspect = (4 / 3, 16 / 9, 1.0, 3 / 2)[rng.choice(4, p=[0.45, 0.25, 0.2, 0.1])]
    long = int(rng.integers(480, 1025))
    short = round(long / aspect)
    return (long, short) if rng.random() < 0.6 else (short, long)


def _dice_count(rng: np.random.Generator) -> int:
    u = rng.random()
    hi = 6 if u < 0.5 else 12 if u < 0.8 else 30
    return int(rng.integers(1, hi + 1))


def _random_light(rng: np.random.Generator, clean: bool) -> Light:
    if clean:
        elev, azim = np.radians(80), 0.0
        return Light((np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev)), 0.7)
    elev, azim = np.radians(rng.uniform(25, 88)), rng.uniform(0, 2 * np.pi)
    d = (np.cos(elev) * np.cos(azim), np.cos(elev) * np.sin(azim), np.sin(elev))
    return Light((float(d[0]), float(d[1]), float(d[2])), float(rng.uniform(0.3, 0.9)))


def _materials(rng: np.random.Generator, clean: bool) -> list[Material]:
    if clean:
        return [random_material(rng, clean=True)]
    k = 1 if rng.random() < 0.5 else int(rng.integers(2, 6))
    return [random_material(rng) for _ in range(k)]


def _table(rng: np.random.Generator, cam: Camera, w: int, h: int, die: float, clean: bool, *,
           cluttered: bool = False, objects: Objects | None = None) -> tuple[np.ndarray, list[Decoy]]:
    """The table surface as the camera sees it, float32 BGR (h, w, 3), and the boxes of its decoys.

    `cluttered`: a game table's printed surface (half the time) and things lying on it
    (`objects`, default `clutter.OBJECTS`).
    """
    if clean:
        canvas = np.empty((h, w, 3), np.float32)
        canvas[:] = (175, 180, 185)
        return canvas, []
    m = 0.05 * max(w, h)
    corners = np.array([[-m, -m], [w + m, -m], [-m, h + m], [w + m, h + m]])
    xy = cam.to_table(corners)[:, :2]
    phi = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(phi), -np.sin(phi)], [np.sin(phi), np.cos(phi)]])
    q = xy @ rot  # table -> texture axes (rot.T applied to each row)
    q0, q1 = q.min(0), q.max(0)
    ppu = np.sqrt(0.65 * w * h / np.prod(q1 - q0))
    ppu = min(ppu, 2000 / max(q1 - q0))
    tw, th = (np.ceil((q1 - q0) * ppu) + 2).astype(int)
    ppd = ppu * die
    found: list[Decoy] = []
    if cluttered and rng.random() < 0.5:
        tex, found = cluttered_surface(rng, int(th), int(tw), ppd)
    else:
        tex = random_surface(rng, int(th), int(tw), ppd)
    add_clutter(rng, tex, ppd, count=int(rng.poisson(0.7)))
    if cluttered:
        found += add_objects(rng, tex, ppd, count=int(rng.integers(1, 12)), objects=objects)
    a = np.eye(3)
    a[:2, :2] = rot / ppu
    a[:2, 2] = rot @ q0
    hom = cam.table_homography() @ a
    img = cv2.warpPerspective(tex, hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return img.astype(np.float32), _seen(found, hom, w, h)


def _seen(decoys: list[Decoy], hom: np.ndarray, w: int, h: int) -> list[Decoy]:
    """Texture decoys carried into the photo by `hom`: those whose centre lands in view, clipped."""
    if not decoys:
        return []
    b = np.asarray([d.box for d in decoys], np.float64)
    corners = np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]], 1).reshape(-1, 1, 2)
    uv = cv2.perspectiveTransform(corners, hom).reshape(-1, 4, 2)
    out = []
    for decoy, quad in zip(decoys, uv):
        c = quad.mean(0)
        if 0 <= c[0] < w and 0 <= c[1] < h:
            out.append(Decoy(_clip(_box(quad), w, h), decoy.kind))
    return out


def _footprint_overlap(a: tuple, b: tuple, margin: float) -> bool:
    """Separating-axis test of two yawed squares (xy, yaw, half-size) on the table."""
    (pa, ya, ha), (pb, yb, hb) = a, b
    d = pb - pa
    ea = [(np.cos(ya), np.sin(ya)), (-np.sin(ya), np.cos(ya))]
    eb = [(np.cos(yb), np.sin(yb)), (-np.sin(yb), np.cos(yb))]
    for ax in ea + eb:
        ra = ha * sum(abs(ax[0] * e[0] + ax[1] * e[1]) for e in ea)
        rb = hb * sum(abs(ax[0] * e[0] + ax[1] * e[1]) for e in eb)
        if abs(d[0] * ax[0] + d[1] * ax[1]) >= ra + rb - margin:
            return False
    return True


def _footprint(d: PlacedDie) -> tuple:
    yaw = float(np.arctan2(d.rot[1, 0], d.rot[0, 0]))
    t = np.radians(d.tilt_deg)
    return d.centre[:2], yaw, d.size / 2 * (np.cos(t) + np.sin(t))


def _fits(d: PlacedDie, dice: list[PlacedDie]) -> bool:
    if not dice:
        return True
    fp = _footprint(d)
    centres = np.array([o.centre[:2] for o in dice])
    reach = np.array([o.size for o in dice]) * 0.75 + fp[2] * 1.42  # beyond this no corner can touch
    near = np.flatnonzero(np.hypot(*(centres - fp[0]).T) < reach)
    return not any(_footprint_overlap(fp, _footprint(dice[i]), 0.01 * d.size) for i in near)


def _touching(rng: np.random.Generator, dice: list[PlacedDie], s: float, mat: Material,
              start: float, *, cocked: bool = False) -> PlacedDie | None:
    """A new die pushed against a random existing one (or None when there is no room)."""
    other = dice[rng.integers(len(dice))]
    ang = rng.uniform(0, 2 * np.pi)
    direc = np.array([np.cos(ang), np.sin(ang)])
    tilt = float(rng.uniform(10, 40)) if cocked else 0.0
    yaw = rng.uniform(0, 2 * np.pi)
    value = int(rng.integers(1, 7))
    dist = start * s
    for _ in range(25):
        d = place_die(rng, other.centre[:2] + direc * dist, s, value, mat, yaw=yaw,
                      tilt_deg=tilt, tilt_dir=ang + np.pi / 2)
        if _fits(d, dice):
            return d
        dist += 0.06 * s
    return None


def _layout(rng: np.random.Generator, cam: Camera, w: int, h: int, n: int, s: float, *, clean: bool) -> list[PlacedDie]:
    """``n`` dice on the table, centres in view, none inside another; shrinks them if crowded."""
    mats = _materials(rng, clean)
    for _ in range(12):
        dice: list[PlacedDie] = []
        touch = 0.0 if clean else rng.uniform(0, 0.8)
        lo, hi = (0.4, 0.6) if clean else (0.0, 1.0) if rng.random() < 0.2 else (0.08, 0.92)
        for _ in range(n):
            mat = mats[rng.integers(len(mats))]
            size = s * (rng.uniform(0.92, 1.08) if len(mats) > 1 else 1.0)
            cocked = not clean and bool(rng.random() < 0.05)
            for _ in range(40):
                if dice and rng.random() < touch:
                    d = _touching(rng, dice, size, mat, rng.uniform(1.0, 1.3), cocked=cocked)
                else:
                    uv = np.array([[rng.uniform(lo, hi) * w, rng.uniform(lo, hi) * h]])
                    xy = cam.to_table(uv)[0, :2]
                    tilt = float(rng.uniform(10, 40)) if cocked else 0.0
                    d = place_die(rng, xy, size, int(rng.integers(1, 7)), mat, yaw=rng.uniform(0, 2 * np.pi),
                                  tilt_deg=tilt, tilt_dir=rng.uniform(0, 2 * np.pi))
                    d = d if _fits(d, dice) else None
                if d is not None:
                    c = cam.project(d.centre[None])[0]
                    if 0 <= c[0] < w and 0 <= c[1] < h:
                        dice.append(d)
                        break
            else:
                break
        if len(dice) == n:
            return dice
        s *= 0.85
    raise RuntimeError("could not place the dice")  # pragma: no cover - shrinking always succeeds


def _blur_mask(mask: np.ndarray, sigma: float) -> np.ndarray:
    if sigma < 0.3:
        return mask
    if sigma <= 4:
        return cv2.GaussianBlur(mask, (0, 0), sigma)
    h, w = mask.shape
    f = sigma / 3
    small = cv2.resize(mask, (max(1, int(w / f)), max(1, int(h / f))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 3)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _cast_shadows(rng: np.random.Generator, canvas: np.ndarray, dice: list[PlacedDie], cam: Camera,
                  light: Light, s_px: float, clean: bool) -> None:
    """Darken the table under and behind every die, away from the light."""
    h, w = canvas.shape[:2]
    ldir = np.asarray(light.direction)
    casts, feet = [], []
    for d in dice:
        v = d.vertices()
        casts.append(cam.project(v - (v[:, 2:3] / ldir[2]) * ldir))
        foot = d.centre[:2] + (v[:, :2] - d.centre[:2]) * 1.1
        feet.append(cam.project(np.column_stack([foot, np.zeros(8)])))
    if clean:
        strength, soft = 0.3, 0.15
    else:
        strength = rng.uniform(0.25, 0.8) * (1.25 - light.ambient)
        soft = rng.uniform(0.005, 0.04) if rng.random() < 0.4 else rng.uniform(0.04, 0.3)  # 40% hard
    # only the part of the picture near the dice needs darkening
    pts = np.concatenate(casts + feet)
    pad = soft * s_px * 3 + 0.2 * s_px + 8
    x0, y0 = (max(int(v), 0) for v in pts.min(0) - pad)
    x1, y1 = min(int(pts[:, 0].max() + pad), w), min(int(pts[:, 1].max() + pad), h)
    if x1 <= x0 or y1 <= y0:
        return
    cast = np.zeros((y1 - y0, x1 - x0), np.float32)
    contact = np.zeros_like(cast)
    for mask, polys in ((cast, casts), (contact, feet)):
        for poly in polys:
            hull = cv2.convexHull(np.round((poly - (x0, y0)) * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA, 4)
    dark = strength * _blur_mask(cast, soft * s_px)
    dark += 0.35 * _blur_mask(contact, 0.08 * s_px + 0.5)
    keep = 1 - np.clip(dark, 0, 0.85)
    roi = canvas[y0:y1, x0:x1]
    cv2.multiply(roi, cv2.merge([keep, keep, keep]), dst=roi)


def _draw_dice(rng: np.random.Generator, canvas: np.ndarray, dice: list[PlacedDie], cam: Camera,
               light: Light, *, behind: Sequence[PlacedDie] = ()) -> tuple[SynthDie, ...]:
    """Paint the dice far to near (first the unlabelled `behind` ones, under them);
    label each die with boxes clipped to the image and readability."""
    h, w = canvas.shape[:2]
    for d in behind:
        draw_die(rng, canvas, d, cam, light)
    order = sorted(dice, key=lambda d: -float(cam.depth(d.centre[None])[0]))
    hulls = [draw_die(rng, canvas, d, cam, light) for d in order]
    labels = []
    for i, d in enumerate(order):
        uv = hulls[i]
        top = cam.project(d.face_corners(d.top_face()))
        full_top = _box(top)
        top_box, die_box = _clip(full_top, w, h), _clip(_box(uv), w, h)
        cut = _area(top_box) < 0.75 * _area(full_top)
        n_top = d.rot @ np.array([0, 0, 1.0])
        view = cam.centre - d.centre
        facing = float(n_top @ view / np.linalg.norm(view))
        hidden = _hidden_share(top, [hulls[j] for j in range(i + 1, len(order))])
        readable = d.tilt_deg <= 25 and not cut and facing > 0.2 and hidden < 0.35
        labels.append(SynthDie(d.value, top_box, die_box, bool(readable)))
    return tuple(labels)


def _box(pts: np.ndarray) -> Box:
    (x0, y0), (x1, y1) = pts.min(0), pts.max(0)
    return float(x0), float(y0), float(x1), float(y1)


def _clip(b: Box, w: int, h: int) -> Box:
    return (min(max(b[0], 0.0), w), min(max(b[1], 0.0), h), min(max(b[2], 0.0), w), min(max(b[3], 0.0), h))


def _area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _hidden_share(quad: np.ndarray, nearer: list[np.ndarray]) -> float:
    """Share of the projected top face covered by the silhouettes of dice drawn after it."""
    (x0, y0), (x1, y1) = np.floor(quad.min(0)), np.ceil(quad.max(0))
    boxes = [(hl.min(0), hl.max(0)) for hl in nearer]
    over = [hl for hl, (lo, hi) in zip(nearer, boxes) if lo[0] < x1 and hi[0] > x0 and lo[1] < y1 and hi[1] > y0]
    if not over:
        return 0.0
    sw, sh = int(x1 - x0) + 1, int(y1 - y0) + 1
    mask = np.zeros((sh, sw), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - (x0, y0)).astype(np.int32), 1)
    total = int(mask.sum())
    for hl in over:
        cv2.fillConvexPoly(mask, cv2.convexHull(np.round(hl - (x0, y0)).astype(np.int32)), 0)
    return 1.0 - int(mask.sum()) / max(total, 1)


# --- camera faults ----------------------------------------------------------------------


def _photo_effects(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Uneven light, white balance, exposure, blur, sensor noise, JPEG; float32 in, uint8 out."""
    h, w = img.shape[:2]
    gy, gx = np.mgrid[0:6, 0:6].astype(np.float32) / 5 - 0.5
    a = rng.uniform(0, 2 * np.pi)
    field = 1 + rng.uniform(0, 0.5) * (gx * np.cos(a) + gy * np.sin(a))
    field -= rng.uniform(0, 0.6) * (gx**2 + gy**2)
    # auto exposure aims the mean brightness somewhere sensible, then misses a little
    mean = float(cv2.resize(img, (16, 12), interpolation=cv2.INTER_AREA).mean())
    expose = np.clip(rng.uniform(85, 165) / max(mean, 1.0), 0.6, 1.6) * np.exp(rng.normal(0, 0.12))
    gains = np.exp(rng.normal(0, 0.07, 3)) * expose
    field3 = (field[..., None] * gains).astype(np.float32)
    img = cv2.multiply(img, cv2.resize(field3, (w, h), interpolation=cv2.INTER_LINEAR))
    u = rng.random()
    if u < 0.25:  # out of focus
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 0.6 + 0.002 * max(w, h)))
    elif u < 0.37:  # shaken
        length = int(rng.integers(3, max(4, int(0.015 * max(w, h)) + 3)))
        streak = np.zeros((length, length), np.float32)
        cv2.line(streak, (0, length // 2), (length - 1, length // 2), 1.0, 1)
        rotm = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        k = cv2.warpAffine(streak, rotm, (length, length))
        img = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
    elif u < 0.5:  # shallow depth of field: sharp on one side of the picture, soft on the other
        soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 1 + 0.004 * max(w, h)))
        b = rng.uniform(0, 2 * np.pi)
        ramp = np.clip(0.5 + 1.5 * (gx * np.cos(b) + gy * np.sin(b)), 0, 1).astype(np.float32)
        ramp = cv2.resize(np.repeat(ramp[..., None], 3, -1), (w, h), interpolation=cv2.INTER_LINEAR)
        img = img + cv2.multiply(soft - img, ramp)
    if rng.random() < 0.2:  # a cheap sensor or digital zoom: detail lost, then upscaled
        f = rng.uniform(0.35, 0.8)
        small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, 8)
    if sigma > 0.5:
        # demosaicing smears sensor noise over neighbouring pixels: draw it at half size
        hh, hw = (h + 1) // 2, (w + 1) // 2
        raw = np.frombuffer(rng.bytes(hh * hw * 3), np.int8).reshape(hh, hw, 3)
        noise = cv2.resize(raw.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        img = cv2.scaleAdd(noise, float(sigma / 74), img)  # uniform int8 has sd ~74
    out = cv2.convertScaleAbs(img)  # saturates at 255; the rare tiny negative from noise flips sign, harmless
    if rng.random() < 0.5:  # the phone's tone curve: gamma and contrast
        x = np.arange(256) / 255.0
        y = x ** np.exp(rng.normal(0, 0.2))
        c = rng.uniform(-0.3, 0.5)
        y = y + c * (y - 0.5) * (1 - np.abs(2 * y - 1))  # S-curve (c > 0) or flatter (c < 0)
        out = cv2.LUT(out, np.clip(y * 255, 0, 255).astype(np.uint8))
    if rng.random() < 0.9:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # a JPEG that OpenCV itself just wrote
        out = decoded
    return out
