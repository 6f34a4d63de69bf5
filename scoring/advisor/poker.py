"""Würfelpoker: the turn policy that maximizes the expected points banked this turn.

A turn's state is (turn total, dice left to throw). After each throw the player sets
scoring dice aside (`scoring.keep_options`) and then banks or throws again; all six
set aside gives hot dice (six again). Totals are multiples of 50, so the table runs
over totals in steps of 50, from a cap where banking is surely best down to 0, every
dice count and throw at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np

from dicecam.scoring import keep_options

STEP = 50
SIX = 6
# Above this total even six fresh dice are not worth the risk (checked in the tests).
CAP_POINTS = 50_000


def _throws(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Every distinct throw of n dice with its probability."""
    out = []
    for faces in combinations_with_replacement(range(1, 7), n):
        ways = factorial(n) / prod(factorial(faces.count(f)) for f in set(faces))
        out.append((faces, ways / 6**n))
    return out


@dataclass(frozen=True)
class PokerTable:
    """`bank_or_throw[n, i]`: expected points banked this turn with a turn total of
    `i * 50` and `n` dice to throw, playing on optimally (banking when that is best);
    `throw_on[n, i]` the same when the player throws again."""

    bank_or_throw: np.ndarray
    throw_on: np.ndarray

    @property
    def expected_turn_score(self) -> float:
        """Expected points of a whole turn (six dice, nothing set aside yet)."""
        return float(self.throw_on[SIX, 0])

    def after_keep(self, turn_total: int, dice_left: int) -> tuple[float, float]:
        """(bank now, throw again) values once the set-aside leaves this turn state."""
        i = turn_total // STEP
        if i >= self.throw_on.shape[1]:
            return float(turn_total), float("-inf")
        return float(turn_total), float(self.throw_on[dice_left, i])


@lru_cache(maxsize=1)
def poker_table() -> PokerTable:
    """The turn solved under RULES.md (a fraction of a second); kept in memory."""
    return solve_turn()


def solve_turn(options=keep_options, *, cap_points: int = CAP_POINTS) -> PokerTable:
    """Solve the turn; `options(faces)` lists the legal set-asides of a throw
    (`.keep`, `.points`), so other point rules can be solved too."""
    cap = cap_points // STEP
    # One row per (throw, set-aside) pair of every dice count; busts have none.
    throw_n: list[int] = []
    throw_p: list[float] = []
    pair_throw: list[int] = []
    pair_step: list[int] = []
    pair_next: list[int] = []
    for n in range(1, SIX + 1):
        for faces, p in _throws(n):
            choices = options(faces)
            if not choices:
                continue
            tid = len(throw_n)
            throw_n.append(n)
            throw_p.append(p)
            for opt in choices:
                left = n - len(opt.keep)
                pair_throw.append(tid)
                pair_step.append(opt.points // STEP)
                pair_next.append(left or SIX)  # hot dice
    p_throw, p_step, p_next = np.array(pair_throw), np.array(pair_step), np.array(pair_next)
    t_n, t_p = np.array(throw_n), np.array(throw_p)
    starts = np.flatnonzero(np.r_[True, p_throw[1:] != p_throw[:-1]])
    width = cap + int(p_step.max()) + 1
    totals = np.arange(width) * float(STEP)
    best = np.tile(totals, (SIX + 1, 1))  # at and past the cap: bank
    throw_on = np.full((SIX + 1, cap), np.nan)
    for i in range(cap - 1, -1, -1):
        reach = best[p_next, i + p_step]
        per_throw = np.maximum.reduceat(reach, starts) * t_p
        cont = np.bincount(t_n, weights=per_throw, minlength=SIX + 1)
        throw_on[1:, i] = cont[1:]
        best[1:, i] = np.maximum(totals[i], cont[1:])
    return PokerTable(best[:, :cap], throw_on)
