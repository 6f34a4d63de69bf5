"""The top look (C328): a throw's die the read left unsure, seen from low down (the view
check), whose box's upper part the top reader reads as another value surely, takes that value
and is still asked. Seen from low down a die is boxed whole, top and front face, and the box's
centre is its front face; seen from above the upper part cuts the face, so such dice stay as read."""

from __future__ import annotations

import shutil
from dataclasses import replace

import cv2
import numpy as np
import pytest
from test_samples import PHOTOS

from dicecam.vision.candidates import ASKED_AT_MOST
from dicecam.vision.decode import load_image
from dicecam.vision.face_reader import rect_crop, square_crop
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DEFAULT_MODELS, THROW_AT_MOST, TOP_READER_FILE, VIEW_FILE, DiceReader

#: roboflow_dice dev throws of two dice seen from low down: one die's front face was read
#: for its top (a 1 for a 4, a 3 for a 5, a 6 for a 3), and the upper part of its box reads it right.
FRONT_FACE_READ = ("dice_181_jpg", "dice_291_jpg", "dice_363_jpg")


@pytest.fixture(scope="module")
def looking() -> DiceReader:
    """The shipped reader: C328, its lines from C365 (models/HISTORY.md, sessions 66 and 74)."""
    reader = DiceReader()
    s = reader.settings
    assert (s.top_look_share, s.top_look_sure, s.top_look_only_unsure, s.top_look_view) == (0.75, 0.6, True, 0.7)
    assert reader.view is not None and reader.top_face is not reader.face
    return reader


@pytest.fixture(scope="module")
def centre_only() -> DiceReader:
    """The shipped reader without the top look."""
    return DiceReader(top_look_share=None)


@pytest.fixture(scope="module")
def low_views(roboflow_photos):
    return roboflow_photos("dev", *FRONT_FACE_READ)


def test_a_rect_crop_stretches_the_upper_part_square() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    image[:100] = (0, 0, 255)  # red above y 100, black below
    crop = rect_crop(image, 100, 70, 80, 40, 48)  # 80 x 40 around (100, 70): all red
    assert crop.shape == (48, 48, 3)
    assert (crop[..., 2] == 255).all() and (crop[..., :2] == 0).all()


def test_a_square_crop_is_a_rect_crop_of_equal_sides() -> None:
    rng = np.random.default_rng(5)
    image = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    for cx, cy, side in [(80, 60, 50), (5, 5, 30), (150, 110, 90)]:  # inside, and over the edges
        np.testing.assert_array_equal(square_crop(image, cx, cy, side, 48), rect_crop(image, cx, cy, side, side, 48))


def test_top_crops_read_the_box_s_upper_part(looking) -> None:
    face = looking.top_face
    image = np.full((400, 400, 3), 40, np.uint8)
    box = np.array([[100, 100, 200, 220]], np.float32)
    # The upper three quarters, grown by the crop scale, end at 100 + 90 * (1 + s) / 2.
    bottom = int(np.ceil(100 + 90 * (1 + face.crop_scale) / 2))
    image[bottom + 1:] = 255
    crops = face.top_crops(image, box, 0.75)
    assert crops.shape == (1, 3, face.crop_size, face.crop_size)
    assert crops.max() <= 40 / 255 + 1e-6  # nothing of the white below it
    assert face.crops(image, box).max() == pytest.approx(1.0)  # the centred crop reaches it


@pytest.mark.parametrize("count", [2, None])
def test_a_front_face_read_for_the_top_is_read_again_and_asked(looking, centre_only, low_views, count) -> None:
    checked = 0
    for photo in low_views:
        image = load_image(photo.path)
        before, after = centre_only.read(image, count=count), looking.read(image, count=count)
        if count is None and score_photo(photo.dice, before).matched < len(photo.dice):
            continue  # without a count the first look may not find both dice; the told read does
        checked += 1
        assert not score_photo(photo.dice, before).exact, photo.image
        assert score_photo(photo.dice, after).exact, photo.image
        np.testing.assert_array_equal(after.boxes, before.boxes)
        moved = after.values != before.values
        assert moved.sum() == 1
        assert after.confidences[moved][0] <= ASKED_AT_MOST  # two readings disagree: ask the player
        np.testing.assert_array_equal(after.confidences[~moved], before.confidences[~moved])
    assert checked >= 1


def test_read_counted_looks_at_the_top_too(looking, low_views) -> None:
    for photo in low_views:
        image = load_image(photo.path)
        counted = looking.read_counted(image, len(photo.dice))
        np.testing.assert_array_equal(counted.dice.values, looking.read(image, count=len(photo.dice)).values)
        assert score_photo(photo.dice, counted.dice).exact, photo.image


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.image)
def test_plain_tables_seen_from_above_read_the_same(looking, centre_only, photo) -> None:
    image = load_image(photo.path)
    for count in (len(photo.dice), None):
        after, before = looking.read(image, count=count), centre_only.read(image, count=count)
        np.testing.assert_array_equal(after.values, before.values)
        np.testing.assert_array_equal(after.confidences, before.confidences)


def test_a_heap_is_not_looked_at_again(monkeypatch) -> None:
    every_die = DiceReader(top_look_only_unsure=False, top_look_view=None)  # a throw's every die is looked at
    heap = next(p for p in PHOTOS if len(p.dice) > THROW_AT_MOST)
    looked: list[np.ndarray] = []
    crops = every_die.top_face.top_crops

    def top_crops(image: np.ndarray, boxes: np.ndarray, share: float) -> np.ndarray:
        looked.append(boxes)
        return crops(image, boxes, share)

    monkeypatch.setattr(every_die.top_face, "top_crops", top_crops)
    dice = every_die.read(load_image(heap.path))
    assert len(dice) > THROW_AT_MOST and not looked
    every_die.read(load_image(next(p for p in PHOTOS if 1 <= len(p.dice) <= THROW_AT_MOST).path))
    assert len(looked) == 1  # a throw is


def test_a_die_the_read_is_sure_of_keeps_its_value(looking, centre_only, low_views) -> None:
    for photo in low_views:
        image = load_image(photo.path)
        read = centre_only.read(image, count=len(photo.dice))
        unsure = looking._top_looked(image, read)
        assert (unsure.values != read.values).any(), photo.image  # left unsure, a front face moves
        sure = replace(read, confidences=np.full(len(read), 0.9, np.float32))
        np.testing.assert_array_equal(looking._top_looked(image, sure).values, read.values)


def test_a_die_seen_from_above_keeps_its_value(centre_only, low_views) -> None:
    never_low = DiceReader(top_look_view=1.01)  # the view check never says "from low down" that surely
    for photo in low_views:
        image = load_image(photo.path)
        read = centre_only.read(image, count=len(photo.dice))
        np.testing.assert_array_equal(never_low._top_looked(image, read).values, read.values)


def test_without_a_view_check_no_die_moves(tmp_path, centre_only, low_views) -> None:
    for path in DEFAULT_MODELS.glob("*"):
        if path.name != VIEW_FILE:
            shutil.copy(path, tmp_path / path.name)
    blind = DiceReader(tmp_path)
    assert blind.view is None and (tmp_path / TOP_READER_FILE).is_file()
    for photo in low_views:
        image = load_image(photo.path)
        read = centre_only.read(image, count=len(photo.dice))
        np.testing.assert_array_equal(blind._top_looked(image, read).values, read.values)


def test_the_view_check_tells_low_views_from_views_from_above(looking, low_views) -> None:
    low = np.concatenate([looking.view.low_view(load_image(p.path), p.dice.boxes) for p in low_views])
    assert (low >= 0.5).all()
    # Plain tables' throws, photographed from above (a heap has dice on dice, and is not looked at).
    above = [p for p in PHOTOS if p.image.startswith(("byler_d6", "matteop65_wood")) and len(p.dice) <= THROW_AT_MOST]
    assert len(above) >= 4
    from_above = np.concatenate([looking.view.low_view(load_image(p.path), p.dice.boxes) for p in above])
    assert (from_above < 0.5).mean() >= 0.95, np.round(from_above, 2)


def test_the_view_check_cuts_a_square_around_the_box(looking) -> None:
    view = looking.view
    image = np.zeros((300, 300, 3), np.uint8)
    box = np.array([[100, 120, 150, 160]], np.float32)  # 50 wide: a square of 90 around (125, 140)
    image[95:185, 80:170] = 200
    crops = view.crops(image, box)
    assert crops.shape == (1, 3, view.size, view.size)
    np.testing.assert_allclose(crops, 200 / 255, atol=1e-6)
    np.testing.assert_array_equal(view.low_view(image, np.zeros((0, 4), np.float32)), np.zeros(0, np.float32))


def test_a_grey_photo_is_looked_at_as_colour(looking) -> None:
    photo = next(p for p in PHOTOS if 1 <= len(p.dice) <= THROW_AT_MOST)
    colour = load_image(photo.path)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    as_grey, as_colour = looking.read(grey), looking.read(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))
    assert len(as_grey) >= 1
    np.testing.assert_array_equal(as_grey.values, as_colour.values)
    np.testing.assert_array_equal(as_grey.confidences, as_colour.confidences)
