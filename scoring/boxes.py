"""The 13 boxes of the Kniffel family and what a throw scores in each by the plain rules."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from dicecam.scoring.dice import counts
from dicecam.scoring.rules import Section


class Box(StrEnum):
    """Box ids as in RULES.md; a `Box` compares equal to its id string."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_KIND = "three_kind"
    FOUR_KIND = "four_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    FIVE_KIND = "five_kind"
    CHANCE = "chance"

    @property
    def is_upper(self) -> bool:
        return self in UPPER

    @property
    def section(self) -> Section:
        return Section.UPPER if self in UPPER else Section.LOWER

    @property
    def face(self) -> int | None:
        """The face an upper box counts (1-6); None for lower boxes."""
        return UPPER.index(self) + 1 if self in UPPER else None


BOXES: tuple[Box, ...] = tuple(Box)
UPPER: tuple[Box, ...] = BOXES[:6]
LOWER: tuple[Box, ...] = BOXES[6:]

# Points a lower box is worth when a joker puts five of a kind there.
FIXED_POINTS = {Box.FULL_HOUSE: 25, Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.FIVE_KIND: 50}


def upper_box(face: int) -> Box:
    """The upper box that counts `face` (1 -> ones)."""
    return UPPER[face - 1]


def is_five_kind(dice: Sequence[int]) -> bool:
    return len(dice) == 5 and len(set(dice)) == 1


def _has_run(present: set[int], length: int) -> bool:
    return any(set(range(start, start + length)) <= present for start in range(1, 8 - length))


def score_box(box: Box | str, dice: Sequence[int]) -> int:
    """Points of five dice in `box` by the plain rules (no joker, no bonus)."""
    box = Box(box)
    c = counts(dice)
    face = box.face
    if face is not None:
        return face * c[face]
    most = max(c)
    total = sum(dice)
    if box is Box.THREE_KIND:
        return total if most >= 3 else 0
    if box is Box.FOUR_KIND:
        return total if most >= 4 else 0
    if box is Box.FULL_HOUSE:
        # Exactly three and two of different faces; five of a kind is not a full house.
        return 25 if sorted(n for n in c if n) == [2, 3] else 0
    if box is Box.SMALL_STRAIGHT:
        return 30 if _has_run(set(dice), 4) else 0
    if box is Box.LARGE_STRAIGHT:
        return 40 if _has_run(set(dice), 5) else 0
    if box is Box.FIVE_KIND:
        return 50 if most == 5 else 0
    return total  # chance


def joker_score(box: Box | str, dice: Sequence[int]) -> int:
    """Points of a five-of-a-kind joker in `box`: lower boxes at full value."""
    box = Box(box)
    if box in FIXED_POINTS:
        return FIXED_POINTS[box]
    return score_box(box, dice)


def score_all(dice: Sequence[int]) -> dict[Box, int]:
    """Plain points of `dice` in every box, in sheet order."""
    return {box: score_box(box, dice) for box in BOXES}
