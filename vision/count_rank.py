"""How a known count chooses its dice: a logistic fit over what the reader saw of each box.

Told that a photo shows N dice, the reader takes the N likeliest boxes. Its own likelihood
(`Candidates.likelihood`) multiplies the reader's certainty by the check's word, and a box
the whole-die check never looked at ranks as if the check had called it a die. A fit made
on real told-count reads (`training/count_rank.py`, roboflow train) of whether each box is a
labelled die read right weighs those signals, and whether the check looked at all, from the
photos themselves; shipped beside the networks as `count_rank.json`, it ranks the count's
choice (pure numpy).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dicecam.vision.candidates import Candidates, filled
from dicecam.vision.confidence import FULL_PEAK, sigmoid

#: The fit ships beside the networks it was made for.
COUNT_RANK_FILE = "count_rank.json"
#: The most dice a throw at the table shows (Kniffel five, Wuerfelpoker six): the fit is made
#: on such throws and ranks only theirs. In a heap, a box it adds beside a sure die takes
#: that die's place (R294, models/HISTORY.md).
MAX_THROW = 6
#: The fit's inputs, in the order of `rank_features`' columns.
FEATURES = ("bias", "held", "peak", "size", "die", "whole", "unlooked", "kept", "likelihood", "top")


class CountRankFileError(ValueError):
    """The count's ranking fit in the models folder cannot be used."""


def _logit(p: np.ndarray) -> np.ndarray:
    clipped = np.clip(np.asarray(p, np.float64), 1e-4, 1 - 1e-4)
    return np.log(clipped / (1 - clipped))


def rank_features(found: Candidates, likelihood: np.ndarray) -> np.ndarray:
    """The fit's inputs (N, 10) for judged `found` and its `likelihood`: a constant; the
    log-odds of the reader's held value, the detector's peak (over `FULL_PEAK`), the box
    being a die at all, the check's word (0.5 where it did not look), the likelihood and the
    top face; the log relative size (clipped to 0.2-3); whether the check did not look; kept."""
    n = len(found)
    whole = np.full(n, np.nan) if found.whole is None else np.asarray(found.whole, np.float64)
    unlooked = np.isnan(whole)
    return np.stack([
        np.ones(n),
        _logit(filled(found.held, "held")),
        _logit(np.minimum(1.0, found.scores / FULL_PEAK)),
        np.log(np.clip(filled(found.relative, "relative"), 0.2, 3.0)),
        _logit(1.0 - filled(found.not_a_die, "not_a_die")),
        _logit(np.where(unlooked, 0.5, whole)),
        unlooked.astype(np.float64),
        filled(found.kept, "kept").astype(np.float64),
        _logit(likelihood),
        _logit(filled(found.top, "top")),
    ], axis=1)


@dataclass(frozen=True)
class CountRankFit:
    """Weights of the logistic fit over `rank_features` (named as in `FEATURES`)."""

    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise CountRankFileError(f"a count ranking fit has {len(FEATURES)} weights, not {len(self.weights)}")
        if not all(map(math.isfinite, self.weights)):
            raise CountRankFileError("a count ranking fit with weights that are not finite numbers")

    def probability(self, found: Candidates, likelihood: np.ndarray) -> np.ndarray:
        """The chance (N,) that each box of judged `found` is a die of the throw, read right."""
        if not len(found):
            return np.zeros(0, np.float32)
        return sigmoid(rank_features(found, likelihood) @ np.asarray(self.weights)).astype(np.float32)

    def to_json(self, **about: object) -> str:
        """The fit as the JSON file that ships in `models/` (with `about`: how it was made)."""
        return json.dumps({"weights": dict(zip(FEATURES, self.weights)), "about": about}, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> CountRankFit:
        """A fit from its file's text; `CountRankFileError` if it is not one."""
        try:
            named = json.loads(text)["weights"]
            weights = tuple(float(named[name]) for name in FEATURES)
        except (ValueError, TypeError, KeyError) as exc:
            raise CountRankFileError(f"not a count ranking fit ({exc!r})") from exc
        return cls(weights)


def load_count_rank_fit(folder: str | Path) -> CountRankFit | None:
    """The fit shipped in `folder`, or None where there is none (the count ranks by likelihood)."""
    path = Path(folder) / COUNT_RANK_FILE
    if not path.is_file():
        return None
    try:
        return CountRankFit.from_json(path.read_text(encoding="utf-8"))
    except CountRankFileError as exc:
        raise CountRankFileError(f"{path}: {exc}") from exc
