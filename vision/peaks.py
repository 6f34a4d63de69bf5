"""Peak picking and duplicate suppression on the detector's outputs (pure numpy/OpenCV)."""

from __future__ import annotations

import cv2
import numpy as np

from dicecam.vision.boxes import centre_inside
from dicecam.vision.boxes import iou as overlap


def centre_peaks(heat: np.ndarray, *, min_score: float = 0.25,
                 max_peaks: int = 100) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Local maxima (3x3) of a heat map above `min_score`, strongest first: (ys, xs, scores)."""
    heat = np.ascontiguousarray(heat, dtype=np.float32)
    is_peak = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= min_score)
    ys, xs = np.nonzero(is_peak)
    scores = heat[ys, xs]
    order = np.argsort(-scores)[:max_peaks]
    return ys[order], xs[order], scores[order]


def suppress_duplicates(boxes: np.ndarray, scores: np.ndarray, *, iou: float = 0.45) -> np.ndarray:
    """Indices to keep: drop a box that overlaps a stronger one or holds its centre."""
    if not len(boxes):
        return np.zeros((0,), np.int64)
    # Two dice can touch but their top faces never hold each other's centres.
    # [i, j]: i is a duplicate of j if j is kept and stronger.
    clash = (overlap(boxes, boxes) > iou) | centre_inside(boxes, boxes)
    kept = np.zeros(len(boxes), bool)
    order = np.argsort(-np.asarray(scores))
    for i in order:
        if not (clash[i] & kept).any():
            kept[i] = True
    return order[kept[order]].astype(np.int64)


def apart_from(boxes: np.ndarray, others: np.ndarray, *, iou: float = 0.45) -> np.ndarray:
    """Booleans (N,): the box overlaps none of `others` by more than `iou`, and neither holds the other's centre."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    others = np.asarray(others, np.float64).reshape(-1, 4)
    if not len(boxes) or not len(others):
        return np.ones(len(boxes), bool)
    clash = (overlap(boxes, others) > iou) | centre_inside(boxes, others) | centre_inside(others, boxes).T
    return ~clash.any(axis=1)


def drop_nested(boxes: np.ndarray, scores: np.ndarray, *, min_area_ratio: float = 2.0,
                min_score_ratio: float = 0.3) -> np.ndarray:
    """Indices to keep: drop a box whose centre lies inside a box at least `min_area_ratio` times its area.

    Top faces of dice never nest, but a pip of a big die can look like a small die
    showing 1; the die around it wins if its own score is not much weaker.
    """
    n = len(boxes)
    if not n:
        return np.zeros((0,), np.int64)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    inside = centre_inside(boxes, boxes)  # [i, j]: centre i in box j
    bigger = area[None, :] >= min_area_ratio * area[:, None]
    strong = scores[None, :] >= min_score_ratio * scores[:, None]
    nested = (inside & bigger & strong).any(axis=1)
    return np.nonzero(~nested)[0]
