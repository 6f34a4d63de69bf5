"""Würfelspiel's three-column policy: the pass tables and the policy's strength."""

import numpy as np
import pytest

from dicecam.scoring.advisor.cache import load_or_build_passes
from dicecam.scoring.advisor.simulate import simulate
from dicecam.scoring.advisor.solver import ALL_FILLED
from dicecam.scoring.advisor.tables import FIVE_KIND, column_rules
from dicecam.scoring.advisor.wuerfelspiel import MAX_PASSES, wuerfelspiel_policy

# Every test here needs Würfelspiel's 26 pass tables: about two minutes to build on two cores.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def passes():
    return load_or_build_passes(column_rules("wuerfelspiel"), MAX_PASSES)


def test_no_pass_is_the_plain_table(table, passes):
    plain = table("wuerfelspiel").values[:, 0]
    ok = np.isfinite(plain)
    np.testing.assert_allclose(passes[0][ok], plain[ok], atol=1e-4)


def test_more_passes_are_never_worth_less(passes):
    ok = np.isfinite(passes[0])
    assert (np.diff(passes[:, ok], axis=0) >= -1e-4).all()


def test_only_five_kind_open_waits_for_five_of_a_kind(passes):
    """With one box left the best play chases five of a kind every turn, so p passes
    give p + 1 tries: 50 x (1 - (1 - q)^(p + 1)), q the chance of one turn."""
    mask = ALL_FILLED & ~(1 << FIVE_KIND)
    q = passes[0, mask, 0] / 50
    for p in range(MAX_PASSES + 1):
        assert passes[p, mask, 0] == pytest.approx(50 * (1 - (1 - q) ** (p + 1)), abs=1e-4)


def test_policy_beats_the_plain_column_sum():
    games = 3000
    blended = simulate(wuerfelspiel_policy(), games, seed=3)
    plain = simulate(wuerfelspiel_policy(blend=0, lookahead=0), games, seed=3)
    se = np.hypot(blended.std(ddof=1), plain.std(ddof=1)) / np.sqrt(games)
    assert blended.mean() - plain.mean() > 3 * se
    assert blended.mean() > 1690  # 1700 and more over 10,000 games: see the README
