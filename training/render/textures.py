"""Procedural table surfaces for the synthetic dice renderer.

Every surface function returns a uint8 BGR image (h, w, 3), axis-aligned in
*table* coordinates; the scene warps it into the camera. Feature sizes are given in
texture pixels per die edge (``ppd``) so grain, fibres and weave stay in proportion to the
dice at any camera distance.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Color = tuple[float, float, float]


def smooth_noise(rng: np.random.Generator, h: int, w: int, cell_y: float, cell_x: float | None = None) -> np.ndarray:
    """Value noise in about [0, 1], float32 (h, w), features ``cell`` pixels wide."""
    cell_x = cell_y if cell_x is None else cell_x
    gh = int(min(max(2, h / max(cell_y, 1.0) + 2), h + 2))
    gw = int(min(max(2, w / max(cell_x, 1.0) + 2), w + 2))
    grid = rng.random((gh, gw), dtype=np.float32)
    # cubic up to 4x the grid keeps blobs round; linear from there is much cheaper
    if 4 * gh < h and 4 * gw < w:
        finer = cv2.resize(grid, (4 * gw, 4 * gh), interpolation=cv2.INTER_CUBIC)
        return cv2.resize(finer, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def fine_noise(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Per-pixel uniform noise in [-0.5, 0.5), float32 (h, w)."""
    raw = np.frombuffer(rng.bytes(h * w), np.uint8).reshape(h, w)
    return raw.astype(np.float32) * np.float32(1 / 256) - np.float32(0.5)


def jitter_color(rng: np.random.Generator, bgr: Color, amount: float = 0.1) -> np.ndarray:
    """A colour near ``bgr``: brightness and per-channel jitter by ``amount``."""
    c = np.asarray(bgr, np.float32) * rng.uniform(1 - amount, 1 + amount)
    c *= 1 + rng.uniform(-amount / 2, amount / 2, 3).astype(np.float32)
    return np.clip(c, 0, 255)


def colorize(t: np.ndarray, *stops: np.ndarray) -> np.ndarray:
    """Map ``t`` (h, w) float32 in 0..1 onto a ramp through the colour ``stops``: uint8 BGR."""
    x = np.linspace(0, 1, len(stops))
    lut = np.stack([np.interp(np.linspace(0, 1, 256), x, [float(c[k]) for c in stops]) for k in range(3)], -1)
    q = cv2.convertScaleAbs(t, alpha=255.0)
    return cv2.LUT(cv2.merge([q, q, q]), np.clip(lut, 0, 255).astype(np.uint8).reshape(256, 1, 3))


# BGR tones, light to dark: birch, pine, oak, teak, cherry, walnut, grey-washed, white-washed.
_WOOD = [
    (150, 195, 225), (120, 180, 220), (95, 150, 200), (60, 110, 170), (55, 85, 150),
    (40, 60, 95), (135, 145, 150), (190, 205, 215), (75, 120, 175), (30, 45, 70),
]


def wood(rng: np.random.Generator, h: int, w: int, ppd: float) -> np.ndarray:
    """Wood: growth rings warped along the grain, fibres, sometimes planks."""
    light = jitter_color(rng, _WOOD[rng.integers(len(_WOOD))], 0.12)
    dark = light * rng.uniform(0.55, 0.85)
    spacing = ppd * rng.uniform(0.08, 0.7)
    warp = smooth_noise(rng, h, w, ppd * rng.uniform(0.4, 1.5), ppd * rng.uniform(3, 12))
    warp += 0.3 * smooth_noise(rng, h, w, ppd * 0.3, ppd * 2)
    y = np.arange(h, dtype=np.float32)[:, None]
    phase = (y + warp * np.float32(spacing * rng.uniform(2, 8))) * np.float32(2 * np.pi / spacing)
    rings = cv2.pow(0.5 + 0.5 * np.sin(phase), float(rng.uniform(1, 4)))
    fibre = smooth_noise(rng, h, w, rng.uniform(0.8, 2.5), ppd * rng.uniform(0.3, 1.5))
    tone = smooth_noise(rng, h, w, ppd * 4, ppd * 10)
    t = np.float32(rng.uniform(0.3, 0.8)) * rings + 0.3 * fibre + 0.25 * tone
    if rng.random() < 0.45:  # planks: each its own tone, dark seams between
        width = ppd * rng.uniform(1.5, 5)
        off = rng.uniform(0, width)
        plank = np.floor((y + off) / width).astype(np.int32)
        shift = rng.uniform(-0.25, 0.25, int(plank.max()) + 2).astype(np.float32)[plank]
        seam = np.abs(((y + off) % width) - width / 2) > width / 2 - max(1.0, ppd * 0.02)
        t = t + (shift + np.where(seam, np.float32(0.8), np.float32(0)))
    t = t * np.float32(1 / 1.4) + fine_noise(rng, h, w) * np.float32(rng.uniform(0.01, 0.04))
    return colorize(t, light, dark, dark * 0.6)


_FELT = [(50, 105, 20), (40, 80, 15), (140, 70, 30), (110, 45, 20), (35, 30, 140),
         (40, 25, 90), (90, 90, 90), (40, 40, 40), (80, 110, 60), (120, 60, 90)]


def felt(rng: np.random.Generator, h: int, w: int, ppd: float) -> np.ndarray:
    """Felt or baize: saturated base, fibre noise and soft mottling."""
    base = jitter_color(rng, _FELT[rng.integers(len(_FELT))], 0.2)
    fib = cv2.GaussianBlur(fine_noise(rng, h, w), (0, 0), rng.uniform(0.5, 1.2))
    mott = smooth_noise(rng, h, w, ppd * rng.uniform(0.3, 2)) - 0.5
    t = 0.5 + fib * np.float32(rng.uniform(0.3, 0.8)) + mott * np.float32(rng.uniform(0.05, 0.25))
    return colorize(t, base * 0.5, base, np.minimum(base * 1.5 + 10, 255))


_PAPER = [(235, 238, 240), (215, 225, 230), (100, 140, 180), (80, 120, 160), (170, 170, 170),
          (200, 210, 225), (60, 60, 60), (225, 230, 215)]


def paper(rng: np.random.Generator, h: int, w: int, ppd: float) -> np.ndarray:
    """Paper, cardboard or a board: flat tone, fine speckle, sometimes ruled or squared."""
    base = jitter_color(rng, _PAPER[rng.integers(len(_PAPER))], 0.08)
    t = 0.5 + fine_noise(rng, h, w) * np.float32(rng.uniform(0.02, 0.1))
    t += (smooth_noise(rng, h, w, ppd * rng.uniform(1, 6)) - 0.5) * np.float32(rng.uniform(0, 0.15))
    img = colorize(t, base * 0.5, base, np.minimum(base * 1.5 + 10, 255))
    if rng.random() < 0.25:  # ruled or squared paper
        step = max(4, int(ppd * rng.uniform(0.3, 1.0)))
        line = jitter_color(rng, (200, 150, 120) if rng.random() < 0.6 else (150, 150, 150), 0.2)
        line = (0.5 * base + 0.5 * line).astype(np.uint8)
        thick = max(1, int(step * 0.08))
        img[(np.arange(h) % step) < thick] = line
        if rng.random() < 0.6:
            img[:, (np.arange(w) % step) < thick] = line
    return img


def plain(rng: np.random.Generator, h: int, w: int, ppd: float) -> np.ndarray:
    """A painted or laminated table top of any colour."""
    hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 160), rng.integers(25, 250)]]], np.uint8)
    base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    t = 0.5 + (smooth_noise(rng, h, w, ppd * rng.uniform(2, 10)) - 0.5) * np.float32(rng.uniform(0, 0.15))
    t += fine_noise(rng, h, w) * np.float32(rng.uniform(0.005, 0.03))
    return colorize(t, base * 0.5, base, np.minimum(base * 1.5 + 10, 255))


def cloth(rng: np.random.Generator, h: int, w: int, ppd: float) -> np.ndarray:
    """Patterned cloth: checks, stripes or gingham with a visible weave."""
    c1 = jitter_color(rng, tuple(rng.uniform(30, 240, 3)), 0.1)
    c2 = c1 * rng.uniform(0.3, 0.7) if rng.random() < 0.5 else jitter_color(rng, tuple(rng.uniform(30, 240, 3)))
    period = ppd * rng.uniform(0.4, 3)
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    sy = ((y // (period / 2)) % 2).astype(np.float32)
    sx = ((x // (period / 2)) % 2).astype(np.float32)
    kind = rng.integers(3)
    t: np.ndarray
    if kind == 0:
        t = np.broadcast_to(sy, (h, w))
    elif kind == 1:
        t = np.abs(sy - sx)
    else:
        t = (sy + sx) / 2
    wp = max(2.0, ppd * rng.uniform(0.03, 0.08))
    weave = np.sin(x * np.float32(2 * np.pi / wp)) * np.sin(y * np.float32(2 * np.pi / wp))
    t = 0.1 + 0.8 * t + 0.06 * weave + fine_noise(rng, h, w) * np.float32(0.05)
    return colorize(t, c1 * 0.8, c1, c2, c2 * 0.8)


SURFACES: dict[str, Callable[[np.random.Generator, int, int, float], np.ndarray]] = {
    "wood": wood,
    "felt": felt,
    "paper": paper,
    "plain": plain,
    "cloth": cloth,
}
_WEIGHTS = {"wood": 0.3, "felt": 0.2, "paper": 0.18, "plain": 0.2, "cloth": 0.12}


def random_surface(rng: np.random.Generator, h: int, w: int, ppd: float) -> np.ndarray:
    """Any surface, sometimes as a dice tray (an inner surface framed by a rim)."""
    names = list(_WEIGHTS)
    p = np.array([_WEIGHTS[n] for n in names])
    name = names[rng.choice(len(names), p=p / p.sum())]
    img = SURFACES[name](rng, h, w, ppd)
    if rng.random() < 0.15:
        img = _tray(rng, img, ppd)
    return img


def add_clutter(rng: np.random.Generator, img: np.ndarray, ppd: float, *, count: int) -> None:
    """Draw ``count`` table-top objects into ``img`` in place: score sheets with pencilled
    digits, coins, pens and cables, the distractors a detector must learn to ignore."""
    h, w = img.shape[:2]
    for _ in range(count):
        kind = rng.choice(4, p=[0.35, 0.25, 0.2, 0.2])
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        off = np.array(rng.uniform(-0.08, 0.08, 2) * ppd)
        if kind == 0:  # a sheet of paper, ruled, with handwritten numbers
            size = (float(ppd * rng.uniform(3, 10)), float(ppd * rng.uniform(3, 12)))
            ang = float(rng.uniform(0, 180))
            box = cv2.boxPoints((c, size, ang))
            under = tuple(float(v) * 0.6 for v in img[int(c[1]) % h, int(c[0]) % w])
            cv2.fillConvexPoly(img, np.array(box + off * 2, np.int32), under)
            paper = tuple(float(v) for v in jitter_color(rng, (235, 240, 242), 0.08))
            cv2.fillConvexPoly(img, np.array(box, np.int32), paper)
            inks = ((120, 40, 20), (40, 40, 40), (30, 30, 150))
            ink = tuple(float(v) for v in jitter_color(rng, inks[rng.integers(3)], 0.2))
            rot = cv2.getRotationMatrix2D(c, -ang, 1.0)
            step = ppd * rng.uniform(0.35, 0.7)
            for k in range(int(size[1] / step) - 1):
                y = c[1] - size[1] / 2 + (k + 1) * step
                x = c[0] - size[0] / 2 + step * 0.5
                if rng.random() < 0.5:
                    a = rot @ np.array([c[0] - size[0] / 2, y, 1.0])
                    b = rot @ np.array([c[0] + size[0] / 2, y, 1.0])
                    cv2.line(img, tuple(np.array(a, np.int32)), tuple(np.array(b, np.int32)), (200, 170, 150), 1,
                             cv2.LINE_AA)
                text = "".join(str(v) for v in rng.integers(0, 10, rng.integers(1, 5)))
                p0 = rot @ np.array([x + rng.uniform(0, size[0] * 0.5), y - step * 0.15, 1.0])
                cv2.putText(img, text, tuple(np.array(p0, np.int32)), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                            step / 40, ink, max(1, int(step / 20)), cv2.LINE_AA)
        elif kind == 1:  # a coin
            r = int(ppd * rng.uniform(0.3, 0.6))
            metal = jitter_color(rng, ((80, 170, 200), (180, 180, 185), (60, 110, 170))[rng.integers(3)], 0.15)
            cc = (int(c[0]), int(c[1]))
            cv2.circle(img, (int(c[0] + off[0]), int(c[1] + off[1])), r, tuple(float(v) * 0.5 for v in metal), -1,
                       cv2.LINE_AA)
            cv2.circle(img, cc, r, tuple(float(v) for v in metal * 0.75), -1, cv2.LINE_AA)
            cv2.circle(img, cc, int(r * 0.85), tuple(float(v) for v in metal), -1, cv2.LINE_AA)
        else:  # a pen (straight) or a cable (wandering)
            thick = max(2, int(ppd * (rng.uniform(0.12, 0.25) if kind == 2 else rng.uniform(0.06, 0.15))))
            n = 2 if kind == 2 else 8
            ang = rng.uniform(0, 2 * np.pi)
            path = [np.array(c)]
            for _ in range(n - 1):
                ang += 0 if kind == 2 else rng.normal(0, 0.5)
                step = ppd * (rng.uniform(3, 8) if kind == 2 else rng.uniform(0.8, 2))
                path.append(path[-1] + step * np.array([np.cos(ang), np.sin(ang)]))
            pts = np.array(path, np.int32)
            col = jitter_color(rng, tuple(rng.uniform(10, 240, 3)) if kind == 2 else (25, 25, 25), 0.2)
            under = tuple(float(v) * 0.5 for v in img[int(c[1]) % h, int(c[0]) % w])
            cv2.polylines(img, [pts + np.array(off, np.int32)], False, under, thick, cv2.LINE_AA)
            cv2.polylines(img, [pts], False, tuple(float(v) for v in col), thick, cv2.LINE_AA)
            cv2.polylines(img, [pts - thick // 4], False, tuple(float(v) for v in np.minimum(col * 1.5 + 30, 255)),
                          max(1, thick // 4), cv2.LINE_AA)


def _tray(rng: np.random.Generator, inner: np.ndarray, ppd: float) -> np.ndarray:
    """Frame ``inner`` with a shaded rim and an outside surface, rim edges somewhere in view."""
    h, w = inner.shape[:2]
    out_name = ("wood", "plain", "paper")[rng.integers(3)]
    img = SURFACES[out_name](rng, h, w, ppd)
    x0, y0 = int(w * rng.uniform(-0.3, 0.3)), int(h * rng.uniform(-0.3, 0.3))
    x1, y1 = int(w * rng.uniform(0.7, 1.3)), int(h * rng.uniform(0.7, 1.3))
    rim = max(2, int(ppd * rng.uniform(0.3, 1.2)))
    rim_col = jitter_color(rng, ((30, 30, 30), (40, 60, 90), (60, 100, 150), (20, 20, 60))[rng.integers(4)], 0.2)
    cv2.rectangle(img, (x0, y0), (x1, y1), tuple(float(c) for c in rim_col), -1)
    ix0, iy0, ix1, iy1 = max(x0 + rim, 0), max(y0 + rim, 0), min(x1 - rim, w), min(y1 - rim, h)
    if ix1 > ix0 and iy1 > iy0:
        # the rim casts a soft shadow into the tray
        yy = np.arange(iy0, iy1, dtype=np.float32)[:, None]
        xx = np.arange(ix0, ix1, dtype=np.float32)[None, :]
        d = np.minimum(np.minimum(xx - (x0 + rim), (x1 - rim) - xx), np.minimum(yy - (y0 + rim), (y1 - rim) - yy))
        shade = 0.55 + 0.45 * np.clip(d / (rim * 1.5 + 1), 0, 1)
        img[iy0:iy1, ix0:ix1] = (inner[iy0:iy1, ix0:ix1] * shade[..., None]).astype(np.uint8)
    return img


# --- real table photos ------------------------------------------------------------------

# How far a label box's longer side must grow to cover the whole die, and how far down the
# die's front face reaches below it: matteop65 boxes cover only the pips of an oblique view.
_BOX_GROWTH = {"byler_d6": (1.35, 0.0), "matteop65_wood": (2.6, 0.2)}


def load_backgrounds(datasets_root, *, per_set: int = 60, seed: int = 0) -> list[np.ndarray]:
    """Train-split photos of the shared sets with their dice painted out, as BGR uint8.

    Reads ``<root>/<set>/labels.jsonl`` for the full-photo sets; the chosen photos are
    spread over each set by ``seed``. Call once at start-up and pass the list to
    ``render_scene(backgrounds=...)``.
    """
    import json
    from pathlib import Path

    root = Path(datasets_root)
    out = []
    pick = np.random.default_rng(seed)
    for name, growth in _BOX_GROWTH.items():
        labels = root / name / "labels.jsonl"
        if not labels.exists():
            continue
        rows = [r for r in map(json.loads, labels.read_text().splitlines()) if r["split"] == "train"]
        for i in pick.permutation(len(rows))[:per_set]:
            img = cv2.imread(str(root / name / rows[i]["image"]))
            if img is not None:
                out.append(paint_out(img, [d["box"] for d in rows[i]["dice"] if d["box"]], growth))
    return out


def paint_out(img: np.ndarray, boxes, growth: tuple[float, float]) -> np.ndarray:
    """``img`` with a square around every box inpainted away.

    ``growth`` is (side as a multiple of the box's longer side, downward shift as a share
    of that side).
    """
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for x0, y0, x1, y1 in boxes:
        half = max(x1 - x0, y1 - y0) * growth[0] / 2
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 2 * half * growth[1]
        cv2.rectangle(mask, (int(cx - half), int(cy - half)), (int(cx + half), int(cy + half)), 255, -1)
    if not mask.any():
        return img
    # inpainting at half size is plenty for smooth tables and four times faster
    small = cv2.inpaint(cv2.resize(img, (w // 2, h // 2)), cv2.resize(mask, (w // 2, h // 2)), 5, cv2.INPAINT_TELEA)
    filled = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    out = img.copy()
    out[mask > 0] = filled[mask > 0]
    return out


def photo_surface(rng: np.random.Generator, photos, h: int, w: int) -> np.ndarray:
    """A random crop of one of ``photos``, flipped or turned, resized to (h, w): uint8 BGR."""
    img = photos[rng.integers(len(photos))]
    ph, pw = img.shape[:2]
    scale = rng.uniform(0.5, 1.0)
    cw, ch = max(16, int(pw * scale)), max(16, int(ph * scale))
    x, y = int(rng.integers(0, pw - cw + 1)), int(rng.integers(0, ph - ch + 1))
    crop = img[y:y + ch, x:x + cw]
    crop = np.rot90(crop, int(rng.integers(4)))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    return cv2.resize(np.ascontiguousarray(crop), (w, h), interpolation=cv2.INTER_LINEAR)
