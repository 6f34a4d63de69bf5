"""The dice of one throw are the same size: the photo's typical die as a prior (pure numpy).

A box much smaller than the other dice in the photo is rarely a die of its own: it is
a pip, a side face, a detail of the table, or part of a die (one pip of a 2). These
helpers measure that, so that the reader can re-read or drop such boxes.
"""

from __future__ import annotations

import numpy as np

#: Dice whose typical box (median longer side of the top faces read) is under this many
#: pixels in the photo as read are read far less reliably. Chosen on roboflow_dice's train
#: throws of 1-6 dice (`benchmarks/die_size.py`): told their count, 0.63 of the throws
#: under it read exactly against 0.97 of those at or over it; without, 0.47 against 0.94.
READABLE_SIDE = 28.0


def longer_sides(boxes: np.ndarray) -> np.ndarray:
    """Each box's longer side, (N, 4) -> (N,)."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    return np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])


def typical_side(boxes: np.ndarray, trusted: np.ndarray | None = None) -> float:
    """Median longer side of the `trusted` boxes (of all boxes when none is trusted); 0 for no boxes."""
    sides = longer_sides(boxes)
    if trusted is not None and np.any(trusted):
        sides = sides[np.asarray(trusted, bool)]
    return float(np.median(sides)) if len(sides) else 0.0


def relative_sides(boxes: np.ndarray, typical: float) -> np.ndarray:
    """Each box's longer side as a fraction of `typical` (ones when `typical` is 0)."""
    sides = longer_sides(boxes)
    return sides / typical if typical > 0 else np.ones_like(sides)


def grown_to(boxes: np.ndarray, side: float) -> np.ndarray:
    """The boxes scaled about their centres so that the longer side is at least `side`."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    sides = longer_sides(boxes)
    factor = np.maximum(side, sides) / np.maximum(sides, 1e-6)
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    half = (boxes[:, 2:] - boxes[:, :2]) / 2 * factor[:, None]
    return np.concatenate([centre - half, centre + half], axis=1).astype(np.float32)


def too_small_to_read(boxes: np.ndarray | list) -> bool:
    """Whether dice with these boxes (N x 4, photo pixels) came out too small in the photo to be
    read reliably (`READABLE_SIDE`); False for no boxes: nothing was read."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    return bool(len(boxes)) and typical_side(boxes) < READABLE_SIDE
