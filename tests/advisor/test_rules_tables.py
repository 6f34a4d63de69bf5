"""The vectorized rules (score tables, jokers, extra bonus) against scoring's own rules."""

import numpy as np
import pytest

from dicecam.scoring import BOXES, Sheet, SheetVariant, get_variant, score_box
from dicecam.scoring.advisor.advice import sheet_state
from dicecam.scoring.advisor.dice_space import THROW_FACES
from dicecam.scoring.advisor.simulate import ColumnSumPolicy
from dicecam.scoring.advisor.solver import ColumnTable, box_outcomes
from dicecam.scoring.advisor.tables import BOX_IDS, SCORES, column_rules

SINGLE = ("spiffel", "wuerfelware", "yahtzee", "wuerfelspiel")


def test_box_ids_follow_scoring():
    assert BOX_IDS == tuple(b.value for b in BOXES)


@pytest.mark.parametrize("box", range(13))
def test_score_table_equals_score_box_for_every_throw(box):
    want = [score_box(BOX_IDS[box], list(d)) for d in THROW_FACES]
    assert SCORES[box].tolist() == want


def _random_sheet(variant, rng) -> Sheet:
    """A single-column sheet with random boxes filled by random legal-looking points."""
    cells: list[int | None] = [None] * 13
    for i in rng.choice(13, rng.integers(0, 13), replace=False):
        if i == 11:
            cells[i] = int(rng.choice([0, 50]))
        else:
            cells[i] = int(score_box(BOX_IDS[i], list(THROW_FACES[rng.integers(252)])))
    earned = int(rng.integers(0, 2)) if cells[11] == 50 else 0
    return Sheet(variant, (tuple(cells),), 100 * earned, earned)


@pytest.mark.parametrize("name", SINGLE)
def test_box_outcomes_equal_scoring_choices(name):
    """Legal boxes, points and extra bonus for random sheets and every throw."""
    variant = get_variant(name)
    assert isinstance(variant, SheetVariant)
    rules = column_rules(name)
    dummy = ColumnTable(rules, np.zeros((8192, 2, rules.threshold + 1)))
    policy = ColumnSumPolicy((dummy,), (1,))
    rng = np.random.default_rng(3)
    for _ in range(12):
        sheet = _random_sheet(variant, rng) if variant.columns == 1 else Sheet.empty(variant)
        s = sheet_state(policy, sheet)
        n = len(THROW_FACES)
        out = box_outcomes(rules, np.repeat(s.masks[0], n), np.repeat(s.flags[0], n),
                           np.arange(n))
        for t, dice in enumerate(THROW_FACES):
            dice = [int(d) for d in dice]
            choices = [c for c in variant.choices(sheet, dice) if (c.column or 1) == 1]
            want = {BOX_IDS.index(c.box.value): c.points for c in choices}
            got = {b: int(out.points[b, t]) for b in np.flatnonzero(out.allowed[:, t])}
            assert got == want, (sheet.cells, dice)
            assert out.extra[t] == variant.extra_bonus(sheet, dice)
