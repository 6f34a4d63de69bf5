"""Weak detector peaks count as dice only where the reader sees a die plainly."""

from __future__ import annotations

import numpy as np
import pytest
from test_samples import PHOTOS

from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import match_boxes, score_photo
from dicecam.vision.reader import DiceReader

PHOTO = next(p for p in PHOTOS if p.image == "byler_d6/IMG_20191208_111316.jpg")
#: The label of its faintest die (a 6): the session-9 detector found it only as a weak
#: peak (0.3-0.4); the shipped one peaks just over the threshold, at about 0.42.
WEAK_DIE = np.array([[390.2, 135.0, 423.4, 171.2]], np.float32)


def _at(dice: Dice, box: np.ndarray) -> int | None:
    """Index of the die of `dice` that the scoring rule pairs with `box`, if any."""
    pairs = match_boxes(box, dice.boxes)
    return int(pairs[0, 1]) if len(pairs) else None


@pytest.fixture(scope="module")
def image():
    return load_image(PHOTO.path)


@pytest.fixture(scope="module")
def threshold(reader, image) -> float:
    """A peak threshold just over the faint die's peak and under every other die's, so that
    only a weak peak finds it, whichever detector ships."""
    found = reader.detect(image)
    boxes, scores = found.boxes, found.scores
    found = Dice(boxes, np.ones(len(boxes), np.int64), scores)
    pairs = match_boxes(PHOTO.dice.boxes, boxes)
    faint = scores[_at(found, WEAK_DIE)]
    others = [scores[b] for label, b in pairs if not np.array_equal(PHOTO.dice.boxes[label], WEAK_DIE[0])]
    assert faint < min(others) - 0.02, "the die is no longer the photo's faintest: choose another"
    return float(faint) + 0.01


def test_the_die_is_only_a_weak_peak(image, threshold):
    weak = DiceReader(min_score=threshold)
    found = weak.detect(image)
    boxes, scores = found.boxes, found.scores
    i = _at(Dice(boxes, np.ones(len(boxes), np.int64), scores), WEAK_DIE)
    assert i is not None and weak.detector.weak_score <= scores[i] < weak.min_score


def test_a_weak_peak_read_plainly_is_kept_with_a_tempered_confidence(image, threshold):
    weak = DiceReader(min_score=threshold, whole_lifts_peak=None)
    found = weak.read(image)
    assert score_photo(PHOTO.dice, found).exact == 1
    i = _at(found, WEAK_DIE)
    # The confidence is the reading's certainty times min(1, peak / 0.5), so a die found
    # only by a peak under the threshold stays under threshold / 0.5, however sure the read.
    assert found.values[i] == 6 and found.confidences[i] < threshold / 0.5


def test_a_weak_peak_whose_cube_the_check_sees_is_not_tempered(image, threshold):
    """The whole-die check saw this die whole (0.8 or more), so its weak peak no longer marks it down."""
    lifted, tempered = DiceReader(min_score=threshold), DiceReader(min_score=threshold, whole_lifts_peak=None)
    seen = lifted.candidates(image)
    row = _at(Dice(seen.boxes, np.ones(len(seen), np.int64), seen.scores), WEAK_DIE)
    assert row is not None and seen.whole is not None and seen.whole[row] >= lifted.settings.whole_lifts_peak
    found, before = lifted.read(image), tempered.read(image)
    i = _at(found, WEAK_DIE)
    assert found.values[i] == 6 and found.confidences[i] > before.confidences[i]


@pytest.mark.parametrize("options", [{"weak_score": None}, {"weak_sure": 1.01}],
                         ids=["no weak peaks", "no reading plain enough"])
def test_without_weak_peaks_the_die_is_missed(image, threshold, options):
    assert _at(DiceReader(min_score=threshold, **options).read(image), WEAK_DIE) is None


@pytest.mark.parametrize("photo", [p for p in PHOTOS if not p.crop], ids=lambda p: p.image)
def test_weak_peaks_only_add_dice(reader, photo):
    """Every die read without weak peaks is read the same with them: strong boxes stay as they were."""
    image = load_image(photo.path)
    strong_only = DiceReader(weak_score=None).read(image)
    found = reader.read(image)
    for box, value, confidence in zip(strong_only.boxes, strong_only.values, strong_only.confidences):
        same = [i for i in range(len(found)) if np.array_equal(found.boxes[i], box)]
        assert len(same) == 1 and (found.values[same[0]], found.confidences[same[0]]) == (value, confidence)
