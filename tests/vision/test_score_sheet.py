"""A score block beside the throw (`vision.photo_changes.score_sheet`): the sheet lies clear of
every die, and the printed rows and pen digits on it are not read as dice where it matters; nor
are a Kniffel sheet's printed die faces, which without C430 set the photo's typical die and had
the throw's dice dropped as giants.
Dominoes beside it (`dominoes`, white or black) lie clear of the dice too; how the count passes
over their halves is `test_domino_passes.py`'s."""

from __future__ import annotations

import numpy as np
import pytest
from test_samples import NOT_YET_READ, PHOTOS, cases

from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import match_boxes, score_photo
from dicecam.vision.photo_changes import CHANGES, dominoes, score_sheet
from dicecam.vision.reader import DiceReader

SHEET, BIG_PRINT = "score sheet beside the dice", "big print beside the dice (digits half a die)"
FACES = "Kniffel sheet with printed faces beside the dice"
THROWS = [p for p in PHOTOS if not p.crop and p.image not in NOT_YET_READ]
#: Throws read exactly as taken but not, without a count, beside digits half a die tall. Until
#: session 76 two were here (byler_d6/IMG_20191208_111423.jpg, matteop65_wood/valid_70.jpg: a pen
#: 2 at 0.21, a 3 at 0.23, boxed as one more die, unsure); the domino check gives those digits
#: 0.99 or more, and without a count such boxes are left out (C378).
NOT_YET_CLEAN_BESIDE_BIG_PRINT: frozenset[str] = frozenset()


def _throw(dice_at: list[tuple[int, int]], side: int = 30) -> tuple[np.ndarray, np.ndarray]:
    image = np.full((300, 400, 3), 90, np.uint8)
    boxes = np.array([[x, y, x + side, y + side] for x, y in dice_at], np.float32).reshape(-1, 4)
    for x0, y0, x1, y1 in boxes.astype(int):
        image[y0:y1, x0:x1] = 240
    return image, boxes


def _drawn_beside(change, dice_at: list[tuple[int, int]]) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The throw changed by `change`, asserted to leave the labels and every die's pixels as
    they were, and the rows and columns it drew on (top, left, bottom, right)."""
    image, boxes = _throw(dice_at)
    changed, moved = change(image, boxes)
    assert np.array_equal(moved, boxes)
    for x0, y0, x1, y1 in boxes.astype(int):
        assert np.array_equal(changed[y0:y1, x0:x1], image[y0:y1, x0:x1])
    drawn = np.argwhere((changed != image).any(axis=2))
    (top, left), (bottom, right) = drawn.min(axis=0), drawn.max(axis=0)
    return changed, (int(top), int(left), int(bottom), int(right))


@pytest.mark.parametrize("dice_at", [[(200, 150)], [(10, 10), (60, 20)], [(350, 10)], [(10, 260), (350, 260)]])
def test_the_sheet_lies_in_a_corner_clear_of_every_die(dice_at):
    changed, (top, left, bottom, right) = _drawn_beside(score_sheet(0.3), dice_at)
    # One corner of the photo, a tenth to a third of each side, with ink on it.
    assert (left == 0 or right == 399) and (top == 0 or bottom == 299)
    assert 40 <= right - left + 1 <= 134 and 30 <= bottom - top + 1 <= 100
    assert (changed[top:bottom + 1, left:right + 1].max(axis=2) < 100).mean() > 0.03


@pytest.mark.parametrize("dice_at", [[(200, 150)], [(10, 10), (60, 20)], [(10, 260), (350, 260)]])
def test_dominoes_lie_in_a_corner_clear_of_every_die(dice_at):
    changed, (top, left, bottom, right) = _drawn_beside(dominoes(1.0), dice_at)
    # Within one corner third of the photo, with white tiles (halves 30 px, as the dice).
    assert (right < 134 or left >= 266) and (bottom < 100 or top >= 200)
    assert (changed[top:bottom + 1, left:right + 1].min(axis=2) > 200).sum() >= 2 * 30 * 30


def test_dark_dominoes_are_black_tiles_with_white_pips_where_the_white_ones_lie():
    white, (top, left, bottom, right) = _drawn_beside(dominoes(1.0), [(200, 150)])
    dark, _ = _drawn_beside(dominoes(1.0, dark=True), [(200, 150)])
    tiles = white[top:bottom + 1, left:right + 1].min(axis=2) > 200
    pips = white[top:bottom + 1, left:right + 1].max(axis=2) < 60
    # Where a white tile's body is, a black one's is, and its pips are white where the white
    # tile's were black.
    assert (dark[top:bottom + 1, left:right + 1][tiles].max(axis=1) < 60).mean() > 0.95
    assert (dark[top:bottom + 1, left:right + 1][pips].min(axis=1) > 200).mean() > 0.5


def test_the_same_photo_gets_the_same_sheet_and_a_crowded_one_none():
    image, boxes = _throw([(10, 10)])
    assert np.array_equal(score_sheet(0.3)(image, boxes)[0], score_sheet(0.3)(image, boxes)[0])
    # A die in every corner: no sheet fits, the photo stays as it was.
    image, boxes = _throw([(0, 0), (370, 0), (0, 270), (370, 270)])
    assert np.array_equal(score_sheet(0.3)(image, boxes)[0], image)
    # A photo too small for a ruled row keeps its pixels too.
    tiny = np.full((20, 24, 3), 90, np.uint8)
    assert np.array_equal(score_sheet(0.3)(tiny, np.zeros((0, 4), np.float32))[0], tiny)


def _ruled_lines(sheet: np.ndarray) -> int:
    """How many ruled lines cross the whole sheet (runs of rows inked from edge to edge)."""
    inked = (sheet.max(axis=2) < 100).mean(axis=1) > 0.9
    return int(np.count_nonzero(np.diff(np.r_[0, inked.astype(np.int8)]) == 1))


def test_bigger_digits_get_taller_rows():
    image, boxes = _throw([(300, 200)], side=20)
    lines = [_ruled_lines(score_sheet(d)(image, boxes)[0][:100, :133]) for d in (0.3, 0.5)]
    # Rows 1.4 digits tall: 100 px of sheet hold about 100 / (1.4 x 6) and 100 / (1.4 x 10) rows.
    assert lines[0] > lines[1] >= 6


def test_a_kniffel_sheet_prints_its_faces_in_the_names_column():
    image, boxes = _throw([(300, 200)], side=20)
    plain, with_faces = score_sheet(0.3)(image, boxes)[0], score_sheet(0.3, faces=0.35)(image, boxes)[0]
    changed = np.argwhere((plain != with_faces).any(axis=2))
    assert len(changed)
    # Only where the faces are printed (the end of the names' column, 40% of the sheet's width,
    # rows one to six), and nothing else of the sheet moves: its own random draws are as before.
    (top, left), (bottom, right) = changed.min(axis=0), changed.max(axis=0)
    assert right < 133 * 0.4 + 1 and bottom < 6 * 0.3 * 20 * 1.4 + 2
    assert (with_faces[top:bottom + 1, left:right + 1].max(axis=2) < 100).sum() >= 6 * 4


@pytest.mark.parametrize("change", [SHEET, BIG_PRINT, FACES])
@pytest.mark.parametrize("photo", cases(frozenset(), THROWS))
def test_told_the_count_a_throw_beside_a_score_sheet_reads_as_without_it(reader, photo, change):
    image, boxes = CHANGES[change](load_image(photo.path), photo.dice.boxes)
    truth = Dice(boxes, photo.dice.values, photo.dice.confidences)
    assert score_photo(truth, reader.read(image, count=len(photo.dice))).exact


def _beside(change: str, not_yet: frozenset[str]) -> list:
    """A case per sample throw beside `change`'s sheet; those in `not_yet` strict expected failures."""
    mark = pytest.mark.xfail(strict=True, reason="a digit beside the throw is boxed as a die")
    return [pytest.param(change, p, id=f"{change}-{p.image}", marks=[mark] if p.image in not_yet else [])
            for p in THROWS]


@pytest.mark.parametrize("change, photo",
                         _beside(SHEET, frozenset()) + _beside(BIG_PRINT, NOT_YET_CLEAN_BESIDE_BIG_PRINT))
def test_without_a_count_no_digit_on_the_sheet_is_a_die(reader, change, photo):
    image, boxes = CHANGES[change](load_image(photo.path), photo.dice.boxes)
    score = score_photo(Dice(boxes, photo.dice.values, photo.dice.confidences), reader.read(image))
    assert score.exact and score.precision == 1.0, score


@pytest.mark.parametrize("photo", THROWS, ids=[p.image for p in THROWS])
def test_without_a_count_a_kniffel_sheet_s_faces_take_no_die_s_place_and_none_is_sure(reader, photo):
    image, boxes = CHANGES[FACES](load_image(photo.path), photo.dice.boxes)
    got = reader.read(image)
    score = score_photo(Dice(boxes, photo.dice.values, photo.dice.confidences), got)
    assert score.right == len(photo.dice), score
    extra = np.ones(len(got), bool)
    extra[match_boxes(boxes, got.boxes)[:, 1]] = False
    assert (got.confidences[extra] < reader.low_confidence).all()


def test_the_sheet_s_faces_setting_the_typical_die_cost_throws():
    # C430's and C431's mechanism, shown where it matters: a reader whose typical die may be set
    # by the sheet's faces, and that drops every die over 2.2 times it, loses a sample throw
    # beside them (matteop65_wood's valid_45 at session 89). C433 mends it too (the domino check
    # passes the faces, set aside before the count's looks), so it is off here as it was then.
    old = DiceReader(printed_typical=False, giant_sure=None, pieces_aside=None)
    lost = []
    for photo in THROWS:
        image, boxes = CHANGES[FACES](load_image(photo.path), photo.dice.boxes)
        truth = Dice(boxes, photo.dice.values, photo.dice.confidences)
        if not score_photo(truth, old.read(image, count=len(photo.dice))).exact:
            lost.append(photo.image)
    assert lost
