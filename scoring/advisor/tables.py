"""What each of the 252 throws scores in each of the 13 boxes, as numpy tables,
and the single-column rules the solver needs (RULES.md, decided per variant).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from dicecam.scoring.advisor.dice_space import THROW_COUNTS, THROW_FACES

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


class ExtraBonus(Enum):
    """What another five of a kind earns once `five_kind` holds 50."""

    NONE = "none"
    ONCE = "once"  # Spiffel: +100 the first time only
    EACH = "each"  # WÜRFELWARE, Yahtzee: +100 every time


class Joker(Enum):
    """Where such a five of a kind may go."""

    NONE = "none"      # by the normal rules
    FREE = "free"      # Spiffel: full value in any lower box, or anywhere
    FORCED = "forced"  # Yahtzee: matching upper box if open, else lower, else upper for 0


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


COLUMN_RULES = {
    "spiffel": ColumnRules("spiffel", 63, ExtraBonus.ONCE, Joker.FREE),
    "wuerfelware": ColumnRules("wuerfelware", 65, ExtraBonus.EACH, Joker.NONE),
    "yahtzee": ColumnRules("yahtzee", 63, ExtraBonus.EACH, Joker.FORCED),
    # One column of Würfelspiel: no extra bonus, no joker.
    "wuerfelspiel": ColumnRules("wuerfelspiel", 63),
}


def column_rules(variant: str) -> ColumnRules:
    """The column rules of a sheet variant id (`ValueError` for others)."""
    try:
        return COLUMN_RULES[variant]
    except KeyError:
        raise ValueError(f"No score-sheet rules for variant {variant!r}") from None


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
