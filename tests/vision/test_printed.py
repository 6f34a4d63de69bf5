"""Die faces printed in a row (`vision.printed`, C429): a score sheet's column of faces, values
counting up one by one at even steps, is found whichever way it runs and however the sheet is
seen; thrown dice, rows that do not count up, uneven steps and unlike sizes are not. The reader
asks about dice in such rows (told a count, rows of the boxes its rules kept rank last, C429b)
and reads real throws as before."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_samples import PHOTOS

from dicecam.training.render.objects import OBJECT_SETS
from dicecam.training.render.scene import render_scene
from dicecam.vision.boxes import centres, inside
from dicecam.vision.decode import load_image
from dicecam.vision.printed import printed_rows
from dicecam.vision.reader import DiceReader


def column(values, *, start=(200.0, 100.0), angle=90.0, size=30.0, gap=1.5, grow=1.0) -> np.ndarray:
    """Boxes (N, 4) of faces printed `gap` sizes apart along `angle` degrees, each `grow` times
    the size of the one before (a sheet seen at an angle: nearer faces are larger, further apart)."""
    direction = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    boxes, centre = [], np.array(start)
    for _ in values:
        boxes.append([*(centre - size / 2), *(centre + size / 2)])
        step = direction * size * gap
        size *= grow
        centre = centre + step * grow
    return np.array(boxes, np.float32)


@pytest.mark.parametrize("angle", [0, 37, 90, 180, 250, 315])
@pytest.mark.parametrize("values", [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [2, 3, 4], [4, 5, 6]])
def test_a_printed_column_is_found_whichever_way_it_runs(angle, values) -> None:
    assert printed_rows(column(values, angle=angle), np.array(values)).all()


@pytest.mark.parametrize("grow", [0.85, 0.92, 1.08, 1.15])
def test_a_sheet_seen_at_an_angle_is_a_row_too(grow) -> None:
    # Faces nearer the camera are larger and their steps longer by as much.
    assert printed_rows(column(range(1, 7), grow=grow), np.arange(1, 7)).all()


@pytest.mark.parametrize(("values", "why"), [
    ([1, 2], "two faces make no row"),
    ([1, 3, 5], "values skip"),
    ([2, 2, 2], "values repeat"),
    ([3, 1, 2], "values out of order"),
])
def test_rows_that_do_not_count_up_by_one_are_not_printed(values, why) -> None:
    assert not printed_rows(column(values), np.array(values)).any(), why


def test_an_uneven_step_ends_the_row() -> None:
    boxes = column([1, 2, 3, 4])
    boxes[2:] += np.array([12.0, 0.0, 12.0, 0.0], np.float32)  # 0.4 of a face's size off the line
    assert not printed_rows(boxes, np.array([1, 2, 3, 4])).any()


@pytest.mark.parametrize(("gap", "printed"), [(1.0, True), (1.9, True), (2.5, False)])
def test_faces_more_than_two_sizes_apart_are_no_sheet_s(gap, printed) -> None:
    # A sheet prints its faces about a face apart; three dice in a line far apart are chance
    # in a heap (byler_d6's IMG_20191208_112404: a 3, 4 and 5 2.7 sizes apart, C429c).
    assert printed_rows(column([3, 4, 5], gap=gap), np.array([3, 4, 5])).all() == printed


def test_unlike_sizes_are_not_one_sheet_s_faces() -> None:
    boxes = column([1, 2, 3])
    centre = (boxes[2, :2] + boxes[2, 2:]) / 2
    boxes[2] = [*(centre - 25), *(centre + 25)]  # 50 px beside 30 px faces
    assert not printed_rows(boxes, np.array([1, 2, 3])).any()


def test_the_row_s_length_and_reach_are_settings() -> None:
    boxes, values = column([1, 2, 3]), np.array([1, 2, 3])
    assert not printed_rows(boxes, values, length=4).any()
    boxes[2] += np.array([6.0, 0.0, 6.0, 0.0], np.float32)  # 0.2 of a face off where the step puts it
    assert printed_rows(boxes, values, reach=0.25).all()
    assert not printed_rows(boxes, values, reach=0.15).any()


def test_a_row_is_found_among_a_throw_s_dice_and_only_it() -> None:
    sheet = column([1, 2, 3, 4, 5, 6], start=(600.0, 80.0), size=24.0)
    throw = np.array([[100, 100, 160, 160], [230, 140, 290, 200], [150, 300, 210, 360],
                      [320, 280, 380, 340], [90, 420, 150, 480]], np.float32)
    boxes = np.concatenate([throw, sheet])
    values = np.array([3, 4, 5, 2, 6, 1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(printed_rows(boxes, values), np.arange(11) >= 5)


def test_nothing_read_is_nothing_printed() -> None:
    assert printed_rows(np.zeros((0, 4), np.float32), np.zeros(0, int)).shape == (0,)


boxes_and_values = st.integers(0, 12).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(st.integers(0, 900), st.integers(0, 900), st.integers(15, 80)), min_size=n, max_size=n),
    st.lists(st.integers(1, 6), min_size=n, max_size=n)))


def _boxes(drawn) -> np.ndarray:
    return np.array([[x, y, x + s, y + s] for x, y, s in drawn], np.float32).reshape(-1, 4)


@settings(max_examples=150, deadline=None)
@given(boxes_and_values, st.randoms(use_true_random=False))
def test_which_boxes_are_printed_does_not_hang_on_their_order(drawn, rnd) -> None:
    boxes, values = _boxes(drawn[0]), np.array(drawn[1], int)
    order = list(range(len(values)))
    rnd.shuffle(order)
    np.testing.assert_array_equal(printed_rows(boxes, values)[order], printed_rows(boxes[order], values[order]))


@settings(max_examples=150, deadline=None)
@given(boxes_and_values, st.sampled_from([0.5, 1.0, 2.0, 4.0]), st.integers(-300, 300), st.integers(-300, 300))
def test_nor_on_where_the_photo_puts_them_or_its_scale(drawn, scale, dx, dy) -> None:
    # Whole pixels and scales by powers of two: the same boxes to the last bit of their ratios.
    boxes, values = _boxes(drawn[0]), np.array(drawn[1], int)
    moved = (boxes.astype(np.float64) * scale + np.array([dx, dy, dx, dy])).astype(np.float32)
    np.testing.assert_array_equal(printed_rows(boxes, values), printed_rows(moved, values))


@settings(max_examples=150, deadline=None)
@given(boxes_and_values)
def test_only_values_with_a_neighbour_one_up_or_down_are_printed(drawn) -> None:
    boxes, values = _boxes(drawn[0]), np.array(drawn[1], int)
    rows = printed_rows(boxes, values)
    has_neighbour = np.array([(np.abs(values - v) == 1).any() for v in values], bool)
    assert not (rows & ~has_neighbour).any()


#: Rendered tables with a score sheet (`training.render.tiles`; renderer seeds, upright), where
#: the reader without rows reads some of the sheet's printed faces as sure dice: read free, and
#: (the last three) told the throw's count too. Asking is measured alone (`printed_typical` and
#: `giant_sure` off: with them the sheet's faces no longer set the typical die, and a die they
#: made a giant is kept, so other boxes are read, C430, C431).
SHEET_SCENES = (75, 122, 131, 149, 276)
TOLD_SHEET_SCENES = (131, 149, 276)


@pytest.fixture(scope="module")
def asking() -> DiceReader:
    reader = DiceReader(printed_typical=False, giant_sure=None)
    assert reader.settings.printed_rows == 3
    return reader


@pytest.fixture(scope="module")
def unasked() -> DiceReader:
    return DiceReader(printed_rows=None, giant_sure=None)


@pytest.fixture(scope="module")
def shipped() -> DiceReader:
    return DiceReader()


@pytest.fixture(scope="module")
def without() -> DiceReader:
    return DiceReader(printed_rows=None)


def _sheet_scene(seed: int):
    scene = render_scene(np.random.default_rng(seed), upright=True, clutter=1.0, objects=OBJECT_SETS["tiles"])
    sheets = np.array([b for b, k in zip(scene.decoys, scene.decoy_kinds) if k == "score_sheet"],
                      np.float32).reshape(-1, 4)
    return scene, sheets


def _sure_on(dice, boxes, low: float) -> np.ndarray:
    return inside(centres(dice.boxes), boxes).any(axis=1) & (dice.confidences >= low)


@pytest.mark.parametrize("seed", SHEET_SCENES)
def test_a_score_sheet_s_printed_faces_are_asked(asking, unasked, seed) -> None:
    scene, sheets = _sheet_scene(seed)
    before, got = unasked.read(scene.image), asking.read(scene.image)
    assert _sure_on(before, sheets, unasked.low_confidence).any(), "read sure without the step"
    assert not _sure_on(got, sheets, asking.low_confidence).any()
    # Without a count it only asks: the same boxes and values.
    np.testing.assert_array_equal(got.boxes, before.boxes)
    np.testing.assert_array_equal(got.values, before.values)


@pytest.mark.parametrize("seed", TOLD_SHEET_SCENES)
def test_told_the_count_no_printed_face_is_a_sure_die(asking, unasked, seed) -> None:
    scene, sheets = _sheet_scene(seed)
    count = len(scene.dice)
    before, got = unasked.read(scene.image, count=count), asking.read(scene.image, count=count)
    assert _sure_on(before, sheets, unasked.low_confidence).any()
    assert not _sure_on(got, sheets, asking.low_confidence).any()
    assert len(got) == len(before)


REAL = [p for p in PHOTOS if not p.crop]


@pytest.mark.parametrize("photo", REAL, ids=[p.image for p in REAL])
def test_real_throws_and_heaps_read_as_without_it(shipped, without, photo) -> None:
    image = load_image(photo.path)
    for count in (None, len(photo.dice)):
        got, before = shipped.read(image, count=count), without.read(image, count=count)
        np.testing.assert_array_equal(got.boxes, before.boxes)
        np.testing.assert_array_equal(got.values, before.values)
        np.testing.assert_array_equal(got.confidences, before.confidences)
