"""Box maths in one place: boxes are float arrays (N, 4) of [x0, y0, x1, y1] in pixels.

Used by the reader's peak picking, the scoring rule (`vision.metrics`), label corrections,
training's mining and the benchmarks alike, so that "inside" and "overlap" mean one thing.
"""

from __future__ import annotations

import numpy as np


def as_boxes(boxes: np.ndarray) -> np.ndarray:
    """`boxes` as a float64 array (N, 4), also for an empty list."""
    return np.asarray(boxes, np.float64).reshape(-1, 4)


def centres(boxes: np.ndarray) -> np.ndarray:
    """Centres (N, 2) of boxes (N, 4)."""
    boxes = as_boxes(boxes)
    return (boxes[:, :2] + boxes[:, 2:]) / 2


def sides(boxes: np.ndarray) -> np.ndarray:
    """Each box's longer side (N,)."""
    boxes = as_boxes(boxes)
    return np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])


def areas(boxes: np.ndarray) -> np.ndarray:
    """Each box's area (N,); a box with negative extent has none."""
    boxes = as_boxes(boxes)
    return np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)


def inside(points: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(P, B) booleans: point p lies inside box b (edges count as inside)."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    boxes = as_boxes(boxes)
    x, y = points[:, None, 0], points[:, None, 1]
    return (x >= boxes[None, :, 0]) & (x <= boxes[None, :, 2]) & (y >= boxes[None, :, 1]) & (y <= boxes[None, :, 3])


def strictly_inside(points: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(P, B) booleans: point p lies inside box b, not on its edge."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    boxes = as_boxes(boxes)
    x, y = points[:, None, 0], points[:, None, 1]
    return (boxes[None, :, 0] < x) & (x < boxes[None, :, 2]) & (boxes[None, :, 1] < y) & (y < boxes[None, :, 3])


def centre_inside(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(A, B) booleans: the centre of box a lies strictly inside box b."""
    return strictly_inside(centres(a), b)


def intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(A, B) areas where boxes `a` (A, 4) and `b` (B, 4) overlap."""
    a, b = as_boxes(a), as_boxes(b)
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    return ix * iy


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(A, B) intersection over union of boxes `a` (A, 4) and `b` (B, 4)."""
    inter = intersections(a, b)
    return inter / np.maximum(areas(a)[:, None] + areas(b)[None, :] - inter, 1e-6)


def overlapping(boxes: np.ndarray, share: float) -> np.ndarray:
    """(N,) booleans: the box overlaps another of `boxes` by at least `share` of the smaller
    one's area (boxes without area overlap nothing)."""
    near = overlaps(boxes, boxes, share)
    np.fill_diagonal(near, False)
    return np.asarray(near.any(axis=1), bool)


def overlaps(first: np.ndarray, second: np.ndarray, share: float) -> np.ndarray:
    """(N, M) booleans: box i of `first` and box j of `second` overlap by at least `share`
    of the smaller one's area (boxes without area overlap nothing)."""
    first, second = as_boxes(first), as_boxes(second)
    inter = intersections(first, second)
    smaller = np.minimum(areas(first)[:, None], areas(second)[None, :])
    return (inter > 0) & (inter >= share * smaller)


def passed_over(boxes: np.ndarray, order: np.ndarray, share: float) -> np.ndarray:
    """(N,) booleans: going down `order` (indices into `boxes`, likeliest first), the box
    overlaps one taken before it by at least `share` of the smaller box's area (`overlaps`),
    so is passed over (a second box on one die, or its side face beside its top). Boxes not
    in `order` are never passed over."""
    near = overlaps(boxes, boxes, share)
    passed = np.zeros(len(near), bool)
    taken: list[int] = []
    for i in np.asarray(order, np.int64):
        if taken and near[i, taken].any():
            passed[i] = True
        else:
            taken.append(int(i))
    return passed


def holding_die(boxes: np.ndarray, wholes: np.ndarray) -> np.ndarray:
    """For each box (N, 4), the index of the whole die of `wholes` (K, 4) it lies on: of
    those holding its centre, the one whose centre is nearest; -1 where none holds it."""
    out = np.full(len(as_boxes(boxes)), -1, np.int64)
    if not len(out) or not len(as_boxes(wholes)):
        return out
    points = centres(boxes)
    far = np.linalg.norm(points[:, None, :] - centres(wholes)[None, :, :], axis=2)
    far[~strictly_inside(points, wholes)] = np.inf
    on = np.isfinite(far).any(axis=1)
    out[on] = np.argmin(far[on], axis=1)
    return out


def whole_die_of(boxes: np.ndarray, wholes: np.ndarray) -> np.ndarray:
    """For each box (N, 4), the whole-die box of `wholes` (K, 4) it lies on (`holding_die`);
    a NaN row where none holds it."""
    at = holding_die(boxes, wholes)
    out = np.full((len(at), 4), np.nan, np.float32)
    out[at >= 0] = as_boxes(wholes)[at[at >= 0]]
    return out


def lower_faces(boxes: np.ndarray, die_boxes: np.ndarray, among: np.ndarray) -> np.ndarray:
    """Booleans (N,): the box is one of `among` (a mask) and another of them lies on the same
    whole die (`die_boxes`, NaN rows: none) higher up the photo. A die seen at an angle
    shows its top face above its side faces, so of one die's faces only the uppermost
    is its top."""
    boxes, die_boxes = as_boxes(boxes), as_boxes(die_boxes)
    out = np.zeros(len(boxes), bool)
    rows = np.flatnonzero(np.asarray(among, bool) & ~np.isnan(die_boxes).any(axis=1))
    if len(rows) < 2:
        return out
    same = (die_boxes[rows][:, None, :] == die_boxes[rows][None, :, :]).all(axis=2)
    y = centres(boxes[rows])[:, 1]
    # [i, j]: j lies on i's die, higher up (ties: the earlier row stays).
    higher = same & ((y[None, :] < y[:, None]) | ((y[None, :] == y[:, None]) & (rows[None, :] < rows[:, None])))
    out[rows] = higher.any(axis=1)
    return out


def under(boxes: np.ndarray, above: np.ndarray, reach: float) -> np.ndarray:
    """(N,) booleans: the box's top edge lies within `reach` of its own height of the bottom
    edge of a box of `above`, its centre between that box's left and right edges: where a
    die seen at an angle shows its front face, right under its top face."""
    boxes, above = as_boxes(boxes), as_boxes(above)
    if not len(boxes) or not len(above):
        return np.zeros(len(boxes), bool)
    cx = centres(boxes)[:, 0][:, None]
    near = reach * (boxes[:, 3] - boxes[:, 1])[:, None]
    gap = boxes[:, 1][:, None] - above[None, :, 3]
    return ((np.abs(gap) <= near) & (above[None, :, 0] <= cx) & (cx <= above[None, :, 2])).any(axis=1)


def drops_on_die(boxes: np.ndarray, die_boxes: np.ndarray) -> np.ndarray:
    """(N,) how far each box's top edge lies below its whole die's top (`die_boxes`), as a
    share of the die's height; NaN where no die is known (a NaN row)."""
    boxes, die_boxes = as_boxes(boxes), as_boxes(die_boxes)
    return (boxes[:, 1] - die_boxes[:, 1]) / np.maximum(die_boxes[:, 3] - die_boxes[:, 1], 1e-6)


def low_on_die(boxes: np.ndarray, die_boxes: np.ndarray, drop: float) -> np.ndarray:
    """(N,) booleans: the box's top edge lies more than `drop` of its whole die's height
    below the die's top (`drops_on_die`; never where no die is known). A die seen low shows
    its top face as a band at the top of the die and its front face under it; a face found
    that far down its die is that front face, whose pips are not the throw."""
    with np.errstate(invalid="ignore"):
        return drops_on_die(boxes, die_boxes) > drop
