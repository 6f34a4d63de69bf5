"""Exact optimal solitaire play of one score column, by dynamic programming.

Between turns the state is (filled boxes, extra-bonus flag, upper subtotal capped at
the bonus threshold). The upper bonus is paid the moment the subtotal reaches the
threshold, so once all six upper boxes are filled the subtotal no longer matters,
and the flag only matters once `five_kind` is filled. The table holds, for every
state, the expected points still to come from the start of a turn; it is filled a
whole layer (same number of filled boxes) at a time, vectorized over states.

Inside a turn (`turn_values`) the values run over the 462 keeps as rows: the end-of-
turn value of each throw, then alternately the expectation over the dice thrown
again and the best keep of each throw, as in `dice_space`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from scoring.advisor.dice_space import (
    EMPTY_ROW, N_KEEPS, N_THROWS, THROW_COUNTS, THROW_ROWS, best_subkeep, expect_down,
)
from scoring.advisor.tables import (
    EXTRA_BONUS_POINTS, FIVE_KIND, FIVE_KIND_THROWS, N_BOXES, SCORES, UPPER_BONUS,
    UPPER_MASK, ColumnRules, ExtraBonus, Joker, joker_scores,
)

N_MASKS = 1 << N_BOXES
ALL_FILLED = N_MASKS - 1
LOWER_BOXES = tuple(range(6, N_BOXES))
_CHUNK = 4096
# Throws that score in each lower box (the others score 0 there).
_SCORING_ROWS = {b: np.flatnonzero(SCORES[b] > 0) for b in LOWER_BOXES}
# For each face 1-6 and count 1-5, the throws with that many of that face.
_UPPER_ROWS = [[np.flatnonzero(THROW_COUNTS[:, i] == k) for k in range(6)] for i in range(6)]


@dataclass(frozen=True)
class ColumnTable:
    """Expected remaining score at the start of a turn for every state of a column.

    `values[mask, flag, upper]`: `mask` has bit b set when box b (tables.BOX_IDS) is
    filled, `flag` is 1 when another five of a kind still earns the extra bonus,
    `upper` the upper subtotal capped at the threshold. NaN marks states no game
    reaches.
    """

    rules: ColumnRules
    values: np.ndarray

    @property
    def expected_score(self) -> float:
        """Expected final score of a new game played optimally."""
        return float(self.values[0, 0, 0])

    def value(self, mask: int, flag: int, upper: int) -> float:
        return float(self.values[mask, flag, min(upper, self.rules.threshold)])


def reachable_uppers(threshold: int) -> np.ndarray:
    """(64, threshold+1) bool: capped upper subtotals reachable with each upper set."""
    reach = np.zeros((64, threshold + 1), dtype=bool)
    reach[0, 0] = True
    for mask in range(1, 64):
        face = mask.bit_length()  # the highest face in the set
        prev = np.flatnonzero(reach[mask & ~(1 << (face - 1))])
        for n in range(6):
            reach[mask, np.minimum(prev + face * n, threshold)] = True
    return reach


def _states(layer_masks: np.ndarray, rules: ColumnRules, reach: np.ndarray):
    """The distinct states (mask, flag, upper) of one layer worth computing."""
    upper_full = (layer_masks & UPPER_MASK) == UPPER_MASK
    ups = reach[layer_masks & UPPER_MASK].copy()
    ups[upper_full] = False
    ups[upper_full, 0] = True  # one representative: the subtotal no longer matters
    flag_ok = np.zeros((len(layer_masks), 2), dtype=bool)
    flag_ok[:, 0] = True
    if rules.has_flag:
        flag_ok[:, 1] = (layer_masks >> FIVE_KIND) & 1 == 1
    grid = flag_ok[:, :, None] & ups[:, None, :]
    i, f, u = np.nonzero(grid)
    return layer_masks[i], f, u


class _Successor:
    """Value after filling a box, looked up in the (partly filled) table."""

    def __init__(self, values: np.ndarray, rules: ColumnRules, m, f, u) -> None:
        self.flat = values.reshape(-1)
        self.t = rules.threshold
        self.m, self.f, self.u = m, f, u

    def __call__(self, box: int, points, flag=None) -> np.ndarray:
        """points + bonus + value of the next state; -inf where the box is filled."""
        t, m, u = self.t, self.m, self.u
        flag = self.f if flag is None else flag
        nm = m | (1 << box)
        if box < 6:
            nu = np.minimum(u + points, t)
            bonus = np.where((u < t) & (u + points >= t), UPPER_BONUS, 0)
        else:
            nu, bonus = u, 0
        val = self.flat[(nm * 2 + flag) * (t + 1) + nu] + (points + bonus)
        return np.where((m >> box) & 1 == 0, val, -np.inf)


def end_of_turn_values(values: np.ndarray, rules: ColumnRules, m, f, u) -> np.ndarray:
    """(252, n): the best box choice's value for every throw in each of n states."""
    after = _Successor(values, rules, m, f, u)
    # Every open box can take any throw for 0 points, and a box's real points never
    # leave a worse state (the table grows with the subtotal and the flag), so each
    # throw's value is the best "0 points" choice, raised where a box scores.
    cand, upper = {}, {}
    zero = np.full(len(m), -np.inf)
    for face in range(1, 7):
        upper[face] = [after(face - 1, face * k) for k in range(6)]
        np.maximum(zero, upper[face][0], out=zero)
    for b in LOWER_BOXES:
        cand[b] = after(b, 0, flag=np.zeros_like(f) if b == FIVE_KIND else None)
        np.maximum(zero, cand[b], out=zero)
    out = np.broadcast_to(zero, (N_THROWS, len(m))).copy()
    for face in range(1, 7):
        for k in range(1, 6):
            rows = _UPPER_ROWS[face - 1][k]
            out[rows] = np.maximum(out[rows], upper[face][k])
    for b in LOWER_BOXES:
        rows = _SCORING_ROWS[b]
        if b == FIVE_KIND:
            flag = np.ones_like(f) if rules.has_flag else np.zeros_like(f)
            gain = after(b, 50, flag=flag)[None, :]
        else:
            gain = SCORES[b, rows][:, None] + cand[b][None, :]
        out[rows] = np.maximum(out[rows], gain)
    if rules.has_flag or rules.joker is not Joker.NONE:
        _five_kind_again(out, after, rules, m, f)
    return out


def _five_kind_again(out, after: _Successor, rules: ColumnRules, m, f) -> None:
    """Overwrite the five-of-a-kind rows where `five_kind` is filled: bonus and joker."""
    filled = (m >> FIVE_KIND) & 1 == 1
    bonus = EXTRA_BONUS_POINTS * f
    for face in range(1, 7):
        row = FIVE_KIND_THROWS[face - 1]
        if rules.joker is Joker.NONE:  # WÜRFELWARE: +100, the throw scores as usual
            out[row] = np.where(filled, out[row] + bonus, out[row])
            continue
        pts = joker_scores(face)
        if rules.joker is Joker.FREE:  # Spiffel: once, then the flag is spent
            spent = np.zeros_like(f)
            best = np.max([after(b, pts[b], flag=spent) for b in range(N_BOXES)], axis=0)
            out[row] = np.where(filled & (f == 1), best + bonus, out[row])
            continue
        # Yahtzee's forced joker: the matching upper box if open, else a lower box
        # at full value, else an upper box for 0.
        lower = np.max([after(b, pts[b]) for b in LOWER_BOXES], axis=0)
        upper = np.max([after(b, pts[b]) for b in range(6)], axis=0)
        match = after(face - 1, pts[face - 1])
        forced = np.where(np.isfinite(match), match, np.where(np.isfinite(lower), lower, upper))
        out[row] = np.where(filled, forced + bonus, out[row])


@dataclass(frozen=True)
class TurnValues:
    """Values (462, n) of every keep after throw 1 (`after_first`) and throw 2
    (`after_second`): keeping those dice and throwing the rest, then playing on
    optimally. Their throw rows are the values of stopping with that throw.
    `end[t]` (252, n) is the value of throw t when the box is chosen now."""

    end: np.ndarray
    after_second: np.ndarray
    after_first: np.ndarray
    start: np.ndarray


def turn_values(end: np.ndarray, *, full: bool = True) -> TurnValues:
    """The in-turn values for n states from their end-of-turn values (252, n)."""
    n = end.shape[1]
    keeps = np.empty((N_KEEPS, n))
    keeps[THROW_ROWS] = end
    e3 = expect_down(keeps)
    e2 = np.empty_like(e3)
    e2[THROW_ROWS] = best_subkeep(e3)
    expect_down(e2)
    e1 = e2.copy() if full else e3  # reuse the buffer when only the start value is wanted
    e1[THROW_ROWS] = best_subkeep(e2)
    expect_down(e1)
    start = e1[EMPTY_ROW].copy()
    if full:
        return TurnValues(end, e3, e2, start)
    return TurnValues(end, None, None, start)


def solve_column(rules: ColumnRules, *, chunk: int = _CHUNK) -> ColumnTable:
    """Fill the whole table for `rules`, layer by layer from the last turn back."""
    t = rules.threshold
    values = np.full((N_MASKS, 2, t + 1), np.nan)
    values[ALL_FILLED] = 0.0
    reach = reachable_uppers(t)
    masks = np.arange(N_MASKS)
    filled_count = np.array([bin(x).count("1") for x in masks])
    for k in range(N_BOXES - 1, -1, -1):
        layer = masks[filled_count == k]
        m, f, u = _states(layer, rules, reach)
        for s in range(0, len(m), chunk):
            sl = slice(s, s + chunk)
            end = end_of_turn_values(values, rules, m[sl], f[sl], u[sl])
            values[m[sl], f[sl], u[sl]] = turn_values(end, full=False).start
        upper_full = layer[(layer & UPPER_MASK) == UPPER_MASK]
        values[upper_full] = values[upper_full][:, :, :1]
        no_flag = layer if not rules.has_flag else layer[(layer >> FIVE_KIND) & 1 == 0]
        values[no_flag, 1] = values[no_flag, 0]
    values.setflags(write=False)
    return ColumnTable(rules, values)
