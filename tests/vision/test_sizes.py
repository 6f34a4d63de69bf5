"""The typical-die-size prior: pure functions over boxes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecam.vision.sizes import READABLE_SIDE, grown_to, longer_sides, relative_sides, too_small_to_read, typical_side

BOXES = np.array([[0, 0, 40, 38], [50, 0, 92, 40], [100, 0, 138, 41], [150, 0, 162, 10]], np.float32)


def test_longer_side_of_each_box():
    assert longer_sides(BOXES).tolist() == [40, 42, 41, 12]


def test_typical_side_is_the_median_of_trusted_boxes():
    assert typical_side(BOXES) == pytest.approx(40.5)
    assert typical_side(BOXES, np.array([True, True, True, False])) == 41
    # Nothing trusted: every box counts rather than none.
    assert typical_side(BOXES, np.zeros(4, bool)) == pytest.approx(40.5)


def test_no_boxes_give_well_shaped_results():
    empty = np.zeros((0, 4), np.float32)
    assert typical_side(empty) == 0.0
    assert relative_sides(empty, 0.0).shape == (0,)
    assert grown_to(empty, 30.0).shape == (0, 4)


@pytest.mark.parametrize(("sides", "small"), [
    ([40, 42, 41], False),
    ([20, 22, 21], True),
    ([READABLE_SIDE - 1, READABLE_SIDE - 1, 60], True),  # the typical die is the median, not the biggest
    ([READABLE_SIDE, READABLE_SIDE, 10], False),  # one stray small box does not make the throw small
    ([READABLE_SIDE], False),
    ([], False),  # nothing read: nothing to move closer for
])
def test_dice_too_small_to_read_by_their_typical_side(sides, small):
    boxes = np.array([[0, 0, side, side * 0.9] for side in sides], np.float32).reshape(-1, 4)
    assert too_small_to_read(boxes) is small


def test_relative_sides_flag_the_stray_box():
    rel = relative_sides(BOXES, typical_side(BOXES))
    assert (rel < 0.65).tolist() == [False, False, False, True]
    assert relative_sides(BOXES, 0.0).tolist() == [1, 1, 1, 1]


def test_small_box_grows_about_its_centre_and_big_ones_stay():
    grown = grown_to(BOXES, 40.0)
    assert grown[3].tolist() == pytest.approx([136.0, -11.667, 176.0, 21.667], abs=1e-3)
    assert np.array_equal(grown[:3], BOXES[:3])


boxes = st.tuples(st.floats(0, 500), st.floats(0, 500), st.floats(1, 200), st.floats(1, 200)).map(
    lambda t: [t[0], t[1], t[0] + t[2], t[1] + t[3]])


@given(st.lists(boxes, min_size=1, max_size=20), st.floats(1, 300))
def test_growing_keeps_centres_and_aspect_and_never_shrinks(rows, side):
    b = np.array(rows, np.float32)
    g = grown_to(b, side)
    np.testing.assert_allclose((g[:, :2] + g[:, 2:]) / 2, (b[:, :2] + b[:, 2:]) / 2, rtol=1e-4, atol=1e-2)
    assert np.all(longer_sides(g) >= np.minimum(side, longer_sides(b)) * (1 - 1e-4) - 1e-3)
    assert np.all(longer_sides(g) >= longer_sides(b) * (1 - 1e-5) - 1e-3)
    ratio_b = (b[:, 2] - b[:, 0]) / (b[:, 3] - b[:, 1])
    ratio_g = (g[:, 2] - g[:, 0]) / (g[:, 3] - g[:, 1])
    np.testing.assert_allclose(ratio_g, ratio_b, rtol=1e-3)
