"""Würfelspiel's three columns (x1, x2, x3): the exact solution is out of reach, so the
policy values a sheet by its columns' single-column tables, made aware of the other
columns.

A column with k open boxes on a sheet with K open boxes gets its k boxes from K
turns: it may let K - k turns pass to the other columns and wait for better throws.
`solver.solve_passes` gives its exact value with p passes allowed; that is too
optimistic (the columns share the passes), the plain table too pessimistic (no
passes at all). Each column is valued by a blend of the two, and every keep and box
is chosen for the best expected weighted sum, the in-turn keeps looking ahead over
the best box of every column. Filling a box of one column takes a pass from each of
the others; that is priced in too. The box itself is chosen with one turn more of
look-ahead: the few best boxes are compared by what the next turn then expects to
gain. Measured: `dicecam solve wuerfelspiel`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from dicecam.scoring.advisor.cache import column_table, load_or_build_passes
from dicecam.scoring.advisor.simulate import ColumnSumPolicy, SheetState, fill, simulate
from dicecam.scoring.advisor.solver import N_MASKS, ColumnTable, turn_start
from dicecam.scoring.advisor.tables import N_BOXES, column_rules

WEIGHTS = (1, 2, 3)
MAX_PASSES = N_BOXES * (len(WEIGHTS) - 1)
# Weight of the pass table in the blend; tuned by simulation (0.3-0.6 all reach
# 1700, 0 is the plain one-step combination at about 1680).
PASS_BLEND = 0.45
# Boxes per throw compared with a turn of look-ahead (about +3 points over none).
LOOKAHEAD = 4
_MASK_BITS = N_MASKS.bit_length() - 1


class PassBlendPolicy(ColumnSumPolicy):
    """Columns valued by (1 - blend) x plain table + blend x table with their passes.

    The blended tables of every pass count are stacked along the mask axis, so a
    column is looked up with `mask + (passes << 13)` and the solver's functions
    work on it unchanged.
    """

    def __init__(self, blended: ColumnTable, weights=WEIGHTS) -> None:
        super().__init__((blended,) * len(weights), weights)

    def lookup(self, s: SheetState):
        values = self.tables[0].values
        open_ = ((s.masks[:, None, :] >> np.arange(N_BOXES)[None, :, None]) & 1 == 0).sum(axis=1)
        passes = open_.sum(axis=0) - open_
        masks = s.masks + (passes << _MASK_BITS)
        now = values[masks, 0, s.uppers].astype(np.float64)
        fewer = s.masks + (np.maximum(passes - 1, 0) << _MASK_BITS)
        lose = self.weights[:, None] * (values[fewer, 0, s.uppers] - now)
        return masks, now, lose.sum(axis=0) - lose  # filling column c: the others lose a pass


class LookaheadPolicy(PassBlendPolicy):
    """`PassBlendPolicy` whose box choice looks one turn further for its best boxes."""

    def __init__(self, blended: ColumnTable, weights=WEIGHTS, *, candidates: int = LOOKAHEAD):
        super().__init__(blended, weights)
        self.candidates = candidates

    def box_scores(self, s: SheetState, throws: np.ndarray) -> np.ndarray:
        scores = super().box_scores(s, throws)
        cols, boxes, n = scores.shape
        flat = scores.reshape(-1, n)
        k = min(self.candidates, len(flat))
        top = np.argsort(-flat, axis=0)[:k]  # (k, n)
        games = np.arange(n)
        gain = flat[top, games]
        # All candidates of all games in one batch: candidate-major copies of the state.
        copies = SheetState(np.tile(s.masks, (1, k)), np.tile(s.flags, (1, k)),
                            np.tile(s.uppers, (1, k)), np.tile(s.upper_sums, (1, k)),
                            np.tile(s.totals, k))
        choice = top.reshape(-1)
        after = fill(self, copies, np.tile(throws, k), choice // boxes, choice % boxes)
        ahead = turn_start(self.end_values(after)).reshape(k, n)
        ok = np.isfinite(gain) & np.isfinite(ahead)  # none ahead after the last turn
        out = flat.copy()
        out[top[ok], np.broadcast_to(games, (k, n))[ok]] = gain[ok] + ahead[ok]
        return out.reshape(cols, boxes, n)


@lru_cache(maxsize=1)
def _blended_table(blend: float) -> ColumnTable:
    rules = column_rules("wuerfelspiel")
    plain = column_table("wuerfelspiel").values[:, :1].astype(np.float32)
    passes = load_or_build_passes(rules, MAX_PASSES)[:, :, None, :]
    blended = (1 - blend) * plain[None] + blend * passes
    blended = blended.reshape(-1, 1, rules.threshold + 1)
    blended.setflags(write=False)
    return ColumnTable(rules, blended)


def wuerfelspiel_policy(blend: float = PASS_BLEND, lookahead: int = LOOKAHEAD) -> ColumnSumPolicy:
    """The three-column policy; `blend=0, lookahead=0` is the plain one-step sum of
    column values."""
    if blend == 0 and lookahead == 0:
        table = column_table("wuerfelspiel")
        return ColumnSumPolicy((table,) * len(WEIGHTS), WEIGHTS)
    if lookahead == 0:
        return PassBlendPolicy(_blended_table(blend))
    return LookaheadPolicy(_blended_table(blend), candidates=lookahead)


def simulate_wuerfelspiel(games: int, *, seed: int = 0, **policy) -> np.ndarray:
    """Final totals of `games` solitaire games of Würfelspiel under the policy."""
    return simulate(wuerfelspiel_policy(**policy), games, seed=seed)
