"""Weak detector peaks count as dice only where the reader sees a die plainly."""

from __future__ import annotations

import numpy as np
import pytest

from vision.decode import load_image
from vision.detections import Dice
from vision.metrics import match_boxes, score_photo
from vision.reader import DiceReader

from test_samples import PHOTOS

PHOTO = next(p for p in PHOTOS if p.image == "byler_d6/IMG_20191208_111316.jpg")
#: The label of its die that only a weak peak finds (a 6).
WEAK_DIE = np.array([[390.2, 135.0, 423.4, 171.2]], np.float32)


def _at(dice: Dice, box: np.ndarray) -> int | None:
    """Index of the die of `dice` that the scoring rule pairs with `box`, if any."""
    pairs = match_boxes(box, dice.boxes)
    return int(pairs[0, 1]) if len(pairs) else None


@pytest.fixture(scope="module")
def image():
    return load_image(PHOTO.path)


def test_the_die_is_only_a_weak_peak(reader, image):
    boxes, scores = reader._detect(image)
    i = _at(Dice(boxes, np.ones(len(boxes), np.int64), scores), WEAK_DIE)
    assert i is not None and reader.weak_score <= scores[i] < reader.min_score


def test_a_weak_peak_read_plainly_is_kept_and_marked_unsure(reader, image):
    found = reader.read(image)
    assert score_photo(PHOTO.dice, found).exact == 1
    i = _at(found, WEAK_DIE)
    assert found.values[i] == 6 and found.confidences[i] < reader.low_confidence


@pytest.mark.parametrize("options", [{"weak_score": None}, {"weak_sure": 1.01}],
                         ids=["no weak peaks", "no reading plain enough"])
def test_without_weak_peaks_the_die_is_missed(image, options):
    assert _at(DiceReader(**options).read(image), WEAK_DIE) is None


@pytest.mark.parametrize("photo", [p for p in PHOTOS if not p.crop], ids=lambda p: p.image)
def test_weak_peaks_only_add_dice(reader, photo):
    """Every die read without weak peaks is read the same with them: strong boxes stay as they were."""
    image = load_image(photo.path)
    strong_only = DiceReader(weak_score=None).read(image)
    found = reader.read(image)
    for box, value, confidence in zip(strong_only.boxes, strong_only.values, strong_only.confidences):
        same = [i for i in range(len(found)) if np.array_equal(found.boxes[i], box)]
        assert len(same) == 1 and (found.values[same[0]], found.confidences[same[0]]) == (value, confidence)
