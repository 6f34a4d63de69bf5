"""The die-size split behind the page's "move closer" hint (benchmarks/die_size.py)."""

from __future__ import annotations

import math

from die_size import Throw, split_by_side  # benchmarks/ is on pytest's pythonpath


def test_throws_split_at_a_side_with_their_exact_shares():
    throws = [Throw(18.0, False), Throw(20.0, True), Throw(27.9, False), Throw(28.0, True), Throw(40.0, True),
              Throw(None, False)]
    parts = split_by_side(throws, 28.0)
    assert parts["under"] == {"throws": 3, "exact": round(1 / 3, 3)}
    # A throw read as no dice at all is in neither part: the page says that otherwise.
    assert parts["at_or_over"] == {"throws": 2, "exact": 1.0}


def test_an_empty_part_has_no_share():
    parts = split_by_side([Throw(40.0, True)], 28.0)
    assert parts["under"]["throws"] == 0 and math.isnan(parts["under"]["exact"])
