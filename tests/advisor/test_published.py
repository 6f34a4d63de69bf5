"""The exact tables reproduce the published optimal expected scores, and simulated
games of the optimal policy score what the table expects."""

import numpy as np
import pytest

from dicecam.scoring import Game
from dicecam.scoring.advisor import simulate as sim
from dicecam.scoring.advisor.dice_space import THROW_FACES
from dicecam.scoring.advisor.simulate import ColumnSumPolicy, simulate
from dicecam.scoring.advisor.tables import BOX_IDS
from dicecam.scoring.advisor.wuerfelspiel import wuerfelspiel_policy


@pytest.mark.parametrize("variant, published", [
    ("yahtzee", 254.5877),
    ("wuerfelware", 250.2611),
    ("wuerfelspiel", 245.8708),  # one column, no extra bonus
])
def test_published_expected_scores(table, variant, published):
    assert table(variant).expected_score == pytest.approx(published, abs=1e-4)


def test_spiffel_lies_between_no_bonus_and_unlimited_bonus(table):
    # The once-only bonus with a free joker is worth less than Yahtzee's unlimited one.
    assert table("wuerfelspiel").expected_score < table("spiffel").expected_score
    assert table("spiffel").expected_score < table("yahtzee").expected_score


@pytest.mark.parametrize("variant", ["yahtzee", "spiffel", "wuerfelware"])
def test_simulated_mean_matches_expected_score(table, variant):
    t = table(variant)
    scores = simulate(ColumnSumPolicy((t,), (1,)), 6000, seed=11)
    se = scores.std(ddof=1) / np.sqrt(len(scores))
    assert abs(scores.mean() - t.expected_score) < 4 * se


@pytest.mark.parametrize("variant, columns, full", [
    ("yahtzee", 1, False), ("spiffel", 1, False),
    # The plain three-column policy plays Würfelspiel from the column table alone; the
    # full one needs the 26 pass tables (minutes to build): slow.
    ("wuerfelspiel", 3, False), pytest.param("wuerfelspiel", 3, True, marks=pytest.mark.slow),
])
def test_simulated_games_score_as_scoring_says(table, variant, columns, full):
    """Replaying simulated games through scoring.Game gives the same totals (and every
    box the policy chose is legal there)."""
    if columns == 3:
        policy = wuerfelspiel_policy() if full else wuerfelspiel_policy(blend=0, lookahead=0)
    else:
        policy = ColumnSumPolicy((table(variant),), (1,))
    rng = np.random.default_rng(5)
    n = 40
    state = sim.SheetState.new(columns, n)
    games = [Game.new(variant, ["A"]) for _ in range(n)]
    for _ in range(13 * columns):
        throws, col, box = sim.play_turn(policy, state, rng)
        for g in range(n):
            event: dict[str, object] = {"player": "A", "dice": [int(d) for d in THROW_FACES[throws[g]]],
                                        "box": BOX_IDS[box[g]]}
            if columns == 3:
                event["column"] = int(col[g]) + 1
            games[g] = games[g].play(event)
        state = sim.fill(policy, state, throws, col, box)
    assert [g.totals["A"] for g in games] == state.totals.tolist()
    assert all(g.finished for g in games)
