"""The shared datasets' scoring rule, as pure functions.

A predicted die matches a labelled die when the centre of either box lies inside
the other box; pairs are taken greedily, nearest centres first, one to one.
Counts add up over photos; the ratios are computed from the totals.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

import numpy as np

from dicecam.vision.boxes import centres, inside
from dicecam.vision.detections import Dice


def match_boxes(truth: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    """Pair labelled and predicted boxes by the scoring rule.

    Returns an int array (K, 2) of `(truth_index, predicted_index)` rows in the
    order they were taken (nearest centres first); each index appears at most once.
    Ties in distance go to the lower truth index, then the lower predicted index.
    """
    truth = np.asarray(truth, np.float64).reshape(-1, 4)
    predicted = np.asarray(predicted, np.float64).reshape(-1, 4)
    if len(truth) == 0 or len(predicted) == 0:
        return np.zeros((0, 2), np.int64)
    tc, pc = centres(truth), centres(predicted)
    allowed = inside(pc, truth).T | inside(tc, predicted)  # (T, P)
    distance = np.linalg.norm(tc[:, None, :] - pc[None, :, :], axis=2)
    ti, pi = np.nonzero(allowed)
    order = np.lexsort((pi, ti, distance[ti, pi]))
    used_t, used_p, pairs = set(), set(), []
    for t, p in zip(ti[order].tolist(), pi[order].tolist()):
        if t not in used_t and p not in used_p:
            used_t.add(t)
            used_p.add(p)
            pairs.append((t, p))
    return np.array(pairs, np.int64).reshape(-1, 2)


def paired(truth: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    """For each labelled box, the index of the predicted box it pairs with (`match_boxes`; -1: none)."""
    out = np.full(len(truth), -1)
    for t, p in match_boxes(truth, predicted):
        out[t] = p
    return out


@dataclass(frozen=True)
class Score:
    """Counts of the scoring rule over one or more photos; ratios are properties.

    A ratio over nothing (for example precision when nothing was predicted) is
    1.0: nothing was missed or wrongly reported. The counts are kept beside the
    ratios so that such a case is never mistaken for a good result.
    """

    photos: int = 0
    exact: int = 0  # photos read exactly: every die found with its value, nothing extra
    labelled: int = 0
    predicted: int = 0
    matched: int = 0
    right: int = 0  # matches whose value is right

    def __add__(self, other: Score) -> Score:
        if not isinstance(other, Score):
            return NotImplemented
        return Score(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(Score)))

    @property
    def recall(self) -> float:
        return _ratio(self.matched, self.labelled)

    @property
    def precision(self) -> float:
        return _ratio(self.matched, self.predicted)

    @property
    def value_accuracy(self) -> float:
        return _ratio(self.right, self.matched)

    @property
    def read_f1(self) -> float:
        """Harmonic mean of right/labelled and right/predicted."""
        a, b = _ratio(self.right, self.labelled), _ratio(self.right, self.predicted)
        return 0.0 if a + b == 0 else 2 * a * b / (a + b)

    @property
    def exact_roll_rate(self) -> float:
        return _ratio(self.exact, self.photos)

    @property
    def mistakes(self) -> int:
        """Predicted dice not read right: a wrong value, or no such die (what `unsure_counts` counts)."""
        return self.predicted - self.right

    def to_dict(self) -> dict:
        """Counts and ratios, JSON-ready."""
        counts = {f.name: getattr(self, f.name) for f in fields(Score)}
        ratios = {
            name: round(getattr(self, name), 4)
            for name in ("recall", "precision", "value_accuracy", "read_f1", "exact_roll_rate")
        }
        return counts | ratios


def _ratio(numerator: int, denominator: int) -> float:
    return 1.0 if denominator == 0 else numerator / denominator


def score_photo(truth: Dice, predicted: Dice) -> Score:
    """Score one photo's reading against its labels."""
    pairs = match_boxes(truth.boxes, predicted.boxes)
    right = int(np.sum(truth.values[pairs[:, 0]] == predicted.values[pairs[:, 1]]))
    exact = right == len(truth) == len(predicted)
    return Score(1, int(exact), len(truth), len(predicted), len(pairs), right)


def total(scores: Iterable[Score]) -> Score:
    """Add up the scores of many photos."""
    result = Score()
    for score in scores:
        result = result + score
    return result


def unsure_counts(truth: Dice, predicted: Dice, low_confidence: float) -> tuple[int, int]:
    """(mistakes, right dice) of one photo's reading that are marked unsure.

    A mistake is a predicted die not read right: a wrong value or no such die. Players
    check a die marked unsure (confidence under `low_confidence`), so a marked mistake
    costs a tap and an unmarked one is a silent misread; a marked right die is a false alarm.
    """
    pairs = match_boxes(truth.boxes, predicted.boxes)
    right = np.zeros(len(predicted), bool)
    right[pairs[:, 1]] = truth.values[pairs[:, 0]] == predicted.values[pairs[:, 1]]
    unsure = predicted.confidences < low_confidence
    return int(np.sum(unsure & ~right)), int(np.sum(unsure & right))


def silent_throw(truth: Dice, predicted: Dice, low_confidence: float, *, count: int | None = None) -> bool:
    """Whether a reading is wrong with nothing to tell the player so.

    Not read exactly, at least one die reported, every die sure (confidence `low_confidence`
    or more) and, told a `count`, that many dice: such a throw goes on the sheet unchecked.
    Any other wrong reading asks the player (a die marked unsure, a die short of the count,
    no die found). Per throw, what a silent mistake (`unsure_counts`) is per die.
    """
    if not len(predicted) or score_photo(truth, predicted).exact:
        return False
    if count is not None and len(predicted) != count:
        return False
    return bool(np.all(predicted.confidences >= low_confidence))
