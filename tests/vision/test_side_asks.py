"""The side check's word (C397): seen at an angle, a die's side face shows pips as plainly as its
top face and the readers read it as a second die. A sure die that a network seeing the box with
what lies above it gives `side_asks` or more of being a side face is asked; told a count, kept
boxes it gives `side_passes` or more rank last; without one, what it gives `side_drops` or more
is left out. Plain photos and a models folder without the network are left as read."""

from __future__ import annotations

import numpy as np
import pytest
from same_reads import assert_same_reads
from test_samples import PHOTOS

from dicecam.vision.boxes import centres, inside
from dicecam.vision.candidates import ASKED_AT_MOST
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes
from dicecam.vision.reader import SIDE_CHECK_FILE, DiceReader

PLAIN = [p for p in PHOTOS if not p.crop and len(p.dice)]
#: Rendered upright throws among clutter (`synth_scene_source(upright=True, clutter=1.0)` drawn
#: with `default_rng(seed)`; training draws its scenes from one generator seeded 397) on which
#: the reader without the check reports a die's side face surely, told the count or not.
SIDE_FACE_SEEDS = (21, 35, 47, 82, 102, 126, 143, 243, 252, 257, 293, 298)


@pytest.fixture(scope="module")
def shipped() -> DiceReader:
    """The shipped reader: C397 as measured (models/HISTORY.md, session 81)."""
    reader = DiceReader()
    s = reader.settings
    assert (s.side_asks, s.side_passes, s.side_drops) == (0.9, 0.5, 0.95) and reader.side_check is not None
    return reader


@pytest.fixture(scope="module")
def unasked() -> DiceReader:
    """The reader without the check's word: nothing asked, ranked or left out for it."""
    return DiceReader(side_asks=None, side_passes=None, side_drops=None)


@pytest.fixture(scope="module")
def scenes():
    pytest.importorskip("torch", reason="the renderer comes with the `train` extra")
    from dicecam.training.data.sources import synth_scene_source

    draw = synth_scene_source(upright=True, clutter=1.0)
    assert draw is not None
    return [draw(np.random.default_rng(seed)) for seed in SIDE_FACE_SEEDS]


def test_the_check_keeps_its_crop_contract(shipped) -> None:
    check = shipped.side_check
    assert (check.size, check.context, check.lift) == (48, 3.0, 0.25)


@pytest.mark.parametrize("photo", PLAIN, ids=lambda p: p.image)
def test_real_dice_are_read_as_without_the_check(shipped, unasked, photo) -> None:
    assert_same_reads(shipped, unasked, photo)


def _sure_side_faces(reader: DiceReader, scene, count: int | None) -> tuple[int, int]:
    """How many side-face boxes `reader` reports surely on `scene`, and how many readable dice it reads right surely."""
    read = reader.read(scene.image, count=count)
    sure = read.confidences >= reader.low_confidence
    pairs = match_boxes(scene.boxes, read.boxes)
    paired = np.zeros(len(read), bool)
    paired[pairs[:, 1]] = True
    on_die = inside(centres(read.boxes), scene.die_boxes).any(axis=1)
    right = sum(1 for t, j in pairs if scene.readable[t] and sure[j] and read.values[j] == scene.values[t])
    return int((sure & ~paired & on_die).sum()), right


def test_side_faces_read_surely_are_fewer_and_right_dice_stay(shipped, unasked, scenes) -> None:
    before_sides = after_sides = before_right = after_right = 0
    for scene in scenes:
        for count in (None, len(scene.values)):
            sides, right = _sure_side_faces(unasked, scene, count)
            before_sides, before_right = before_sides + sides, before_right + right
            sides, right = _sure_side_faces(shipped, scene, count)
            after_sides, after_right = after_sides + sides, after_right + right
    assert before_sides >= 20  # the reader does take side faces for dice here: the test is not empty
    # Session 81 on these scenes, told and without a count together: 24 -> 20 (half of them in
    # heaps of 14-29 dice, where the check catches few); on the benchmark's 300 scenes 44 -> 16
    # (models/HISTORY.md, C397). It costs a heap's die now and then: right dice read surely here
    # 181 -> 179 (one die of a 29-dice heap, told and without), on the benchmark 1,429 -> 1,427.
    assert after_sides <= before_sides - 3, (before_sides, after_sides)
    assert after_right >= 0.98 * before_right, (before_right, after_right)


def test_a_folder_without_the_check_asks_nothing(models_without, unasked, scenes) -> None:
    bare = DiceReader(models_without(SIDE_CHECK_FILE), side_asks=0.0, side_passes=0.0, side_drops=0.0)
    assert bare.side_check is None
    image = scenes[0].image
    for count in (None, len(scenes[0].values)):
        np.testing.assert_array_equal(bare.read(image, count=count).confidences,
                                      unasked.read(image, count=count).confidences)


def test_at_zero_every_sure_die_is_asked(unasked) -> None:
    always = DiceReader(side_asks=0.0, side_passes=None, side_drops=None)
    photo = PLAIN[0]
    image = load_image(photo.path)
    before, after = unasked.read(image), always.read(image)
    sure = before.confidences >= always.low_confidence
    assert sure.any()
    assert (after.confidences[sure] <= ASKED_AT_MOST).all()
    np.testing.assert_array_equal(after.boxes, before.boxes)


def test_a_small_die_the_free_look_finds_on_a_board_is_reported(shipped, roboflow_photos) -> None:
    """C397 gives dice_320's red die 0.958 of being a side face (a number token lies above it),
    and left out the die the own-size look found; the first look reads it as a faint peak now
    (C421), judged with the throw's other die."""
    photo, = roboflow_photos("dev", "dice_320_jpg")
    found = shipped.read(load_image(photo.path))
    assert len(match_boxes(photo.dice.boxes, found.boxes)) == len(photo.dice)
