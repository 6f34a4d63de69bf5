"""Play many sheet games at once under a policy, vectorized over the games.

Used to measure policies (the Würfelspiel policy has no exact value) and to check
the exact tables: the optimal policy's mean score must match its expectation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicecam.scoring.advisor.dice_space import (
    DICE,
    FACES,
    KEEP_COUNTS,
    KEEP_SIZE,
    N_THROWS,
    SUBKEEPS,
    THROW_ROWS,
)
from dicecam.scoring.advisor.solver import (
    ALL_FILLED,
    N_BOXES,
    ColumnTable,
    box_outcomes,
    box_values,
    end_of_turn_values,
    turn_values,
)
from dicecam.scoring.advisor.tables import UPPER_BONUS

_POW = FACES ** np.arange(FACES)
_THROW_OF_CODE = np.full(FACES ** FACES, -1)
_THROW_OF_CODE[KEEP_COUNTS[THROW_ROWS] @ _POW] = np.arange(N_THROWS)


@dataclass
class SheetState:
    """n games' sheets: per column (C, n) filled masks, flags, capped upper subtotals,
    the actual upper subtotal, and each game's total so far (weighted, bonuses in)."""

    masks: np.ndarray
    flags: np.ndarray
    uppers: np.ndarray
    upper_sums: np.ndarray
    totals: np.ndarray

    @classmethod
    def new(cls, columns: int, games: int) -> SheetState:
        z = np.zeros((columns, games), dtype=np.int64)
        return cls(z, z.copy(), z.copy(), z.copy(), np.zeros(games, dtype=np.int64))


class ColumnSumPolicy:
    """Plays by the sum of the columns' exact single-column values, weighted.

    With one column this is the exact optimal policy. With several it is the
    one-step combination: each throw goes where it gains the most weighted value.
    Subclasses change `lookup` to value the columns differently.
    """

    def __init__(self, tables: tuple[ColumnTable, ...], weights: tuple[int, ...]) -> None:
        self.tables = tables
        self.weights = np.array(weights, dtype=np.float64)

    def lookup(self, s: SheetState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(C, n) each: the masks to look the columns up with, each column's value
        now (unweighted), and what filling a box of column c adds besides that
        column's own change (weighted)."""
        now = np.stack([t.values[s.masks[c], s.flags[c], s.uppers[c]]
                        for c, t in enumerate(self.tables)])
        return s.masks, now, np.zeros_like(now)

    def value(self, s: SheetState) -> np.ndarray:
        """(n,) the weighted value of the points still to come."""
        return (self.weights[:, None] * self.lookup(s)[1]).sum(axis=0)

    def end_values(self, s: SheetState) -> np.ndarray:
        """(252, n) float32: each throw's best box value, relative to `value(s)`."""
        masks, now, shift = self.lookup(s)
        best = np.full((N_THROWS, s.masks.shape[1]), -np.inf, dtype=np.float32)
        for c, t in enumerate(self.tables):
            live = np.flatnonzero(s.masks[c] != ALL_FILLED)
            base, rel = end_of_turn_values(t.values, t.rules, masks[c, live],
                                           s.flags[c, live], s.uppers[c, live])
            offset = self.weights[c] * (base - now[c, live]) + shift[c, live]
            gain = self.weights[c] * rel + offset.astype(np.float32)
            best[:, live] = np.maximum(best[:, live], gain)
        return best

    def box_scores(self, s: SheetState, throws: np.ndarray) -> np.ndarray:
        """(C, 13, n) value gained by each box choice; -inf where not allowed."""
        masks, now, shift = self.lookup(s)
        return np.stack([
            self.weights[c] * (box_values(t.values, t.rules, masks[c], s.flags[c],
                                          s.uppers[c], throws) - now[c]) + shift[c]
            for c, t in enumerate(self.tables)
        ])


def fill(policy: ColumnSumPolicy, s: SheetState, throws, col, box) -> SheetState:
    """The states after each game writes its throw into (col, box)."""
    masks, flags, uppers, sums = (a.copy() for a in (s.masks, s.flags, s.uppers, s.upper_sums))
    totals = s.totals.copy()
    for c, t in enumerate(policy.tables):
        here = np.flatnonzero(col == c)
        if not len(here):
            continue
        out = box_outcomes(t.rules, s.masks[c, here], s.flags[c, here], throws[here])
        b = box[here]
        pts = out.points[b, np.arange(len(here))]
        gained = pts.copy()
        upper = b < 6
        before = sums[c, here]
        after = before + np.where(upper, pts, 0)
        gained += np.where((before < t.rules.threshold) & (after >= t.rules.threshold), UPPER_BONUS, 0)
        totals[here] += policy.weights[c].astype(np.int64) * gained + out.extra
        sums[c, here] = after
        uppers[c, here] = np.minimum(after, t.rules.threshold)
        masks[c, here] |= 1 << b
        flags[c, here] = out.next_flag[b, np.arange(len(here))]
    return SheetState(masks, flags, uppers, sums, totals)


def _throw(rng: np.random.Generator, keeps: np.ndarray) -> np.ndarray:
    """Throw the dice not kept; returns the throw index of each game."""
    counts = KEEP_COUNTS[keeps].copy()
    missing = DICE - KEEP_SIZE[keeps]
    faces = rng.integers(0, FACES, size=(len(keeps), DICE))
    for d in range(DICE):
        roll = d < missing
        np.add.at(counts, (np.flatnonzero(roll), faces[roll, d]), 1)
    return _THROW_OF_CODE[counts @ _POW]


def _best_keep(values: np.ndarray, throws: np.ndarray) -> np.ndarray:
    """Row of the best keep of each game's throw under (462, n) keep values."""
    legal = SUBKEEPS[throws]
    return np.argmax(np.where(legal, values.T, -np.inf), axis=1)


def play_turn(policy: ColumnSumPolicy, s: SheetState, rng: np.random.Generator):
    """One turn for every game: three throws with the policy's keeps, then a box.

    Returns each game's final throw (index), column and box (0-based).
    """
    n = s.masks.shape[1]
    tv = turn_values(policy.end_values(s))
    throws = _throw(rng, np.zeros(n, dtype=np.int64))
    for keep_values in (tv.after_first, tv.after_second):
        throws = _throw(rng, _best_keep(keep_values, throws))
    choice = np.argmax(policy.box_scores(s, throws).reshape(-1, n), axis=0)
    return throws, choice // N_BOXES, choice % N_BOXES


def simulate(policy: ColumnSumPolicy, games: int, *, seed: int = 0,
             chunk: int = 5000) -> np.ndarray:
    """Final totals (games,) of `games` solitaire games played by `policy`."""
    rng = np.random.default_rng(seed)
    cols = len(policy.tables)
    out = []
    for start in range(0, games, chunk):
        s = SheetState.new(cols, min(chunk, games - start))
        for _ in range(N_BOXES * cols):
            s = fill(policy, s, *play_turn(policy, s, rng))
        out.append(s.totals)
    return np.concatenate(out)
