"""One result type for the dice found in a photo."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

#: Dice read with a confidence under this are shown to players as unsure, for them to
#: check. Chosen for the shipped reader on the train photos (the old diary,
#: `git show d2b37d4:models/HISTORY.md`): at 0.7 it marks more of its mistakes, with fewer
#: false alarms, than the first reader did at 0.6.
UNSURE_BELOW = 0.7


@dataclass(frozen=True)
class Die:
    """One die: its top-face value (1-6), box [x0, y0, x1, y1] in pixels, confidence 0-1."""

    value: int
    box: tuple[float, float, float, float]
    confidence: float

    def to_dict(self) -> dict:
        return {
            "value": self.value,
            "box": [round(float(v), 1) for v in self.box],
            "confidence": round(float(self.confidence), 3),
        }


def _as_array(data, dtype, shape_tail: tuple[int, ...]) -> np.ndarray:
    arr = np.asarray(data, dtype=dtype)
    if arr.size == 0:
        arr = arr.reshape((0, *shape_tail))
    return arr


@dataclass(frozen=True)
class Dice:
    """All dice found in one photo, as parallel arrays (N rows each).

    `boxes` (N, 4) float32 in the photo's pixels, `values` (N,) int64 in 1..6,
    `confidences` (N,) float32 in 0..1. Dice are ordered left to right, then top
    to bottom, so that the same throw reads in the same order every time.
    """

    boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    values: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int64))
    confidences: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))

    def __post_init__(self) -> None:
        boxes = _as_array(self.boxes, np.float32, (4,))
        values = _as_array(self.values, np.int64, ())
        confidences = _as_array(self.confidences, np.float32, ())
        if boxes.ndim != 2 or boxes.shape[1] != 4:
            raise ValueError(f"boxes must have shape (N, 4), got {boxes.shape}")
        n = len(boxes)
        if values.shape != (n,) or confidences.shape != (n,):
            raise ValueError("boxes, values and confidences must have the same length")
        if n and (values.min() < 1 or values.max() > 6):
            raise ValueError("die values must be 1-6")
        object.__setattr__(self, "boxes", boxes)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "confidences", confidences)

    @classmethod
    def empty(cls) -> Dice:
        return cls()

    @classmethod
    def from_dicts(cls, dice: list[dict]) -> Dice:
        """Build from `[{"value", "box", "confidence"?}, ...]` (confidence defaults to 1)."""
        return cls(
            boxes=np.asarray([d["box"] for d in dice], np.float32),
            values=np.asarray([d["value"] for d in dice], np.int64),
            confidences=np.asarray([d.get("confidence", 1.0) for d in dice], np.float32),
        )

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator[Die]:
        for box, value, conf in zip(self.boxes, self.values, self.confidences):
            x0, y0, x1, y1 = (float(v) for v in box)
            yield Die(int(value), (x0, y0, x1, y1), float(conf))

    def __getitem__(self, index) -> Dice:
        """Select rows with an index array or boolean mask; returns a `Dice`."""
        idx = np.atleast_1d(np.arange(len(self))[index])
        return Dice(self.boxes[idx], self.values[idx], self.confidences[idx])

    def sorted(self) -> Dice:
        """Reading order: rows of dice top to bottom, left to right within a row."""
        if len(self) < 2:
            return self
        cx = (self.boxes[:, 0] + self.boxes[:, 2]) / 2
        cy = (self.boxes[:, 1] + self.boxes[:, 3]) / 2
        size = float(np.median(self.boxes[:, 3] - self.boxes[:, 1])) or 1.0
        row = np.round(cy / size).astype(np.int64)
        return self[np.lexsort((cx, row))]

    def scaled(self, factor: float) -> Dice:
        """The same dice with boxes multiplied by `factor` (e.g. back to the original photo)."""
        return Dice(self.boxes * np.float32(factor), self.values, self.confidences)

    def to_list(self) -> list[dict]:
        return [die.to_dict() for die in self]


@dataclass(frozen=True)
class CountedDice:
    """A photo read with a known count (`DiceReader.read_counted`): `dice` are the count's
    likeliest; `left_out` the dice the reader's own rules kept beyond it, which the count
    passed over (other dice in the shot, or something that looks like one). Players see
    those too: a throw whose photo holds more dice than it may have taken the wrong ones."""

    dice: Dice
    left_out: Dice = field(default_factory=lambda: Dice.empty())
