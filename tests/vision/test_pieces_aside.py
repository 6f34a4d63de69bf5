"""Pieces set aside before the count's looks (C433): told a throw's count where the first look
keeps that many boxes or more, the kept boxes the domino check gives `pieces_aside` (0.9) or more neither
make the count nor set the typical die; the closer looks and the search then follow as for a
throw short of dice, and the pieces come back after, kept by no rule. Those looks box nothing
again where a piece lies (C438)."""

from __future__ import annotations

import numpy as np
import pytest
from test_samples import PHOTOS

from dicecam.vision.boxes import iou
from dicecam.vision.candidates import filled
from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import match_boxes, score_photo
from dicecam.vision.photo_changes import CHANGES, dominoes
from dicecam.vision.reader import DiceReader

PLAIN = [p for p in PHOTOS if not p.crop and len(p.dice)]
#: A Catan photo's two dice beside white dominoes: a half filled the count in a die's place
#: until C433 (session 90).
BESIDE_DOMINOES = "roboflow_dice/dice_309_jpg.rf.74db48dfe3726e2f26935862998574cf.jpg"
#: A Catan pair of 20 px dice beside poker chips three times their size: the chips were set aside,
#: but the search boxed them again, they were judged dice, and the pair was dropped as too small
#: beside them until C438 (session 91).
BESIDE_CHIPS = "roboflow_dice/dice_260_jpg.rf.6c077cc54516aefe15c9ddd03ab9356f.jpg"


@pytest.fixture(scope="module")
def before() -> DiceReader:
    return DiceReader(pieces_aside=None)


def _beside_dominoes(image_name: str) -> tuple[np.ndarray, Dice]:
    photo = next(p for p in PHOTOS if p.image == image_name)
    image, boxes = dominoes(1.0)(load_image(photo.path), photo.dice.boxes)
    return image, Dice(boxes, photo.dice.values, photo.dice.confidences)


def test_a_throw_s_die_takes_its_place_back_from_a_domino_half(reader, before) -> None:
    image, truth = _beside_dominoes(BESIDE_DOMINOES)
    assert reader.settings.pieces_aside is not None
    assert not score_photo(truth, before.read(image, count=len(truth))).exact
    assert score_photo(truth, reader.read(image, count=len(truth))).exact


def test_the_halves_set_aside_come_back_kept_by_no_rule(reader) -> None:
    image, truth = _beside_dominoes(BESIDE_DOMINOES)
    found = reader.counted(image, len(truth))
    halves = reader.domino_check.probability(image, found.boxes) >= reader.settings.pieces_aside
    on_dice = np.zeros(len(found), bool)
    on_dice[match_boxes(truth.boxes, found.boxes)[:, 1]] = True
    # Boxes on the dominoes are still candidates (the count may need them), but none is kept.
    assert (halves & ~on_dice).any()
    assert not filled(found.kept, "kept")[halves & ~on_dice].any()


@pytest.mark.parametrize("photo", PLAIN, ids=[p.image for p in PLAIN])
def test_plain_throws_read_as_before(reader, before, photo) -> None:
    image = load_image(photo.path)
    now, then = reader.read(image, count=len(photo.dice)), before.read(image, count=len(photo.dice))
    np.testing.assert_array_equal(now.values, then.values)
    np.testing.assert_allclose(now.boxes, then.boxes)


def test_without_a_count_nothing_is_set_aside(reader, before) -> None:
    image, _ = _beside_dominoes(BESIDE_DOMINOES)
    now, then = reader.read(image), before.read(image)
    np.testing.assert_array_equal(now.values, then.values)
    np.testing.assert_allclose(now.confidences, then.confidences)


def test_heaps_past_a_throw_are_not_looked_at(reader, before) -> None:
    # Past six dice the count is a heap's, and its looks are sized as before.
    image, _ = _beside_dominoes(BESIDE_DOMINOES)
    now, then = reader.counted(image, 7), before.counted(image, 7)
    np.testing.assert_allclose(now.boxes, then.boxes)


def test_a_sheet_s_printed_faces_set_aside_set_no_typical_die() -> None:
    # The domino check passes a Kniffel sheet's small printed faces: set aside, they no longer set
    # the typical die that had matteop65_wood's valid_45 dropped as a giant (C430's case), even
    # with C430's and C431's own mends off.
    photo = next(p for p in PHOTOS if p.image == "matteop65_wood/valid_45.jpg")
    image, boxes = CHANGES["Kniffel sheet with printed faces beside the dice"](load_image(photo.path), photo.dice.boxes)
    truth = Dice(boxes, photo.dice.values, photo.dice.confidences)
    for aside, exact in ((None, False), (0.9, True)):
        reader = DiceReader(printed_typical=False, giant_sure=None, pieces_aside=aside)
        assert score_photo(truth, reader.read(image, count=len(photo.dice))).exact == exact


def _beside_chips() -> tuple[np.ndarray, Dice]:
    photo = next(p for p in PHOTOS if p.image == BESIDE_CHIPS)
    image, boxes = CHANGES["poker chips beside the dice"](load_image(photo.path), photo.dice.boxes)
    return image, Dice(boxes, photo.dice.values, photo.dice.confidences)


def test_the_looks_box_no_piece_set_aside_again(reader) -> None:
    image, truth = _beside_chips()
    again = DiceReader(pieces_stay_aside=False)
    assert not score_photo(truth, again.read(image, count=len(truth))).exact
    assert score_photo(truth, reader.read(image, count=len(truth))).exact
    found = reader.counted(image, len(truth))
    pieces = np.flatnonzero(reader.domino_check.probability(image, found.boxes) >= reader.settings.pieces_aside)
    assert len(pieces) >= 3
    # Each chip is one box, set aside and unkept: no second box on it from the search.
    near = iou(found.boxes[pieces], found.boxes) >= 0.5
    near[np.arange(len(pieces)), pieces] = False
    assert not near.any()
    assert not filled(found.kept, "kept")[pieces].any()
