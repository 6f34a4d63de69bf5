"""Box checks asked as one (`vision.whole_die.EitherCheck`): the domino check and the chip check cut
the same wide crop once and a box's probability is the larger of theirs (C435)."""

from __future__ import annotations

import numpy as np
import pytest
from test_samples import PHOTOS

from dicecam.vision.decode import load_image
from dicecam.vision.onnx import session
from dicecam.vision.photo_changes import CHANGES
from dicecam.vision.reader import CHIP_CHECK_FILE, DEFAULT_MODELS, DOMINO_CHECK_FILE, WHOLE_DIE_FILE, DiceReader
from dicecam.vision.whole_die import EitherCheck, WholeDieCheck


def _check(name: str) -> WholeDieCheck:
    return WholeDieCheck(session(DEFAULT_MODELS / name, 1))


def test_a_box_s_probability_is_the_larger_of_the_two() -> None:
    dominoes, chips = _check(DOMINO_CHECK_FILE), _check(CHIP_CHECK_FILE)
    photo = next(p for p in PHOTOS if p.image == "byler_d6/IMG_20191208_111423.jpg")
    image, boxes = CHANGES["poker chips beside the dice"](load_image(photo.path), photo.dice.boxes)
    both = np.concatenate([boxes, np.array([[5, 5, 60, 60], [300, 10, 380, 90]], np.float32)])
    one = EitherCheck(dominoes, chips).probability(image, both)
    np.testing.assert_allclose(one, np.maximum(dominoes.probability(image, both), chips.probability(image, both)),
                               rtol=1e-5, atol=1e-6)
    assert EitherCheck(dominoes, chips).probability(image, np.zeros((0, 4), np.float32)).shape == (0,)
    each = EitherCheck(dominoes, chips).each(image, both)
    assert each.shape == (len(both), 2)
    np.testing.assert_allclose(each[:, 1], chips.probability(image, both), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(each.max(axis=1), one)


def test_checks_of_other_crops_are_not_asked_as_one() -> None:
    # The whole-die check cuts a narrower crop with a lift: one crop cannot serve both.
    with pytest.raises(ValueError, match="same crops"):
        EitherCheck(_check(DOMINO_CHECK_FILE), _check(WHOLE_DIE_FILE))


def test_the_reader_asks_the_chip_check_with_the_domino_check_where_both_are_shipped() -> None:
    assert isinstance(DiceReader().domino_check, EitherCheck)
    assert isinstance(DiceReader(chip_check=False).domino_check, WholeDieCheck)
