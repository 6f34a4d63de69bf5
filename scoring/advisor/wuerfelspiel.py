"""Würfelspiel's three columns (x1, x2, x3): no exact solution is within reach, so the
policy combines the exact single-column values of each column (`ColumnSumPolicy`):
every keep and box is chosen for the best expected weighted sum of column values,
the in-turn keeps looking ahead over the best box of every column.
"""

from __future__ import annotations

import numpy as np

from scoring.advisor.cache import column_table
from scoring.advisor.simulate import ColumnSumPolicy, simulate

WEIGHTS = (1, 2, 3)


def wuerfelspiel_policy() -> ColumnSumPolicy:
    """The three-column policy over the cached single-column table."""
    table = column_table("wuerfelspiel")
    return ColumnSumPolicy((table,) * len(WEIGHTS), WEIGHTS)


def simulate_wuerfelspiel(games: int, *, seed: int = 0) -> np.ndarray:
    """Final totals of `games` solitaire games of Würfelspiel under the policy."""
    return simulate(wuerfelspiel_policy(), games, seed=seed)
