"""On small sub-games (one to three open boxes) the table equals brute force: every
throw of five dice enumerated, every keep tried, the boxes filled by scoring's rules."""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

import pytest

from dicecam.scoring import Sheet, get_variant
from dicecam.scoring.advisor.advice import _policy, expected_final

ROLLS = {n: [tuple(r) for r in product(range(1, 7), repeat=n)] for n in range(6)}
THROWS = sorted({tuple(sorted(r)) for r in ROLLS[5]})
SUBKEEPS = {t: {tuple(sorted(c)) for k in range(6) for c in combinations(t, k)} for t in THROWS}


def brute_value(variant, sheet: Sheet) -> float:
    """Expected final total of `sheet` under optimal play, by plain enumeration."""

    @cache
    def start(cells, extra, count) -> float:
        s = Sheet(variant, cells, extra, count)
        if s.is_full:
            return float(s.total)
        end = {t: max(start(*_key(variant.fill(s, list(t), c.box, c.column or 1)))
                      for c in variant.choices(s, list(t)))
               for t in THROWS}
        for _ in range(2):  # throws 2 and 3: keep the best subset, throw the rest
            mean = {}
            for t in THROWS:
                for k in SUBKEEPS[t]:
                    if k not in mean:
                        rolls = ROLLS[5 - len(k)]
                        mean[k] = sum(end[tuple(sorted(k + r))] for r in rolls) / len(rolls)
            end = {t: max(mean[k] for k in SUBKEEPS[t]) for t in THROWS}
        return sum(end[tuple(sorted(r))] for r in ROLLS[5]) / len(ROLLS[5])

    return start(*_key(sheet))


def _key(s: Sheet):
    return s.cells, s.extra_bonus, s.extra_bonus_count


BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "five_kind", "chance")


def _sheet(variant, open_boxes, *, upper=None, five_kind=50, extra=0):
    """A sheet with only `open_boxes` open; `upper` sets the filled upper boxes' points."""
    cells: dict[str, int | None] = {b: 0 for b in BOXES}
    cells.update(five_kind=five_kind, **(upper or {}))
    for b in open_boxes:
        cells[b] = None
    return Sheet(variant, (tuple(cells[b] for b in BOXES),), 100 * extra, extra)


CASES = [
    # (variant, open boxes, filled upper points, five_kind, extra bonuses earned)
    ("yahtzee", ("sixes",), {"fives": 25, "fours": 16, "threes": 6}, 50, 0),
    ("yahtzee", ("full_house", "large_straight"), {}, 50, 1),  # forced joker, +100 each
    ("yahtzee", ("fours", "small_straight", "full_house"), {"sixes": 24, "fives": 20}, 50, 0),
    ("yahtzee", ("twos", "chance"), {}, 0, 0),  # joker without bonus
    ("spiffel", ("full_house", "large_straight"), {}, 50, 0),  # the once-only free joker
    ("spiffel", ("threes", "four_kind"), {"sixes": 30, "fives": 20}, 50, 1),
    ("wuerfelware", ("fives", "five_kind"), {"sixes": 30, "fours": 16}, None, 0),
    # Three open boxes with the extra-bonus flag: about 10 s of enumeration.
    pytest.param("wuerfelware", ("threes", "large_straight", "chance"), {"sixes": 30, "fives": 20}, 50, 0,
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize("name, open_boxes, upper, five_kind, extra", CASES)
def test_table_equals_brute_force(table, name, open_boxes, upper, five_kind, extra):
    variant = get_variant(name)
    sheet = _sheet(variant, open_boxes, upper=upper, five_kind=five_kind, extra=extra)
    assert expected_final(_policy(name), sheet) == pytest.approx(
        brute_value(variant, sheet), abs=2e-4)
