"""Detector training targets and views (torch-free parts of training)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")

from dicecam.training.data.detector_targets import centernet_targets, random_view
from dicecam.training.learn.nets import STRIDE


def test_targets_put_a_peak_size_and_offset_at_each_die_centre():
    boxes = np.array([[10, 20, 50, 60], [100, 40, 120, 52]], np.float32)
    t = centernet_targets(boxes, (128, 160))
    assert t["heat"].shape == (128 // STRIDE, 160 // STRIDE)
    assert t["mask"].sum() == 2
    # first die: centre (30, 40) -> cell (7, 10) at stride 4, 40 x 40 px
    assert t["heat"][10, 7] == 1.0
    np.testing.assert_allclose(t["size"][:, 10, 7], np.log([40 / STRIDE, 40 / STRIDE]), rtol=1e-6)
    np.testing.assert_allclose(t["offset"][:, 10, 7], [30 / STRIDE - 7, 40 / STRIDE - 10], atol=1e-6)
    # second die: 20 x 12 px, centre (110, 46)
    np.testing.assert_allclose(np.exp(t["size"][:, 11, 27]) * STRIDE, [20, 12], rtol=1e-5)
    assert 0 < t["heat"].mean() < 0.05


def test_targets_for_a_photo_without_dice_are_empty():
    t = centernet_targets(np.zeros((0, 4), np.float32), (64, 64))
    assert t["heat"].max() == 0 and t["mask"].sum() == 0


def test_random_view_keeps_boxes_on_their_dice():
    rng = np.random.default_rng(0)
    img = np.zeros((300, 400, 3), np.uint8)
    box = np.array([[180, 130, 220, 170]], np.float32)
    img[130:170, 180:220] = 255  # the only bright thing is the die
    for _ in range(20):
        view, vb = random_view(img, box, rng, crop=128)
        assert view.shape == (128, 128, 3)
        for x0, y0, x1, y1 in vb.astype(int):
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            assert view[cy, cx].mean() > 200
