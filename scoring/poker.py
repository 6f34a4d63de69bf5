"""Würfelpoker (Zehntausend): points of the dice set aside from one throw.

A set-aside is scored within its own throw only: every die in it must belong to a
scoring single (1 or 5), a group of three or more of a face, or the straight 1-6.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

from dicecam.scoring.dice import counts
from dicecam.scoring.errors import RuleError

SINGLE_POINTS = {1: 100, 5: 50}
STRAIGHT_POINTS = 1000
SIX_ONES_POINTS = 10_000


def kind_points(face: int, n: int) -> int:
    """Points of `n` (3-6) dice of `face` thrown together."""
    if face == 1 and n == 6:
        return SIX_ONES_POINTS
    three = 1000 if face == 1 else face * 100
    return three * 2 ** (n - 3)


def _face_points(face: int, n: int) -> int | None:
    """Best points of `n` dice of one face, or None if some die would not score."""
    if n == 0:
        return 0
    single = SINGLE_POINTS.get(face)
    best = n * single if single else None
    # A group of k (3..n) plus the rest as singles, or two groups of three.
    for k in range(3, n + 1):
        rest = n - k
        if rest == 0:
            pts = kind_points(face, k)
        elif rest >= 3:
            pts = kind_points(face, k) + kind_points(face, rest)
        elif single:
            pts = kind_points(face, k) + rest * single
        else:
            continue
        best = pts if best is None else max(best, pts)
    return best


@cache
def _points_of_counts(c: tuple[int, ...]) -> int | None:
    if sum(c) == 0:
        return None
    if c[1:] == (1, 1, 1, 1, 1, 1):
        return STRAIGHT_POINTS
    total = 0
    for face in range(1, 7):
        pts = _face_points(face, c[face])
        if pts is None:
            return None
        total += pts
    return total


def non_scoring(dice: Sequence[int]) -> list[int]:
    """The faces in `dice` that cannot be part of any scoring set-aside of these dice."""
    c = counts(dice)
    if c[1:] == (1, 1, 1, 1, 1, 1):
        return []
    return [f for f in range(1, 7) if c[f] and f not in SINGLE_POINTS and c[f] < 3]


def keep_points(keep: Sequence[int]) -> int:
    """Points of the dice set aside from one throw; RuleError if some die does not score."""
    if not keep:
        raise RuleError("Set aside at least one scoring die", code="keep_empty")
    pts = _points_of_counts(counts(keep))
    if pts is None:
        bad = non_scoring(keep) or sorted(set(keep))
        faces = ", ".join(str(f) for f in bad)
        raise RuleError(
            f"Only scoring dice can be set aside: {faces} does not score",
            code="keep_not_scoring", faces=bad,
        )
    return pts


@dataclass(frozen=True)
class KeepOption:
    """One legal set-aside of a throw: the dice (ascending) and their points."""

    keep: tuple[int, ...]
    points: int

    def to_dict(self) -> dict:
        return {"keep": list(self.keep), "points": self.points}


def keep_options(throw: Sequence[int]) -> list[KeepOption]:
    """Every legal set-aside of `throw`, best first (more points, then fewer dice)."""
    c = counts(throw)
    options = []
    for sub in product(*(range(n + 1) for n in c[1:])):
        pts = _points_of_counts((0, *sub))
        if pts is not None:
            keep = tuple(f for f, n in zip(range(1, 7), sub) for _ in range(n))
            options.append(KeepOption(keep, pts))
    options.sort(key=lambda o: (-o.points, len(o.keep), o.keep))
    return options


def is_bust(throw: Sequence[int]) -> bool:
    """True when no die of the throw scores: the turn ends and its points are lost."""
    c = counts(throw)
    return not (c[1] or c[5] or max(c) >= 3 or c[1:] == (1, 1, 1, 1, 1, 1))


def best_points(throw: Sequence[int]) -> int:
    """The most points one set-aside of `throw` can score (0 on a bust)."""
    options = keep_options(throw)
    return options[0].points if options else 0


def check_keep(throw: Sequence[int], keep: Sequence[int]) -> int:
    """Points of setting `keep` aside from `throw`; RuleError if that is not allowed."""
    tc, kc = counts(throw), counts(keep)
    missing = [f for f in range(1, 7) if kc[f] > tc[f]]
    if missing:
        faces = ", ".join(str(f) for f in missing)
        raise RuleError(
            f"Only dice that were thrown can be set aside: the throw has too few of {faces}",
            code="keep_not_thrown", faces=missing,
        )
    return keep_points(keep)
