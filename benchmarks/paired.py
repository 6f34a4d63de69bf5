"""Read F1 of two readings of the same photos or scenes, compared pairwise with a bootstrap interval.

Used by `paired_scenes.py` (rendered throws) and `candidate.py` (a dataset's photos).
"""

from __future__ import annotations

import numpy as np

from dicecam.vision.metrics import Score

COUNTED = ("labelled", "predicted", "right")  # what read F1 is made of


def counts(score: Score) -> list[int]:
    """One photo's or scene's `COUNTED` figures, for `paired_gain`."""
    return [getattr(score, name) for name in COUNTED]


def read_f1(counts: np.ndarray) -> np.ndarray:
    """Read F1 of summed per-scene counts (..., 3) given as labelled, predicted, right."""
    labelled, predicted, right = np.moveaxis(np.asarray(counts, np.float64), -1, 0)
    # As `Score.read_f1`: 2 right / (labelled + predicted); nothing at all reads 1.
    total = labelled + predicted
    return np.where(total > 0, 2 * right / np.maximum(total, 1), 1.0)


def paired_gain(base: np.ndarray, other: np.ndarray, *, resamples: int = 2000,
                seed: int = 0, level: float = 0.95) -> tuple[float, float, float]:
    """Gain in read F1 of `other` over `base` and its bootstrap interval: (gain, low, high).

    `base` and `other` are per-scene counts (scenes, 3) of the same scenes. Scenes are
    resampled with replacement, the same draw for both, `resamples` times.
    """
    base, other = np.asarray(base, np.float64), np.asarray(other, np.float64)
    if base.shape != other.shape or base.ndim != 2 or base.shape[1] != len(COUNTED):
        raise ValueError(f"per-scene counts must be two arrays of shape (scenes, {len(COUNTED)}) alike")
    if not len(base):
        return 0.0, 0.0, 0.0
    gain = float(read_f1(other.sum(axis=0)) - read_f1(base.sum(axis=0)))
    picks = np.random.default_rng(seed).integers(0, len(base), size=(resamples, len(base)))
    gains = read_f1(other[picks].sum(axis=1)) - read_f1(base[picks].sum(axis=1))
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(gains, [tail, 100 - tail])
    return gain, float(low), float(high)
