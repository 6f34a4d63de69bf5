"""How sure a reading is: from what the reader and the detector saw of each die (pure numpy).

The face reader's probability says how plainly its crop shows a face. It cannot see that
the crop came from a weak detection, or from a box much smaller than the photo's other
dice: on rendered throws those are where a side face or part of a die is read surely as
a die of its own. A logistic fit (`ConfidenceFit`, made by `training/calibrate.py` on
rendered throws from training seeds) of whether a reading was right, from the reader's
probability, the detector's peak and the box's size against the photo's typical die,
caps each die's confidence, so such readings come back unsure instead of silent.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

#: The fit ships beside the networks it was made for.
CONFIDENCE_FILE = "confidence.json"
#: A detector peak of this or more counts as a full detection in the uncapped confidence.
FULL_PEAK = 0.5


class ConfidenceFileError(ValueError):
    """The confidence fit in the models folder cannot be used."""


def _logit(p: ArrayLike) -> np.ndarray:
    clipped = np.clip(np.asarray(p, np.float64), 1e-4, 1 - 1e-4)
    return np.log(clipped / (1 - clipped))


def sigmoid(z: ArrayLike) -> np.ndarray:
    """The logistic function, log-odds -> probability."""
    return 1 / (1 + np.exp(-np.asarray(z, np.float64)))


def features(held: ArrayLike, scores: ArrayLike, relative: ArrayLike,
             not_a_die: ArrayLike | None = None) -> np.ndarray:
    """The fit's inputs (N, 5): a constant, the reader's and the detector's log-odds, log relative
    size, and the log-odds that the box is a die at all (1 - the reader's "not a die"; 0 where not given).

    Sizes are clipped to 0.2-3 times the typical die, so one odd box cannot swing a reading.
    """
    reader = np.asarray(held, np.float64).reshape(-1)
    size = np.log(np.clip(np.asarray(relative, np.float64).reshape(-1), 0.2, 3.0))
    die = np.zeros_like(reader) if not_a_die is None else _logit(1 - np.asarray(not_a_die, np.float64).reshape(-1))
    return np.stack([np.ones_like(reader), _logit(reader), _logit(np.reshape(scores, -1)), size, die], axis=1)


@dataclass(frozen=True)
class ConfidenceFit:
    """Weights of the logistic fit: P(right) = sigmoid(bias + reader*logit(p) + detector*logit(peak)
    + size*log(rel) + die*logit(1 - not_a_die)); a fit made before `die` existed has it 0."""

    bias: float
    reader: float
    detector: float
    size: float
    die: float = 0.0

    @property
    def weights(self) -> np.ndarray:
        """The weights in the order of `features`' columns."""
        return np.array([self.bias, self.reader, self.detector, self.size, self.die], np.float64)

    def probability(self, held: ArrayLike, scores: ArrayLike, relative: ArrayLike,
                    not_a_die: ArrayLike | None = None) -> np.ndarray:
        """The chance that each reading is right, (N,) float32."""
        return sigmoid(features(held, scores, relative, not_a_die) @ self.weights).astype(np.float32)

    def to_json(self, **about: object) -> str:
        """The fit as the JSON file that ships in `models/` (with `about`: how it was made)."""
        return json.dumps({**asdict(self), "about": about}, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> ConfidenceFit:
        """A fit from its file's text; `ConfidenceFileError` if it is not one."""
        try:
            data = json.loads(text)
            values = {name: float(data[name]) for name in ("bias", "reader", "detector", "size")}
            values["die"] = float(data.get("die", 0.0))
        except (ValueError, TypeError, KeyError) as exc:
            raise ConfidenceFileError(f"not a confidence fit ({exc})") from exc
        if not all(map(math.isfinite, values.values())):
            raise ConfidenceFileError("a confidence fit with weights that are not finite numbers")
        return cls(**values)


def load_confidence_fit(folder: str | Path) -> ConfidenceFit | None:
    """The fit shipped in `folder`, or None where there is none (confidence left uncapped)."""
    path = Path(folder) / CONFIDENCE_FILE
    if not path.is_file():
        return None
    try:
        return ConfidenceFit.from_json(path.read_text(encoding="utf-8"))
    except ConfidenceFileError as exc:
        raise ConfidenceFileError(f"{path}: {exc}") from exc
