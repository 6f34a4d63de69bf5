"""Peak picking and duplicate suppression on the detector's outputs (pure numpy/OpenCV)."""

from __future__ import annotations

import cv2
import numpy as np


def centre_peaks(heat: np.ndarray, *, min_score: float = 0.25, max_peaks: int = 100) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    boxes = np.asarray(boxes, np.float64)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    ix = np.clip(np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(boxes[:, None, 0], boxes[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(boxes[:, None, 1], boxes[None, :, 1]), 0, None)
    inter = ix * iy
    overlap = inter / np.maximum(area[:, None] + area[None, :] - inter, 1e-6)
    # Two dice can touch but their top faces never hold each other's centres.
    inside = ((boxes[None, :, 0] < cx[:, None]) & (cx[:, None] < boxes[None, :, 2])
              & (boxes[None, :, 1] < cy[:, None]) & (cy[:, None] < boxes[None, :, 3]))  # [i, j]: centre i in box j
    clash = (overlap > iou) | inside  # [i, j]: i is a duplicate of j if j is kept and stronger
    kept = np.zeros(len(boxes), bool)
    order = np.argsort(-np.asarray(scores))
    for i in order:
        if not (clash[i] & kept).any():
            kept[i] = True
    return order[kept[order]].astype(np.int64)


def drop_nested(boxes: np.ndarray, scores: np.ndarray, *, min_area_ratio: float = 2.0,
                min_score_ratio: float = 0.3) -> np.ndarray:
    """Indices to keep: drop a box whose centre lies inside a box at least `min_area_ratio` times its area.

    Top faces of dice never nest, but a pip of a big die can look like a small die
    showing 1; the die around it wins if its own score is not much weaker.
    """
    n = len(boxes)
    if not n:
        return np.zeros((0,), np.int64)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    inside = ((boxes[None, :, 0] < cx[:, None]) & (cx[:, None] < boxes[None, :, 2])
              & (boxes[None, :, 1] < cy[:, None]) & (cy[:, None] < boxes[None, :, 3]))  # [i, j]: centre i in box j
    bigger = area[None, :] >= min_area_ratio * area[:, None]
    strong = scores[None, :] >= min_score_ratio * scores[:, None]
    nested = (inside & bigger & strong).any(axis=1)
    return np.nonzero(~nested)[0]
