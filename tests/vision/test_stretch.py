"""Crops cut in the box's own shape and stretched square: an oblique top face read as from above."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.reader import DiceReader
from vision.sizes import window_shapes


def test_window_shapes_follow_the_box_up_to_the_stretch():
    boxes = np.array([[0, 0, 40, 40], [0, 0, 40, 30], [0, 0, 40, 10], [0, 0, 12, 24]], np.float32)
    np.testing.assert_allclose(window_shapes(boxes, 1.5), [[1, 1], [1, 0.75], [1, 1 / 1.5], [0.5 / 0.75, 1]])
    np.testing.assert_allclose(window_shapes(boxes), np.ones((4, 2)))  # 1: square windows, as before
    assert window_shapes(np.zeros((0, 4)), 1.5).shape == (0, 2)


def test_a_stretch_under_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        window_shapes(np.zeros((1, 4)), 0.5)
    with pytest.raises(ValueError, match="at least 1"):
        DiceReader(max_stretch=0.9)


@given(st.floats(1, 200), st.floats(1, 200), st.floats(1, 4))
def test_the_longer_side_is_always_whole_and_the_shorter_never_below_the_limit(w, h, stretch):
    (sx, sy), = window_shapes(np.array([[0, 0, w, h]], np.float32), stretch)
    assert max(sx, sy) == pytest.approx(1)
    assert min(sx, sy) >= 1 / stretch - 1e-6


def _squashed_face(height: int) -> tuple[np.ndarray, np.ndarray]:
    """A white 3 on a grey table, 60 px wide and `height` px high (a face seen at a tilt), and its box."""
    img = np.full((200, 200, 3), 90, np.uint8)
    x0, y0 = 70, 100 - height // 2
    cv2.rectangle(img, (x0, y0), (x0 + 60, y0 + height), (235, 235, 235), -1)
    for k in (-1, 0, 1):
        cv2.ellipse(img, (100 + 18 * k, 100 + round(18 * k * height / 60)), (6, max(1, round(6 * height / 60))),
                    0, 0, 360, (20, 20, 20), -1)
    return img, np.array([[x0, y0, x0 + 60, y0 + height]], np.float32)


def test_a_squashed_face_is_cut_as_a_square_one():
    reader_square, reader_stretched = DiceReader(max_stretch=1.0), DiceReader(max_stretch=2.0)
    square_img, square_box = _squashed_face(60)
    flat_img, flat_box = _squashed_face(36)
    seen_from_above = reader_square._crops(square_img, square_box)
    stretched = reader_stretched._crops(flat_img, flat_box)
    squashed = reader_square._crops(flat_img, flat_box)
    # Stretched, the oblique face looks like the face from above; cut square, it does not.
    assert np.abs(stretched - seen_from_above).mean() < 0.5 * np.abs(squashed - seen_from_above).mean()
    # A square box is cut the same either way.
    np.testing.assert_allclose(reader_stretched._crops(square_img, square_box), seen_from_above)


def test_the_shipped_reader_keeps_square_crops():
    assert DiceReader().max_stretch == 1.0
