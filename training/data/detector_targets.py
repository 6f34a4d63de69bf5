"""Detector training samples: a scaled random crop of a photo plus CenterNet targets."""

from __future__ import annotations

import cv2
import numpy as np

from dicecam.training.data.augment import flip_rot90, photometric
from dicecam.training.shapes import STRIDE

CROP = 256
#: A photo drawn at its natural scale (`random_view(long_side=...)`) is rescaled up to this
#: log-factor either way (about 0.8x to 1.25x).
NATURAL_JITTER = 0.22


def random_view(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, *, crop: int = CROP,
                die_px: tuple[float, float] = (11.0, 110.0), turns: bool = True,
                wholes: np.ndarray | None = None, long_side: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Rescale so the median die is log-uniform in `die_px`, then take a `crop`-square window
    (flipped, and given quarter turns unless `turns` is False).

    With `long_side`, the photo is rescaled instead so its longer side is about that
    (within `NATURAL_JITTER`): its dice come out the size the detector's first look sees
    them at, whatever that is.

    `wholes` (boxes of whole dice, one per row of `boxes`) go through the same changes;
    then the boxes come back as (N, 8), each top face beside its whole die.
    """
    n = len(boxes)
    if wholes is not None:
        boxes = np.concatenate([boxes, wholes]).astype(np.float32)
    img, boxes = flip_rot90(img, boxes, rng, turns=turns)
    boxes, wholes = (boxes[:n], boxes[n:]) if wholes is not None else (boxes, None)
    h, w = img.shape[:2]
    if long_side is not None:
        # As the detector reads it: a 12 MP photo shrinks far below the clip below.
        scale = long_side / max(h, w) * float(np.exp(rng.uniform(-NATURAL_JITTER, NATURAL_JITTER)))
    else:
        if len(boxes):
            size = float(np.median(np.sqrt((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))))
            target = float(np.exp(rng.uniform(np.log(die_px[0]), np.log(die_px[1]))))
            scale = target / max(size, 1.0)
        else:
            scale = rng.uniform(0.4, 1.2)
        # Don't blow tiny images up beyond recognition or shrink whole photos to a dot.
        scale = float(np.clip(scale, 0.15, 3.0))
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    img = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    boxes = boxes * scale
    if wholes is not None:
        boxes = np.concatenate([boxes, wholes * scale], axis=1)
    # Pad with a border colour taken from the photo so padding does not look like a table edge.
    canvas = np.empty((max(crop, nh), max(crop, nw), 3), np.uint8)
    canvas[:] = np.median(img.reshape(-1, 3), axis=0).astype(np.uint8)
    oy, ox = int(rng.integers(0, canvas.shape[0] - nh + 1)), int(rng.integers(0, canvas.shape[1] - nw + 1))
    canvas[oy:oy + nh, ox:ox + nw] = img
    boxes = boxes + np.tile(np.array([ox, oy], np.float32), boxes.shape[1] // 2)
    # Prefer windows that contain dice.
    if len(boxes) and rng.random() < 0.8:
        b = boxes[int(rng.integers(len(boxes)))]
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        x0 = int(np.clip(cx - rng.uniform(0.1, 0.9) * crop, 0, canvas.shape[1] - crop))
        y0 = int(np.clip(cy - rng.uniform(0.1, 0.9) * crop, 0, canvas.shape[0] - crop))
    else:
        x0 = int(rng.integers(0, canvas.shape[1] - crop + 1))
        y0 = int(rng.integers(0, canvas.shape[0] - crop + 1))
    view = canvas[y0:y0 + crop, x0:x0 + crop]
    boxes = boxes - np.tile(np.array([x0, y0], np.float32), boxes.shape[1] // 2)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    inside = (cx >= 0) & (cx < crop) & (cy >= 0) & (cy < crop)
    return np.ascontiguousarray(view), np.clip(boxes[inside], 0, crop)


def whole_die_targets(wholes: np.ndarray | None, shape: tuple[int, int]) -> dict[str, np.ndarray]:
    """Heat map and log size of whole dice (top and side faces), as `centernet_targets`;
    `has_whole` 0 (and the rest zeros) where the photo's whole dice are not known."""
    if wholes is None:
        gh, gw = shape[0] // STRIDE, shape[1] // STRIDE
        return {"whole_heat": np.zeros((gh, gw), np.float32), "whole_size": np.zeros((2, gh, gw), np.float32),
                "whole_mask": np.zeros((gh, gw), np.float32), "has_whole": np.zeros((), np.float32)}
    t = centernet_targets(wholes, shape)
    return {"whole_heat": t["heat"], "whole_size": t["size"], "whole_mask": t["mask"],
            "has_whole": np.ones((), np.float32)}


def die_side_targets(wholes: np.ndarray | None, shape: tuple[int, int]) -> dict[str, np.ndarray]:
    """At every cell whose centre lies inside a whole die, the log distances (in cells) to
    its left, top, right and bottom edges (`sides` (4, H, W), `sides_mask`); where dice
    overlap, the smaller one's. `has_whole` 0 (and the rest zeros) where the photo's
    whole dice are not known."""
    gh, gw = shape[0] // STRIDE, shape[1] // STRIDE
    sides = np.zeros((4, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    if wholes is None:
        return {"sides": sides, "sides_mask": mask, "has_whole": np.zeros((), np.float32)}
    cx = (np.arange(gw, dtype=np.float32) + 0.5) * STRIDE
    cy = (np.arange(gh, dtype=np.float32) + 0.5) * STRIDE
    area = (wholes[:, 2] - wholes[:, 0]) * (wholes[:, 3] - wholes[:, 1])
    for x0, y0, x1, y1 in wholes[np.argsort(-area)]:  # the smaller die last: it wins a shared cell
        cols = np.flatnonzero((cx > x0) & (cx < x1))
        rows = np.flatnonzero((cy > y0) & (cy < y1))
        if not len(cols) or not len(rows):
            continue
        r, c = np.ix_(rows, cols)
        for k, d in enumerate((cx[c] - x0, cy[r] - y0, x1 - cx[c], y1 - cy[r])):
            sides[k][r, c] = np.log(np.maximum(d, 0.5) / STRIDE)
        mask[r, c] = 1.0
    return {"sides": sides, "sides_mask": mask, "has_whole": np.ones((), np.float32)}


def centernet_targets(boxes: np.ndarray, shape: tuple[int, int], *, stride: int = STRIDE) -> dict[str, np.ndarray]:
    """Gaussian centre heat map, log box size and offset targets at the detector's `stride`
    (the search network's is `SEARCH_STRIDE`)."""
    gh, gw = shape[0] // stride, shape[1] // stride
    heat = np.zeros((gh, gw), np.float32)
    size = np.zeros((2, gh, gw), np.float32)
    offset = np.zeros((2, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        w, h = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        ix, iy = min(int(cx), gw - 1), min(int(cy), gh - 1)
        sigma = max(0.35 * min(w, h) / stride / 2, 0.6)
        g = np.exp(-((xs - cx + 0.5) ** 2 + (ys - cy + 0.5) ** 2) / (2 * sigma**2))
        np.maximum(heat, g, out=heat)
        heat[iy, ix] = 1.0
        size[:, iy, ix] = np.log([w / stride, h / stride])
        offset[:, iy, ix] = [cx - ix, cy - iy]
        mask[iy, ix] = 1.0
    return {"heat": heat, "size": size, "offset": offset, "mask": mask}


def detector_sample(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, *, crop: int = CROP,
                    augment: bool = True, turns: bool = True, whole: bool = False, sides: bool = False,
                    wholes: np.ndarray | None = None, long_side: float | None = None,
                    die_px: tuple[float, float] = (11.0, 110.0), stride: int = STRIDE
                    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One (CHW float32 image in 0..1, targets) training pair (`long_side`, `die_px`: see
    `random_view`), its targets at `stride`.

    `whole`: the targets also say where the whole dice are (`whole_die_targets`), from
    `wholes` (one whole-die box per top face) where the photo has them; `sides`: each
    cell's distances to its whole die's edges instead (`die_side_targets`).
    """
    view, vboxes = random_view(img, boxes, rng, crop=crop, turns=turns, die_px=die_px,
                               wholes=wholes if whole or sides else None, long_side=long_side)
    if augment:
        view = photometric(view, rng)
    x = view.astype(np.float32).transpose(2, 0, 1) / 255.0
    targets = centernet_targets(vboxes[:, :4], view.shape[:2], stride=stride)
    if whole:
        targets |= whole_die_targets(None if wholes is None else vboxes[:, 4:], view.shape[:2])
    if sides:
        targets |= die_side_targets(None if wholes is None else vboxes[:, 4:], view.shape[:2])
    return x, targets
