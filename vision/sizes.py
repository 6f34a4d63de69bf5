"""The dice of one throw are the same size: the photo's typical die as a prior (pure numpy).

A box much smaller than the other dice in the photo is rarely a die of its own: it is
a pip, a side face, a detail of the table, or part of a die (one pip of a 2). These
helpers measure that, so that the reader can re-read or drop such boxes.
"""

from __future__ import annotations

import numpy as np


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
