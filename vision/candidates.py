"""The one type that flows through the reader: every box the detector found, and what the face reader made of it."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from dicecam.vision.confidence import FULL_PEAK, ConfidenceFit
from dicecam.vision.detections import Dice

#: The most a die the page should ask about is reported sure: one added to fill a throw's
#: count, or found only by a look the reader's own rules did not make first.
ASKED_AT_MOST = 0.5


def ask_about(confidences: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """`confidences` with those under `mask` lowered to at most `ASKED_AT_MOST`: dice the page asks about."""
    return np.where(mask, np.minimum(confidences, ASKED_AT_MOST), confidences)


def _rows(n: int, dtype=np.float32) -> np.ndarray:
    return np.zeros(n, dtype)


def filled(column: np.ndarray | None, name: str) -> np.ndarray:
    """A column of `Candidates` that must be set by now: the face reader sets all it reads at once,
    `DiceReader.judge` sets `kept`. Asking for one before then is a mistake in the caller."""
    if column is None:
        raise ValueError(f"candidates have no {name} yet")
    return column


@dataclass(frozen=True)
class Candidates:
    """Parallel arrays, one row per box (N rows each).

    Set by the detector: `boxes` (N, 4) in the photo's pixels, `scores` (N,) its peaks.
    Set by the face reader: `values` (1-6, the likeliest face), `held` (the reader's
    probability of that value, as its check held it), `top` (its top face probability),
    `not_a_die` (its probability that the box shows no die's top face), `relative` (the
    box's longer side over the photo's typical die) and `kept` (whether the reader's
    rules keep the box as a die). `lone` marks boxes found only by enlarging a photo where
    the detector's first look found nothing. `whole` is the whole-die check's
    probability that the box is a die (NaN where it did not look: boxes already dropped).
    `die_boxes` (N, 4), where the detector boxes whole dice, is the whole die (top and
    side faces) each box lies on, a NaN row where it lies on none. `asked` marks boxes
    whose confidence is at most `ASKED_AT_MOST`, whatever their reading: the page asks about them.
    """

    boxes: np.ndarray
    scores: np.ndarray
    values: np.ndarray | None = None
    held: np.ndarray | None = None
    top: np.ndarray | None = None
    not_a_die: np.ndarray | None = None
    relative: np.ndarray | None = None
    kept: np.ndarray | None = None
    lone: np.ndarray | None = None
    whole: np.ndarray | None = None
    die_boxes: np.ndarray | None = None
    asked: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.scores)
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None and len(value) != n:
                raise ValueError(f"candidates: {f.name} has {len(value)} rows, scores {n}")

    @classmethod
    def found(cls, boxes: np.ndarray, scores: np.ndarray, *, lone: bool = False,
              die_boxes: np.ndarray | None = None) -> Candidates:
        """Boxes from the detector, not read yet (`lone`: all found only by enlarging an
        empty-looking photo; `die_boxes`: the whole die each lies on, where known)."""
        scores = np.asarray(scores, np.float32).reshape(-1)
        return cls(np.asarray(boxes, np.float32).reshape(-1, 4), scores, lone=np.full(len(scores), lone),
                   die_boxes=None if die_boxes is None else np.asarray(die_boxes, np.float32).reshape(-1, 4))

    @classmethod
    def empty(cls) -> Candidates:
        """No boxes, every array present and empty."""
        return cls(np.zeros((0, 4), np.float32), _rows(0), np.zeros(0, np.int64), _rows(0), _rows(0), _rows(0),
                   _rows(0), np.zeros(0, bool), np.zeros(0, bool), _rows(0))

    def __len__(self) -> int:
        return len(self.scores)

    @property
    def read(self) -> bool:
        """Whether the face reader has been over them."""
        return self.values is not None

    def take(self, index: np.ndarray) -> Candidates:
        """The rows selected by an index array or boolean mask."""
        idx = np.atleast_1d(np.arange(len(self))[index])
        return replace(self, **{f.name: getattr(self, f.name)[idx]
                                for f in fields(self) if getattr(self, f.name) is not None})

    def concat(self, other: Candidates) -> Candidates:
        """These rows, then `other`'s (both read, or neither)."""
        return replace(self, **{f.name: np.concatenate([getattr(self, f.name), getattr(other, f.name)])
                                for f in fields(self) if getattr(self, f.name) is not None})

    def confidence(self, fit: ConfidenceFit | None = None, *, whole_lifts_peak: float | None = None) -> np.ndarray:
        """The reader's certainty, tempered by a weak peak (unless the whole-die check gives
        the box `whole_lifts_peak` or more), and at most the `fit`'s chance of being right."""
        if not self.read:
            raise ValueError("candidates not read yet have no confidence")
        held = filled(self.held, "held")
        peak = np.minimum(1.0, self.scores / FULL_PEAK)
        if whole_lifts_peak is not None and self.whole is not None:
            # A small die on a busy print is a weak peak; the check has seen its cube. The
            # fit below still weighs the peak (S231b, which lifted it there too: 1 wrong die
            # made sure for every 6-28 right ones).
            peak = np.where(np.nan_to_num(self.whole, nan=0.0) >= whole_lifts_peak, 1.0, peak)
        conf = (held * peak).astype(np.float32)
        if fit is not None and len(conf):
            chance = fit.probability(held, self.scores, filled(self.relative, "relative"), self.not_a_die)
            conf = np.minimum(conf, chance)
        if self.asked is not None:
            conf = ask_about(conf, self.asked).astype(np.float32)
        return conf

    def likelihood(self, fit: ConfidenceFit | None = None, *, whole_lifts_peak: float | None = None) -> np.ndarray:
        """How likely each box is a die of the throw, read right: what a known count ranks by."""
        likely = self.confidence(fit, whole_lifts_peak=whole_lifts_peak) * (1.0 - filled(self.not_a_die, "not_a_die"))
        if self.whole is not None:
            likely = likely * np.where(np.isnan(self.whole), 1.0, self.whole)
        return likely

    def dice(self, fit: ConfidenceFit | None = None, *, whole_lifts_peak: float | None = None) -> Dice:
        """The kept rows as the result type, in reading order (all rows where none were judged)."""
        rows = self if self.kept is None else self.take(self.kept)
        return Dice(rows.boxes, filled(rows.values, "values"),
                    rows.confidence(fit, whole_lifts_peak=whole_lifts_peak)).sorted()
