"""Würfelpoker's turn policy: the published expected turn score, and brute force."""

from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod

import pytest

from dicecam.scoring import KeepOption, keep_options
from dicecam.scoring.advisor.poker import poker_table, solve_turn


def test_published_expected_turn_score_with_six_ones_as_eight_times():
    # The 505.07 counts six 1s as 8 x 1000 (the general rule); RULES.md makes
    # them 10,000, worth 2000 more on a 1-in-46656 throw.
    def eight_times(faces):
        if faces == (1,) * 6:
            return [KeepOption(o.keep, 8000 if o.keep == faces else o.points)
                    for o in keep_options(faces)]
        return keep_options(faces)

    assert solve_turn(eight_times).expected_turn_score == pytest.approx(505.07, abs=0.005)
    assert poker_table().expected_turn_score > 505.07


def test_banking_is_best_at_the_cap():
    t = poker_table()
    cap = t.throw_on.shape[1] - 1
    assert (t.throw_on[1:, cap] < cap * 50).all()


def _brute(cap_points: int):
    """Plain recursion over (turn total, dice left), banking forced at the cap."""
    throws = {n: [(f, factorial(n) / prod(factorial(f.count(x)) for x in set(f)) / 6**n)
                  for f in combinations_with_replacement(range(1, 7), n)] for n in range(1, 7)}

    @cache
    def throw_on(total: int, n: int) -> float:
        value = 0.0
        for faces, p in throws[n]:
            best = 0.0  # a bust
            for o in keep_options(faces):
                t2, left = total + o.points, (n - len(o.keep)) or 6
                best = max(best, t2 if t2 >= cap_points else max(t2, throw_on(t2, left)))
            value += p * best
        return value

    return throw_on


def test_table_equals_brute_force_below_a_small_cap():
    cap = 1500
    table = solve_turn(cap_points=cap)
    brute = _brute(cap)
    for total in (0, 300, 800, 1450):
        for n in range(1, 7):
            assert table.throw_on[n, total // 50] == pytest.approx(brute(total, n), rel=1e-12)
