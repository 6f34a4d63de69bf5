"""What each of the 252 throws scores in each of the 13 boxes, as numpy tables,
and the single-column rules the solver needs (RULES.md, decided per variant).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicecam.scoring.advisor.dice_space import THROW_COUNTS, THROW_FACES
from dicecam.scoring.errors import UnknownVariant
from dicecam.scoring.rules import ExtraBonus, Joker
from dicecam.scoring.variants import SheetVariant, get_variant

__all__ = ["BOX_IDS", "SCORES", "ColumnRules", "ExtraBonus", "Joker", "column_rules", "joker_scores"]

#: Box ids in the solver's bit order (bit i of a mask is box i); RULES.md order.
BOX_IDS = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three_kind", "four_kind", "full_house", "small_straight", "large_straight",
    "five_kind", "chance",
)
N_BOXES = len(BOX_IDS)
UPPER_MASK = (1 << 6) - 1
FIVE_KIND = BOX_IDS.index("five_kind")
FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT = (
    BOX_IDS.index(b) for b in ("full_house", "small_straight", "large_straight"))
UPPER_BONUS = 35
EXTRA_BONUS_POINTS = 100


@dataclass(frozen=True)
class ColumnRules:
    """The rules of one score column that decide optimal play."""

    name: str
    threshold: int = 63
    extra_bonus: ExtraBonus = ExtraBonus.NONE
    joker: Joker = Joker.NONE

    @property
    def has_flag(self) -> bool:
        """Whether the state needs a bit for "an extra bonus is still available"."""
        return self.extra_bonus is not ExtraBonus.NONE


def column_rules(variant: str) -> ColumnRules:
    """The column rules of a sheet variant id, as the variant states them (`ValueError`
    for a variant without a score sheet)."""
    try:
        v = get_variant(variant)
    except UnknownVariant as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(v, SheetVariant):
        raise ValueError(f"No score-sheet rules for variant {variant!r}")
    # The solver knows one upper bonus (35) and one extra bonus (100); a variant with
    # other amounts would need the solver taught them first.
    if (v.upper_bonus, v.extra_bonus_points) != (UPPER_BONUS, EXTRA_BONUS_POINTS):
        raise ValueError(f"The solver has no tables for {variant!r}'s bonus amounts")
    return ColumnRules(v.id, v.bonus_threshold, v.extra_bonus_rule, v.joker_rule)


def _has_run(length: int) -> np.ndarray:
    present = THROW_COUNTS > 0
    return np.any([present[:, s:s + length].all(axis=1) for s in range(7 - length)], axis=0)


def _score_table() -> np.ndarray:
    counts, total = THROW_COUNTS, THROW_FACES.sum(axis=1)
    most = counts.max(axis=1)
    shape = np.sort(counts, axis=1)[:, -2:]
    table = np.zeros((N_BOXES, len(counts)), dtype=np.int64)
    table[:6] = (counts * np.arange(1, 7)).T
    table[6] = np.where(most >= 3, total, 0)
    table[7] = np.where(most >= 4, total, 0)
    table[FULL_HOUSE] = np.where((shape[:, 0] == 2) & (shape[:, 1] == 3), 25, 0)
    table[SMALL_STRAIGHT] = np.where(_has_run(4), 30, 0)
    table[LARGE_STRAIGHT] = np.where(_has_run(5), 40, 0)
    table[FIVE_KIND] = np.where(most == 5, 50, 0)
    table[12] = total
    table.setflags(write=False)
    return table


#: SCORES[b, t]: points of throw t in box b by the plain rules.
SCORES = _score_table()
#: Throw index of five of a kind of face 1..6 (index 0 is face 1).
FIVE_KIND_THROWS = np.flatnonzero(THROW_COUNTS.max(axis=1) == 5)
JOKER_FIXED = {FULL_HOUSE: 25, SMALL_STRAIGHT: 30, LARGE_STRAIGHT: 40}


def joker_scores(face: int) -> np.ndarray:
    """(13,) points of five `face`s in each box when they count as a joker."""
    out = SCORES[:, FIVE_KIND_THROWS[face - 1]].copy()
    for box, points in JOKER_FIXED.items():
        out[box] = points
    return out
