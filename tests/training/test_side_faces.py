"""Side faces seen from a low camera become "not a die" crops for the reader."""

from __future__ import annotations

import numpy as np
import pytest

from training.data import load_split
from training.models import NOT_A_DIE, READER_SIZE
from training.reader_data import reader_samples, side_face_crop

TOP = np.array([180, 100, 220, 140], np.float32)  # a top face 40 px wide, centred at (200, 120)


def photo_red_below(y: int) -> np.ndarray:
    img = np.zeros((400, 400, 3), np.uint8)
    img[y:, :, 2] = 255
    return img


@pytest.mark.parametrize("seed", range(20))
def test_the_window_is_centred_below_the_top_face(seed):
    crop = side_face_crop(photo_red_below(135), TOP, TOP[None], np.random.default_rng(seed))
    assert crop.shape == (READER_SIZE, READER_SIZE, 3)
    # The window turns about its centre, so the centre pixel is the point it was cut around.
    assert tuple(crop[READER_SIZE // 2, READER_SIZE // 2]) == (0, 0, 255)


@pytest.mark.parametrize("seed", range(20))
def test_no_window_where_another_die_stands_below(seed):
    below = np.array([180, 132, 220, 172], np.float32)  # a die touching it, centre 152
    boxes = np.stack([TOP, below])
    assert side_face_crop(photo_red_below(135), TOP, boxes, np.random.default_rng(seed)) is None


def test_low_view_photos_give_the_reader_more_negatives():
    img = photo_red_below(135)
    values = np.array([3])

    def negatives(side_below: bool) -> int:
        rng = np.random.default_rng(5)
        return sum(label == NOT_A_DIE for _ in range(200)
                   for _, label in reader_samples(img, TOP[None], values, rng, side_below=side_below))

    assert negatives(True) > negatives(False) + 50  # about one more in two draws


def test_only_the_low_webcam_set_is_marked():
    matteo = load_split("matteop65_wood", "train")
    byler = load_split("byler_d6", "train")
    assert matteo and all(s.side_below for s in matteo)
    assert byler and not any(s.side_below for s in byler)
