"""Which kinds of rendered clutter pass for dice (benchmarks/rendered_scenes.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import rendered_scenes  # benchmarks/ is on pytest's pythonpath

BOARD = [0, 0, 200, 200]
TOKEN = [10, 10, 40, 40]  # printed on the board
MEEPLE = [100, 100, 130, 130]


@pytest.mark.parametrize(("box", "sure", "expected"), [
    ([20, 20, 30, 30], True, {("token", True): 1}),       # the smallest decoy holding its centre
    ([110, 110, 120, 120], False, {("piece", False): 1}),
    ([150, 50, 160, 60], True, {("board", True): 1}),     # on the board alone
    ([300, 300, 310, 310], True, {}),                     # on the bare table: not on clutter
])
def test_a_box_on_clutter_goes_to_the_smallest_decoy_under_it(box, sure, expected) -> None:
    fooled = rendered_scenes.fooled_by(np.array([box], np.float32), np.array([sure]),
                                       np.array([BOARD, TOKEN, MEEPLE], np.float32), ("board", "token", "piece"))
    assert fooled == Counter(expected)


def test_decoys_of_unknown_kind_are_clutter_and_no_decoys_fool_nothing() -> None:
    box = np.array([[20, 20, 30, 30]], np.float32)
    assert rendered_scenes.fooled_by(box, np.array([True]), np.array([TOKEN], np.float32), None) == \
        Counter({("clutter", True): 1})
    assert not rendered_scenes.fooled_by(box, np.array([True]), None, None)
    assert not rendered_scenes.fooled_by(np.zeros((0, 4), np.float32), np.zeros(0, bool),
                                         np.array([TOKEN], np.float32), ("token",))


def test_by_kind_counts_every_kind_shown_even_those_never_boxed() -> None:
    fooled = Counter({("token", True): 2, ("token", False): 1, ("eyes", False): 4})
    shown = Counter({"token": 10, "eyes": 50, "card": 3})
    table = rendered_scenes.by_kind(fooled, shown)
    assert list(table) == ["eyes", "token", "card"]  # most shown first
    assert table["token"] == {"shown": 10, "boxes": 3, "sure": 2}
    assert table["card"] == {"shown": 3, "boxes": 0, "sure": 0}


def test_grid_tables_carry_grid_things_and_the_default_tables_none() -> None:
    grid = {"keypad", "bricks", "button", "coin"}
    kinds = {k for s, _ in rendered_scenes.rendered("8080,9", 8, upright=True, clutter=1.0, objects="grid")
             for k in s.decoy_kinds or ()}
    plain = {k for s, _ in rendered_scenes.rendered("8080,9", 8, upright=True, clutter=1.0)
             for k in s.decoy_kinds or ()}
    assert kinds & grid and not plain & grid
