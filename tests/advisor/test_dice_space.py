"""The keep/throw index spaces against plain enumeration of every way the dice fall."""

from collections import Counter
from itertools import combinations, product

import numpy as np
import pytest

from dicecam.scoring.advisor import dice_space as ds


def _sorted_outcomes(keep: tuple[int, ...]) -> Counter:
    """Every sorted throw reachable from `keep`, with its count of equally likely rolls."""
    return Counter(tuple(sorted(keep + roll)) for roll in product(range(1, 7), repeat=5 - len(keep)))


def test_sizes():
    assert ds.N_KEEPS == 462 and ds.N_THROWS == 252
    assert [len(r) for r in ds.SIZE_ROWS] == [1, 6, 21, 56, 126, 252]


def test_throw_probabilities_match_enumeration():
    counts = _sorted_outcomes(())
    for i, faces in enumerate(ds.THROW_FACES):
        assert ds.THROW_PROBS[i] == pytest.approx(counts[tuple(faces)] / 6**5)


def test_expect_down_is_the_probability_weighted_mean():
    rng = np.random.default_rng(1)
    end = rng.normal(size=(ds.N_THROWS, 3))
    vals = np.empty((ds.N_KEEPS, 3))
    vals[ds.THROW_ROWS] = end
    ds.expect_down(vals)
    for row in rng.choice(ds.N_KEEPS, 40, replace=False):
        keep = tuple(f for f in range(1, 7) for _ in range(ds.KEEP_COUNTS[row, f - 1]))
        outcomes = _sorted_outcomes(keep)
        total = sum(outcomes.values())
        want = sum(n * end[ds.throw_index(t)] for t, n in outcomes.items()) / total
        np.testing.assert_allclose(vals[row], want, rtol=1e-12)


def test_best_subkeep_is_the_max_over_every_subset_of_the_dice():
    rng = np.random.default_rng(2)
    vals = rng.normal(size=(ds.N_KEEPS, 2))
    best = ds.best_subkeep(vals)
    for t in rng.choice(ds.N_THROWS, 30, replace=False):
        dice = tuple(ds.THROW_FACES[t])
        subs = {tuple(sorted(c)) for k in range(6) for c in combinations(dice, k)}
        rows = [ds.keep_index([s.count(f) for f in range(1, 7)]) for s in subs]
        np.testing.assert_allclose(best[t], vals[rows].max(axis=0))
        assert ds.SUBKEEPS[t].sum() == len(subs)


@pytest.mark.parametrize("dice", [(1, 2, 3, 4, 5), (6, 6, 6, 6, 6), (3, 1, 3, 2, 1)])
def test_throw_index_ignores_order(dice):
    assert tuple(ds.THROW_FACES[ds.throw_index(dice)]) == tuple(sorted(dice))
