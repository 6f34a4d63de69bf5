"""Without a count, faint peaks (from `free_weak_score` up to `weak_score`) are read too: a
Catan pair's small second die is often no more than that in the first look, and nothing else
would tell the reader it is there. At most `faint_at_most` of them are read, each kept only
where read plainly; told a count, reading is as it was."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.vision.decode import load_image
from dicecam.vision.halvings import Halvings
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DiceReader
from dicecam.vision.settings import ReaderSettings

#: roboflow_dice dev throws of two small dice on a Catan board whose second (or both) the
#: first look peaks at 0.15-0.3 only (C421, models/HISTORY.md).
FAINT_PAIRS = ("dice_331_jpg", "dice_320_jpg")


@pytest.fixture(scope="module")
def counted_lines() -> DiceReader:
    """The reader reading a photo without a count with a counted read's lines (and no search
    network's pass for its free look, which finds such a die too: C447fb)."""
    return DiceReader(free_weak_score=None, free_look_search=False)


@pytest.mark.parametrize("name", FAINT_PAIRS)
def test_a_read_without_a_count_finds_the_faint_die(reader, counted_lines, roboflow_photos, name):
    (photo,) = roboflow_photos("dev", name)
    image = load_image(photo.path)
    assert score_photo(photo.dice, reader.read(image)).exact == 1
    assert score_photo(photo.dice, counted_lines.read(image)).exact == 0


@pytest.mark.parametrize("name", FAINT_PAIRS)
def test_told_a_count_the_read_is_as_before(reader, counted_lines, roboflow_photos, name):
    (photo,) = roboflow_photos("dev", name)
    image = load_image(photo.path)
    now, before = reader.read(image, count=2), counted_lines.read(image, count=2)
    np.testing.assert_array_equal(now.boxes, before.boxes)
    np.testing.assert_array_equal(now.values, before.values)
    np.testing.assert_array_equal(now.confidences, before.confidences)


@pytest.mark.parametrize("most", [0, 3, 8])
def test_at_most_faint_at_most_faint_peaks_are_read(roboflow_photos, most):
    (photo,) = roboflow_photos("dev", FAINT_PAIRS[0])
    image = load_image(photo.path)
    free = DiceReader(faint_at_most=most).uncounted_reader()
    found = free.detector.find(Halvings(image))
    faint = free.settings.faint_below
    assert faint is not None and np.sum(found.scores < faint) == most  # a board has more than 8
    assert found.scores.min() >= free.settings.weak_score
    counted = DiceReader().detector.find(Halvings(image))
    # The cap leaves every peak a counted read sees as it was.
    np.testing.assert_array_equal(found.boxes[found.scores >= faint], counted.boxes)


@pytest.mark.parametrize(("changes", "weak_score", "weak_sure", "faint_below"), [
    ({}, 0.2, 0.9, 0.3),
    ({"free_weak_sure": 0.7}, 0.2, 0.8, 0.3),
    ({"free_weak_score": None}, 0.3, 0.8, None),
    ({"free_weak_score": 0.35}, 0.3, 0.8, None),
    ({"weak_score": None}, None, 0.8, None),
], ids=["as shipped", "never below the counted line", "off", "not fainter", "no weak peaks"])
def test_a_read_without_a_count_uses_its_own_lines(changes, weak_score, weak_sure, faint_below):
    settings = ReaderSettings().but(**changes).uncounted()
    assert (settings.weak_score, settings.weak_sure, settings.faint_below) == (weak_score, weak_sure, faint_below)


def test_a_crop_of_negative_priority_gets_no_second_look(reader, roboflow_photos):
    """How `FaceReader.read` keeps a faint crop too doubtful to be kept from its views."""
    (photo,) = roboflow_photos("dev", FAINT_PAIRS[0])
    crops = reader.face.crops(load_image(photo.path), np.repeat(photo.dice.boxes[:1], 2, axis=0))
    doubtful = np.full((2, 7), 0.05, np.float32)
    doubtful[:, 0] = 0.6  # under `turn_below` (0.7): a crop the views would settle
    probs, views = reader.face.second_look(crops, doubtful, priority=np.array([1.0, -1.0]))
    assert not np.allclose(probs[0], doubtful[0])  # read again in its views
    np.testing.assert_array_equal(probs[1], doubtful[1])
    np.testing.assert_array_equal(views[1], doubtful[1])
