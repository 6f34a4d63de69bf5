"""Shared assertion of the second opinions' tests: two reads that must report the same dice."""

from __future__ import annotations

import numpy as np

from dicecam.vision.dataset import LabelledPhoto
from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.reader import DiceReader


def assert_same_dice(got: Dice, expected: Dice) -> None:
    """`got` reports the dice of `expected`: the same boxes, values and confidences, in order."""
    np.testing.assert_array_equal(got.boxes, expected.boxes)
    np.testing.assert_array_equal(got.values, expected.values)
    np.testing.assert_array_equal(got.confidences, expected.confidences)


def assert_same_reads(first: DiceReader, second: DiceReader, photo: LabelledPhoto) -> None:
    """Both readers report the same dice on `photo`, told its labelled count and without."""
    image = load_image(photo.path)
    for count in (None, len(photo.dice)):
        assert_same_dice(first.read(image, count=count), second.read(image, count=count))
