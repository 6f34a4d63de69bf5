"""The detector's shrink: the right size, close to an area average, and no aliasing of fine detail."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.vision.detector import shrink


def _texture(h: int = 600, w: int = 800) -> np.ndarray:
    """A table-like photo: smooth shading, blobs the size of pips, sensor noise."""
    rng = np.random.default_rng(7)
    image = cv2.GaussianBlur(rng.normal(128, 60, (h, w, 3)).astype(np.float32), (0, 0), 3)
    for x, y in rng.integers(20, min(h, w) - 20, (80, 2)):
        cv2.circle(image, (int(x), int(y)), 4, (20, 20, 20), -1)
    return np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("scale, averaged", [
    (0.25, False), (0.45, False), (0.5, False), (0.55, False), (0.65, False),  # two steps
    (0.7, False), (0.8, False),                                               # area average
    (0.55, True), (0.8, True),                                                # a halving: bilinear
])
def test_a_shrink_stays_within_a_grey_level_of_the_area_average(scale, averaged):
    image = _texture()
    out = shrink(image, scale, averaged=averaged)
    area = cv2.resize(image, out.shape[1::-1], interpolation=cv2.INTER_AREA)
    assert out.dtype == np.uint8 and out.shape[2] == 3
    assert np.abs(out.astype(int) - area).mean() < 1.0


@pytest.mark.parametrize("scale", [0.52, 0.55, 0.6, 0.65])
def test_a_shrink_to_under_two_thirds_does_not_alias_fine_detail(scale):
    # One-pixel stripes average to flat grey; a plain bilinear shrink samples them into
    # bands of black and white (what makes speckle look like pips). The two steps blur
    # them about as well as an area average does.
    stripes = np.zeros((400, 600, 3), np.uint8)
    stripes[:, ::2] = 255
    out = shrink(stripes, scale)
    size = out.shape[1::-1]
    area = cv2.resize(stripes, size, interpolation=cv2.INTER_AREA)
    plain = cv2.resize(stripes, size, interpolation=cv2.INTER_LINEAR)
    assert abs(float(out.mean()) - 127.5) < 3
    assert out.std() < area.std() + 3 and plain.std() > 2.5 * out.std()


def test_enlarging_is_bilinear():
    image = _texture(60, 80)
    out = shrink(image, 1.5)
    assert out.shape == (90, 120, 3)
    assert np.array_equal(out, cv2.resize(image, (120, 90), interpolation=cv2.INTER_LINEAR))


@settings(max_examples=60, deadline=None)
@given(width=st.integers(1, 900), height=st.integers(1, 900), scale=st.floats(0.02, 2.0),
       averaged=st.booleans())
def test_the_shrunk_size_is_the_scaled_size_rounded_never_empty(width, height, scale, averaged):
    out = shrink(np.zeros((height, width, 3), np.uint8), scale, averaged=averaged)
    assert out.shape == (max(1, round(height * scale)), max(1, round(width * scale)), 3)
