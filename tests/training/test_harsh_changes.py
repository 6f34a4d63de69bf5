"""The reader's harsher photo changes (`photometric(..., harsh=True)`, session 18)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dicecam.training.data.augment import photometric
from dicecam.vision.photo_changes import turn_hue


def _hue_degrees(img: np.ndarray) -> float:
    return float(cv2.cvtColor(img[:1, :1], cv2.COLOR_BGR2HSV)[0, 0, 0]) * 2


def _off_primary_share(harsh: bool, draws: int = 300) -> float:
    """Share of changed pure-red patches whose hue lies away from red, green and blue."""
    rng = np.random.default_rng(4)
    red = np.zeros((32, 32, 3), np.uint8)
    red[..., 2] = 230
    off = 0
    for _ in range(draws):
        out = photometric(red, rng, harsh=harsh)
        centre = out[12:20, 12:20]
        if np.ptp(centre.reshape(-1, 3).mean(0)) < 40:  # turned grey: no hue to speak of
            continue
        hue = _hue_degrees(np.ascontiguousarray(centre.mean((0, 1), keepdims=True).astype(np.uint8)))
        off += min(abs(hue - p) for p in (0, 120, 240, 360)) > 20
    return off / draws


def test_channel_shuffles_alone_keep_a_primary_colour_primary() -> None:
    assert _off_primary_share(harsh=False) == 0.0


def test_harsh_changes_reach_the_hues_between() -> None:
    assert 0.1 < _off_primary_share(harsh=True) < 0.5


@pytest.mark.parametrize("harsh", [False, True])
def test_a_crop_keeps_its_shape_and_type(harsh: bool) -> None:
    rng = np.random.default_rng(1)
    crop = rng.integers(0, 256, (48, 48, 3), dtype=np.uint8)
    for _ in range(50):
        out = photometric(crop, rng, harsh=harsh)
        assert out.shape == crop.shape and out.dtype == np.uint8


def test_turning_the_hue_a_third_of_the_way_makes_red_green() -> None:
    red = np.zeros((4, 4, 3), np.uint8)
    red[..., 2] = 200
    green = turn_hue(red, 120)
    assert green[0, 0, 1] > 150 and green[0, 0, 0] < 30 and green[0, 0, 2] < 30
    np.testing.assert_allclose(turn_hue(turn_hue(green, 120), 120), red, atol=2)
