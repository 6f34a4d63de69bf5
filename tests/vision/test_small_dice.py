"""Dice that come out small in the frame (a phone held high over a big table) are still all read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.decode import load_image
from vision.detections import Dice
from vision.metrics import score_photo
from vision.sizes import typical_side

from test_samples import NOT_YET_READ, PHOTOS

READ_RIGHT = [p for p in PHOTOS if not p.crop and p.image not in NOT_YET_READ and len(p.dice) >= 3]


def further_away(image: np.ndarray, dice: Dice, factor: float) -> tuple[np.ndarray, Dice]:
    """The photo shrunk by `factor` in the middle of a same-size frame of its table's colour."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=cv2.INTER_AREA)
    frame = np.empty_like(image)
    frame[:] = np.median(image.reshape(-1, 3), axis=0).astype(np.uint8)
    y0, x0 = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    frame[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    boxes = dice.boxes * np.float32(factor) + np.array([x0, y0, x0, y0], np.float32)
    return frame, Dice(boxes, dice.values, dice.confidences)


@pytest.mark.parametrize("photo", READ_RIGHT[:4], ids=lambda p: p.image)
def test_dice_half_as_big_in_the_frame_are_all_found(reader, photo):
    image, truth = further_away(load_image(photo.path), photo.dice, 0.5)
    # Small enough that the detector's first look sees each die at under 24 pixels.
    assert typical_side(truth.boxes) * reader.input_side / max(image.shape[:2]) < reader.zoom_below
    score = score_photo(truth, reader.read(image))
    assert score.recall == 1.0 and score.precision == 1.0, score

