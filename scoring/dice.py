"""Checking the dice values a player entered."""

from __future__ import annotations

from collections.abc import Iterable
from numbers import Integral

from dicecam.scoring.errors import RuleError

FACES = (1, 2, 3, 4, 5, 6)
_FACE_SET = frozenset(FACES)


def check_dice(values: object, *, count: int | None = None, what: str = "throw") -> tuple[int, ...]:
    """Return `values` as a tuple of ints 1..6, or raise RuleError.

    `count` is the exact number of dice required (None: any number from 1 to 6).
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise RuleError(f"The {what} must be a list of dice", code="dice_not_list")
    dice = tuple(values)
    # bool is an int subclass (and True == 1): `true` in a game file is not a die; nor is
    # 1.0 (equal to 1, but no index), nor a list or an object (which cannot be looked up).
    if not all(_is_face(v) for v in dice):
        raise RuleError("Dice must be numbers 1 to 6", code="dice_values")
    if count is not None and len(dice) != count:
        raise RuleError(
            f"The {what} must have {count} dice, not {len(dice)}",
            code="dice_count", expected=count, got=len(dice),
        )
    if count is None and not 1 <= len(dice) <= 6:
        raise RuleError(f"The {what} must have 1 to 6 dice, not {len(dice)}",
                        code="dice_count", got=len(dice))
    return dice


def _is_face(value: object) -> bool:
    if type(value) is int:  # the common case, checked first: a long log checks every die
        return value in _FACE_SET
    return isinstance(value, Integral) and not isinstance(value, bool) and value in _FACE_SET


def counts(dice: Iterable[int]) -> tuple[int, ...]:
    """How many dice show each face: index 0 is unused, index f counts face f."""
    c = [0] * 7
    for v in dice:
        c[v] += 1
    return tuple(c)
