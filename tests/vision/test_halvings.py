"""The shared halvings of a photo: sizes, reuse, and which one each pass starts from."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.vision.halvings import Halvings


def test_levels_halve_with_sides_rounded_down_and_are_made_once():
    photo = Halvings(np.zeros((3024, 4031, 3), np.uint8))
    assert photo.level(0) is photo.photo
    assert photo.level(1).shape == (1512, 2015, 3)
    assert photo.level(2).shape == (756, 1007, 3)
    assert photo.level(2) is photo.level(2)


def test_levels_stop_at_the_smallest_side_allowed():
    photo = Halvings(np.zeros((300, 500, 3), np.uint8), min_side=64)
    assert photo.level(5).shape == (75, 125, 3)  # 300 -> 150 -> 75, never 37


def test_a_halving_averages_2x2_blocks():
    image = np.tile(np.array([[0, 4], [4, 8]], np.uint8), (32, 32))  # every 2x2 block averages 4
    image[:, 32:] = 200
    half = Halvings(image, min_side=8).level(1)
    assert (half[:, :16] == 4).all() and (half[:, 16:] == 200).all()


@pytest.mark.parametrize("side, scale, keep, expect_level", [
    (4032, 512 / 4032, 2.0, 1),  # a 12 MP photo for the detector's first look: from its half
    (4032, 0.217, 1.0, 2),       # the closer look at small dice in it: from its quarter
    (1920, 512 / 1920, 2.0, 0),  # half a full HD frame would be under twice the detector's size
    (1920, 512 / 1920, 1.0, 1),
    (640, 0.8, 1.0, 0),
    (640, 1.6, 1.0, 0),          # enlarging starts from the photo
    (8192, 0.05, 2.0, 3),
])
def test_each_pass_starts_from_the_smallest_halving_big_enough(side, scale, keep, expect_level):
    photo = Halvings(np.zeros((side * 3 // 4, side, 3), np.uint8))
    source, own = photo.for_scale(scale, keep=keep)
    assert source is photo.level(expect_level)
    assert own == source.shape[1] / side


@settings(max_examples=60, deadline=None)
@given(width=st.integers(64, 5000), height=st.integers(64, 5000), scale=st.floats(0.01, 3.0),
       keep=st.sampled_from([1.0, 2.0]))
def test_the_source_always_keeps_the_detail_asked_for(width, height, scale, keep):
    photo = Halvings(np.zeros((height, width), np.uint8))
    source, own = photo.for_scale(scale, keep=keep)
    assert min(source.shape) >= photo.min_side
    # Not halved below `keep` times the asked size (rounding of odd sides aside), and not one halving too few.
    assert own >= min(1.0, keep * scale) * 0.99
    assert own / 2 < keep * scale or min(source.shape) // 2 < photo.min_side


@pytest.mark.parametrize("scale", [0.0, -0.5, float("nan")])
def test_a_scale_that_is_not_positive_is_refused(scale):
    with pytest.raises(ValueError, match="positive"):
        Halvings(np.zeros((100, 100), np.uint8)).for_scale(scale)
