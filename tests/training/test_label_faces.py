"""Pip-area labels are grown to square top-face boxes about the same centres."""

from __future__ import annotations

import numpy as np

from dicecam.training.data.photos import PIP_SPAN_TO_FACE, grow_to_face


def test_boxes_become_squares_about_the_same_centre():
    boxes = np.array([[100, 100, 140, 120]], np.float32)  # a "3" seen as a strip of pips
    grown = grow_to_face(boxes, np.array([3]))
    w, h = grown[0, 2] - grown[0, 0], grown[0, 3] - grown[0, 1]
    assert w == h == np.float32(40 * PIP_SPAN_TO_FACE[3])
    np.testing.assert_allclose((grown[0, :2] + grown[0, 2:]) / 2, [120, 110])


def test_small_values_take_the_face_size_of_the_full_dice_in_the_photo():
    boxes = np.array([[0, 0, 40, 40], [100, 100, 112, 112], [200, 200, 220, 210]], np.float32)
    grown = grow_to_face(boxes, np.array([5, 1, 2]))
    sides = grown[:, 2] - grown[:, 0]
    np.testing.assert_allclose(sides, [50, 50, 50])


def test_without_full_dice_each_value_uses_its_own_factor():
    boxes = np.array([[0, 0, 10, 10], [50, 50, 70, 70]], np.float32)
    grown = grow_to_face(boxes, np.array([1, 2]))
    np.testing.assert_allclose(grown[:, 2] - grown[:, 0], [10 * PIP_SPAN_TO_FACE[1], 20 * PIP_SPAN_TO_FACE[2]])
