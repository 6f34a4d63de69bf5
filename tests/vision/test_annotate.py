"""annotate: boxes, values, uncertainty and keep marks drawn onto a copy of the photo."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.vision.annotate import (
    CONFIDENT,
    KEEP,
    LEFT_OUT,
    LEFT_OUT_RIM,
    MISSED,
    UNCERTAIN,
    WRONG,
    annotate,
    annotate_misses,
)
from dicecam.vision.detections import UNSURE_BELOW, Dice
from dicecam.vision.metrics import match_boxes


def table(height: int = 480, width: int = 640) -> np.ndarray:
    return np.full((height, width, 3), 128, np.uint8)


def dice(*rows) -> Dice:
    return Dice.from_dicts([{"value": v, "box": list(b), "confidence": c} for v, b, c in rows])


def near(image: np.ndarray, colour, tol: int = 40) -> np.ndarray:
    """Mask of pixels within `tol` of a BGR colour."""
    return np.all(np.abs(image.astype(int) - np.array(colour)) <= tol, axis=-1)


def test_draws_on_a_copy_and_leaves_the_photo_alone():
    photo = table()
    before = photo.copy()
    out = annotate(photo, dice((4, (100, 200, 160, 260), 0.95)))
    assert np.array_equal(photo, before)
    assert out.shape == photo.shape and out.dtype == np.uint8
    assert not np.array_equal(out, photo)


def test_no_dice_gives_an_unchanged_copy():
    photo = table()
    out = annotate(photo, Dice.empty())
    assert np.array_equal(out, photo) and out is not photo


def test_confident_die_gets_a_solid_green_box():
    out = annotate(table(), dice((4, (100, 200, 160, 260), 0.95)))
    bottom = near(out[258:263, 100:161], CONFIDENT).any(axis=0)
    assert bottom.all()  # a solid edge: every column of the bottom edge is drawn
    assert not near(out, UNCERTAIN).any()


def test_uncertain_die_gets_a_dashed_orange_box():
    out = annotate(table(), dice((4, (100, 200, 300, 400), 0.3)))
    bottom = near(out[398:403, 100:301], UNCERTAIN).any(axis=0)
    assert 0.3 < bottom.mean() < 0.8  # dashes with gaps between them
    assert not near(out, CONFIDENT).any()


@pytest.mark.parametrize("grey", [20, 128, 240], ids=["dark", "grey", "white"])
def test_dice_a_count_left_out_get_a_dashed_grey_box_and_no_value(grey):
    photo = np.full((480, 640, 3), grey, np.uint8)
    out = annotate(photo, Dice.empty(), left_out=dice((4, (100, 200, 300, 400), 0.95)))
    bottom = (near(out[396:405, 100:301], LEFT_OUT, 10) | near(out[396:405, 100:301], LEFT_OUT_RIM, 10)).any(axis=0)
    assert 0.3 < bottom.mean() < 0.8  # dashes with gaps between them
    assert near(out, LEFT_OUT if grey < 200 else LEFT_OUT_RIM, 10).any()  # the box stands out on any table
    assert not (near(out, CONFIDENT) | near(out, UNCERTAIN)).any()  # no value: it is not counted
    assert np.array_equal(out[:190], photo[:190])  # nothing drawn above the box: no label


def test_the_confidence_line_can_be_moved():
    die = dice((4, (100, 200, 160, 260), UNSURE_BELOW + 0.05))
    assert near(annotate(table(), die), CONFIDENT).any()
    assert near(annotate(table(), die, low_confidence=UNSURE_BELOW + 0.1), UNCERTAIN).any()


def test_uncertain_label_carries_a_question_mark():
    # Same value, but "4?" needs a wider tab than "4".
    sure = near(annotate(table(), dice((4, (300, 200, 360, 260), 0.95))), CONFIDENT)
    unsure = near(annotate(table(), dice((4, (300, 200, 360, 260), 0.3))), UNCERTAIN)
    tab_rows = slice(150, 198)  # the tab sits above the box
    assert np.count_nonzero(unsure[tab_rows].any(axis=0)) > np.count_nonzero(sure[tab_rows].any(axis=0))


def test_kept_dice_are_highlighted_with_a_thicker_box():
    two = dice((2, (100, 200, 160, 260), 0.95), (5, (400, 200, 460, 260), 0.95))
    out = annotate(table(), two, keep=[1])
    kept_edge = near(out[240:280, 430], KEEP)
    other_edge = near(out[240:280, 130], CONFIDENT)
    assert not near(out[:, :300], KEEP).any() and near(out[:, 300:], KEEP).any()
    assert np.count_nonzero(kept_edge) > np.count_nonzero(other_edge) > 0


def test_keep_must_name_dice_that_exist():
    with pytest.raises(ValueError, match=r"\[3\]"):
        annotate(table(), dice((2, (10, 10, 50, 50), 0.9)), keep=[0, 3])


def _tab_height(out: np.ndarray, colour) -> int:
    return int(np.count_nonzero(near(out, colour).sum(axis=1) > out.shape[1] * 0.01))


def test_labels_grow_with_the_photo():
    small = annotate(table(480, 640), dice((6, (200, 200, 260, 260), 0.95)))
    big = annotate(table(1920, 2560), dice((6, (800, 800, 1040, 1040), 0.95)))
    # Rows holding the tab or a horizontal box edge: about 4x more on a 4x taller photo.
    ratio = _tab_height(big, CONFIDENT) / _tab_height(small, CONFIDENT)
    assert 3 < ratio < 5.5


def test_grey_photo_and_boxes_outside_the_photo():
    grey = np.full((200, 300), 90, np.uint8)
    out = annotate(grey, dice((3, (-50, -50, 40, 40), 0.9), (1, (280, 180, 400, 260), 0.2)))
    assert out.shape == (200, 300, 3)
    assert near(out, CONFIDENT).any() and near(out, UNCERTAIN).any()


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint16), np.zeros((10, 10, 2), np.uint8)])
def test_unsupported_arrays_are_refused(bad):
    with pytest.raises(ValueError):
        annotate(bad, Dice.empty())


def test_misses_show_wrong_values_missed_and_extra_dice():
    labelled = dice((2, (100, 100, 160, 160), 1.0), (5, (300, 100, 360, 160), 1.0), (6, (100, 300, 160, 360), 1.0))
    predicted = dice((3, (102, 100, 160, 162), 0.9), (5, (300, 100, 360, 160), 0.9), (1, (500, 300, 560, 360), 0.9))
    out = annotate_misses(table(), predicted, labelled, match_boxes(labelled.boxes, predicted.boxes))
    assert near(out[80:170, 90:170], WRONG).any()  # read 3, is 2
    assert not near(out[80:170, 290:370], WRONG).any()  # read right
    assert near(out[280:370, 90:170], MISSED).any()  # nothing found where the 6 is
    assert near(out[260:300, 490:600], WRONG).any()  # the extra die's tab


def test_a_perfect_reading_has_no_miss_marks():
    labelled = dice((2, (100, 100, 160, 160), 1.0), (5, (300, 100, 360, 160), 1.0))
    out = annotate_misses(table(), labelled, labelled, match_boxes(labelled.boxes, labelled.boxes))
    assert np.array_equal(out, annotate(table(), labelled))
