"""The domino check's word (C355, C378): a die the read reports sure, and that a network seeing a
crop 2.5 sides wide gives `domino_asks` or more of being half a domino, is asked; without a count,
a die it gives `domino_drops` or more is left out. A domino's half is a die's face to the readers;
its other half beside it is what tells them apart. Real dice and a models folder without the
network are left as read."""

from __future__ import annotations

import numpy as np
import pytest
from same_reads import assert_same_reads
from test_samples import PHOTOS

from dicecam.vision.boxes import centres, inside
from dicecam.vision.candidates import ASKED_AT_MOST
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes
from dicecam.vision.photo_changes import dominoes
from dicecam.vision.reader import DOMINO_CHECK_FILE, DiceReader

PLAIN = [p for p in PHOTOS if not p.crop and len(p.dice)]


@pytest.fixture(scope="module")
def shipped() -> DiceReader:
    """The shipped reader: C355 as measured (models/HISTORY.md, session 71)."""
    reader = DiceReader()
    assert reader.settings.domino_asks == 0.95 and reader.domino_check is not None
    return reader


@pytest.fixture(scope="module")
def unasked() -> DiceReader:
    """The reader without the check's word: nothing asked, nothing left out."""
    return DiceReader(domino_asks=None, domino_drops=None)


def test_the_check_keeps_its_crop_contract(shipped) -> None:
    check = shipped.domino_check
    assert (check.size, check.context, check.lift) == (48, 2.5, 0.0)


@pytest.mark.parametrize("photo", PLAIN, ids=lambda p: p.image)
def test_real_dice_are_read_as_without_the_check(shipped, unasked, photo) -> None:
    assert_same_reads(shipped, unasked, photo)


def _with_dominoes(photo):
    image = load_image(photo.path)
    changed, boxes = dominoes(1.0)(image, photo.dice.boxes)
    return changed, boxes


def _among(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Which rows of `boxes` are also rows of `others`."""
    return (boxes[:, None, :] == others[None]).all(axis=2).any(axis=1)


def _on_dominoes(read, dice_boxes: np.ndarray) -> np.ndarray:
    """Which boxes of `read` lie on no labelled die (the photo's only other things are dominoes)."""
    matched = {int(j) for _, j in match_boxes(dice_boxes, read.boxes)}
    return np.array([j not in matched for j in range(len(read))], bool)


def test_most_domino_halves_read_surely_are_asked_and_nothing_else_moves(shipped, unasked) -> None:
    halves = asked = 0
    for photo in PLAIN:
        image, boxes = _with_dominoes(photo)
        if (image == load_image(photo.path)).all():
            continue  # no corner clear of the dice: nothing drawn
        for count in (None, len(photo.dice)):
            before, after = unasked.read(image, count=count), shipped.read(image, count=count)
            on = _on_dominoes(before, boxes)
            sure_halves = on & (before.confidences >= shipped.low_confidence)
            halves += int(sure_halves.sum())
            # Without a count the surest halves are left out (C378, tested below): no longer reported sure.
            stays = _among(before.boxes, after.boxes)
            asked += int((sure_halves & ~stays).sum())
            before, on, sure_halves = before[stays], on[stays], sure_halves[stays]
            np.testing.assert_array_equal(after.boxes, before.boxes)
            np.testing.assert_array_equal(after.values, before.values)
            asked += int((after.confidences[sure_halves] <= ASKED_AT_MOST).sum())
            # The dice of the throw are as they were.
            np.testing.assert_array_equal(after.confidences[~on], before.confidences[~on])
    assert halves >= 10  # the readers do take domino halves for dice: the test is not empty
    # Without the check they are read as surely as dice; with it most are asked or left out (the
    # probe of `benchmarks/robustness.py` on byler_d6 dev told the count: 80 silent mistakes -> 20).
    assert asked >= 0.75 * halves, (asked, halves)


def test_without_a_count_most_domino_halves_are_left_out_and_every_die_stays(shipped, unasked) -> None:
    halves = left = 0
    for photo in PLAIN:
        image, boxes = _with_dominoes(photo)
        if (image == load_image(photo.path)).all():
            continue
        before, after = unasked.read(image), shipped.read(image)
        on = _on_dominoes(before, boxes)
        gone = ~_among(before.boxes, after.boxes)
        assert not (gone & ~on).any(), photo.image  # only boxes off the dice are left out
        halves += int(on.sum())
        left += int((gone & on).sum())
    assert halves >= 20
    # byler_d6 dev with white dominoes drawn in: 443 false boxes -> 211 (C378, session 76).
    assert left >= 0.4 * halves, (left, halves)


def test_a_folder_without_the_check_asks_nothing(models_without, unasked) -> None:
    bare = DiceReader(models_without(DOMINO_CHECK_FILE), domino_asks=0.0)
    assert bare.domino_check is None
    photo = PLAIN[0]
    image, _ = _with_dominoes(photo)
    np.testing.assert_array_equal(bare.read(image).confidences, unasked.read(image).confidences)


def test_at_zero_every_sure_die_is_asked(unasked) -> None:
    always = DiceReader(domino_asks=0.0)
    photo = PLAIN[0]
    image = load_image(photo.path)
    before, after = unasked.read(image), always.read(image)
    sure = before.confidences >= always.low_confidence
    assert sure.any()
    assert (after.confidences[sure] <= ASKED_AT_MOST).all()
    assert inside(centres(after.boxes), before.boxes).any(axis=1).all()
