"""Die faces printed in a row: a score sheet's column of faces, one to six, read as dice.

A Kniffel or Yahtzee score sheet prints a die's faces down its upper section, each a small
square with its pips; to the readers each is a die's face. Thrown dice do not lie in a row
whose values count up one by one at even steps; printed faces do. These are pure functions
of a read's boxes and values (`DiceReader` asks about such dice, C429 in models/HISTORY.md).
"""

from __future__ import annotations

import numpy as np

#: A printed column holds six faces: a row grows by at most five steps from its first pair.
_MOST_STEPS = 4


def _sizes(boxes: np.ndarray) -> np.ndarray:
    return np.sqrt(np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None))


def printed_rows(boxes: np.ndarray, values: np.ndarray, *, length: int = 3, reach: float = 0.2,
                 size_ratio: float = 1.35, spacing: tuple[float, float] = (0.8, 2.0)) -> np.ndarray:
    """Which of `boxes` (N, 4), read as `values` (N,), lie in a row of `length` or more faces
    whose values count up by one at even steps, as a score sheet prints them.

    A row starts at two boxes of neighbouring values, `spacing` (least, most) of their mean
    size apart (a sheet prints its faces about a face apart; dice further apart in a line are
    chance in a heap, C429c); each next face lies within `reach` of its neighbour's size of where the last
    step, grown as the faces grow (a sheet seen at an angle), puts it, and neighbours' sizes
    differ by at most `size_ratio`. Rows run any way across the photo, up or down the values.
    """
    n = len(boxes)
    rows = np.zeros(n, bool)
    if n < max(length, 2):
        return rows
    boxes = np.asarray(boxes, np.float64)
    values = np.asarray(values)
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    size = np.maximum(_sizes(boxes), 1e-6)

    def alike(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.maximum(size[a], size[b]) <= size_ratio * np.minimum(size[a], size[b])

    first, second = np.nonzero(values[None, :] - values[:, None] == 1)
    gap = np.linalg.norm(centre[second] - centre[first], axis=1) / ((size[first] + size[second]) / 2)
    keep = alike(first, second) & (gap >= spacing[0]) & (gap <= spacing[1])
    first, second = first[keep], second[keep]
    members = [first, second]
    before, last = first, second
    grown = np.full(len(first), 2)
    alive = np.ones(len(first), bool)
    for _ in range(_MOST_STEPS):
        if not alive.any():
            break
        step = (centre[last] - centre[before]) * (size[last] / size[before])[:, None]
        wanted = centre[last] + step
        apart = np.linalg.norm(centre[None, :, :] - wanted[:, None, :], axis=2)  # (rows, boxes)
        nearest = apart.argmin(axis=1)
        found = (alive & (apart[np.arange(len(nearest)), nearest] <= reach * size[last])
                 & (values[nearest] - values[last] == 1) & alike(nearest, last))
        members.append(np.where(found, nearest, -1))
        grown += found
        before, last = np.where(found, last, before), np.where(found, nearest, last)
        alive = found
    chains = np.stack(members, axis=1)[grown >= length]  # (rows, faces), -1 past a row's end
    rows[chains[chains >= 0]] = True
    return rows
