"""Real dice cut from one train photo and pasted into another (`train detector --paste-dice`).

The detector misses small red and yellow dice lying on a printed board even on the photos
it learned (models/HISTORY.md, session 34): each board photo shows one or two of them, so
it sees few. Pasting real dice (their whole-die boxes, with the bit of table at their
corners) at random places of other photos shows it many more, on every part of a board,
at the size the photo's own dice have.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from dicecam.training.data.photos import Sample
from dicecam.vision.boxes import intersections

#: A pasted die's whole box is the photo's median whole die times up to this factor either way.
SIZE_JITTER = 1.25
#: Tries to place each die where it overlaps no die already there.
PLACE_TRIES = 8


@dataclass(frozen=True)
class DiePatch:
    """One real die: the pixels of its whole-die box, and its top face's box in them."""

    pixels: np.ndarray   # (h, w, 3) BGR
    top: np.ndarray      # (4,) x0, y0, x1, y1 inside `pixels`


def die_patches(samples: Iterable[Sample], *, min_side: int = 8) -> list[DiePatch]:
    """Every die of `samples` whose whole box is known (roboflow's labels) and at least
    `min_side` pixels, cut out with its top face's box."""
    patches = []
    for s in samples:
        if s.die_boxes is None or s.boxes is None:
            continue
        h, w = s.image.shape[:2]
        for whole, top in zip(s.die_boxes, s.boxes):
            x0, y0 = int(max(np.floor(whole[0]), 0)), int(max(np.floor(whole[1]), 0))
            x1, y1 = int(min(np.ceil(whole[2]), w)), int(min(np.ceil(whole[3]), h))
            if min(x1 - x0, y1 - y0) < min_side:
                continue
            inside = np.clip(top - [x0, y0, x0, y0], 0, [x1 - x0, y1 - y0] * 2).astype(np.float32)
            patches.append(DiePatch(s.image[y0:y1, x0:x1].copy(), inside))
    return patches


def _feather(h: int, w: int) -> np.ndarray:
    """A (h, w, 1) mask, 1 in the middle falling to about 0 at the edges: no seam around a pasted die."""
    ramp_y = np.minimum(np.arange(h) + 0.5, h - np.arange(h) - 0.5) / max(1.0, 0.12 * h)
    ramp_x = np.minimum(np.arange(w) + 0.5, w - np.arange(w) - 0.5) / max(1.0, 0.12 * w)
    return np.clip(np.minimum(ramp_y[:, None], ramp_x[None, :]), 0, 1)[..., None].astype(np.float32)


def paste_dice(image: np.ndarray, boxes: np.ndarray, wholes: np.ndarray | None, patches: list[DiePatch],
               rng: np.random.Generator, *, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """`image` with up to `count` dice of `patches` pasted where no die lies, and its top-face
    boxes (and whole-die boxes, where known) with theirs added.

    Each pasted die is scaled so its whole box is about the photo's median die (its whole
    dice where known, else its top faces), within `SIZE_JITTER`; a photo without dice keeps
    the patch's own size.
    """
    out = image.copy()
    h, w = out.shape[:2]
    known = wholes if wholes is not None else boxes
    taken = [np.asarray(known, np.float32).reshape(-1, 4)]
    typical = float(np.median(np.maximum(known[:, 2] - known[:, 0], known[:, 3] - known[:, 1]))) if len(known) else None
    new_tops, new_wholes = [], []
    for _ in range(count):
        patch = patches[int(rng.integers(len(patches)))]
        ph, pw = patch.pixels.shape[:2]
        scale = 1.0 if typical is None else typical / max(ph, pw)
        scale *= float(np.exp(rng.uniform(-np.log(SIZE_JITTER), np.log(SIZE_JITTER))))
        sh, sw = max(4, round(ph * scale)), max(4, round(pw * scale))
        if sh >= h or sw >= w:
            continue
        for _ in range(PLACE_TRIES):
            x0, y0 = int(rng.integers(0, w - sw + 1)), int(rng.integers(0, h - sh + 1))
            box = np.array([x0, y0, x0 + sw, y0 + sh], np.float32)
            if not (intersections(box[None], np.concatenate(taken)) > 0).any():
                break
        else:
            continue
        pixels = cv2.resize(patch.pixels, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        mask = _feather(sh, sw)
        region = out[y0:y0 + sh, x0:x0 + sw].astype(np.float32)
        out[y0:y0 + sh, x0:x0 + sw] = np.round(region + mask * (pixels.astype(np.float32) - region)).astype(np.uint8)
        fx, fy = sw / pw, sh / ph
        new_tops.append(patch.top * [fx, fy, fx, fy] + [x0, y0, x0, y0])
        new_wholes.append(box)
        taken.append(box[None])
    if not new_tops:
        return out, boxes, wholes
    tops = np.concatenate([boxes, np.array(new_tops, np.float32)]).astype(np.float32)
    if wholes is None:
        return out, tops, None
    return out, tops, np.concatenate([wholes, np.array(new_wholes, np.float32)]).astype(np.float32)
