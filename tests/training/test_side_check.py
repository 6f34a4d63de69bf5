"""The side check's examples: which boxes lie on a die's side face, and the side faces drawn from a die's picture."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("torch", reason="training needs the `train` extra")

from dicecam.training.data.photos import Sample
from dicecam.training.learn.side_check import CUT, drawn_sides, read_examples, side_faces
from dicecam.vision.boxes import centres, inside
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"

#: Two dice seen at an angle: top faces, and their whole pictures reaching 30 px below them.
TOPS = np.array([[100, 100, 140, 130], [300, 200, 340, 230]], np.float32)
PICTURES = np.array([[98, 98, 142, 160], [298, 198, 342, 260]], np.float32)


@pytest.mark.parametrize(("found", "readable", "die", "side"), [
    ([[102, 102, 138, 128]], None, [True], [False]),                          # on the top face
    ([[102, 102, 138, 128], [102, 132, 138, 158]], None, [True, False], [False, True]),  # and its front face
    ([[500, 500, 520, 520]], None, [False], [False]),                         # on the table: neither
    ([[302, 202, 338, 228]], [True, False], [False], [False]),                # an unreadable die counts for neither
    ([[102, 132, 138, 158]], None, [False], [True]),                          # the side face alone
])
def test_boxes_are_labelled_by_where_they_lie(found, readable, die, side) -> None:
    got_die, got_side = side_faces(TOPS, PICTURES, np.array(found, np.float32),
                                   None if readable is None else np.array(readable))
    np.testing.assert_array_equal(got_die, die)
    np.testing.assert_array_equal(got_side, side)


def test_without_the_dice_pictures_no_box_is_a_side_face() -> None:
    _, side = side_faces(TOPS, None, np.array([[102, 132, 138, 158]], np.float32))
    assert not side.any()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(0.0, 1.5), st.floats(0.0, 0.6))
def test_drawn_side_faces_lie_on_the_die_beside_its_top_face(seed, below, beside) -> None:
    top = np.array([[200, 200, 240, 230]], np.float32)
    h, w = 30, 40
    picture = np.array([[200 - beside * w, 198, 240, 230 + below * h]], np.float32)
    boxes = drawn_sides(top, picture, np.random.default_rng(seed), min_share=0.35, jitter=0.1)
    expected = int(below >= 0.35) + int(beside >= 0.35)
    assert len(boxes) == expected
    if len(boxes):
        assert not inside(centres(boxes), top).any()      # never the top face itself
        assert inside(centres(boxes), picture + np.array([-5, -5, 5, 5], np.float32)).all()  # on the die's picture


def test_unreadable_dice_give_no_drawn_side_face() -> None:
    boxes = drawn_sides(TOPS, PICTURES, np.random.default_rng(0), readable=np.array([False, False]))
    assert boxes.shape == (0, 4)


def test_a_rendered_throw_gives_crops_of_the_contract_labelled_both_ways() -> None:
    from dicecam.training.data.sources import synth_scene_source

    draw = synth_scene_source(upright=True, clutter=0.0)
    assert draw is not None
    rng = np.random.default_rng(3)
    samples = [draw(rng) for _ in range(4)]
    reader = DiceReader()
    got = [read_examples(reader, s, fold=-1, rng=rng) for s in samples]
    crops = np.concatenate([g.crops for g in got])
    labels = np.concatenate([g.labels for g in got])
    assert crops.shape[1:] == (CUT.size, CUT.size, 3)
    assert set(np.unique(labels)) <= {0.0, 1.0}
    readable = sum(int(np.sum(s.readable)) for s in samples if s.readable is not None)
    assert (labels == 0).sum() >= readable // 2  # most dice read
    assert (labels == 1).any()  # a throw at an angle shows side faces


def test_a_photo_of_top_faces_only_teaches_dice_only() -> None:
    # byler_d6 and matteop65_wood label top faces, not whole dice: no box of theirs is a side face.
    photo = next(p for p in read_dataset(SAMPLES) if "byler" in p.image and not p.crop and len(p.dice) >= 2)
    sample = Sample(load_image(photo.path), photo.dice.boxes, photo.dice.values, photo.image)
    got = read_examples(DiceReader(), sample, fold=2, rng=np.random.default_rng(0))
    assert len(got.labels) >= 2 * len(photo.dice) - 1  # told and without, nearly every die each time
    assert not (got.labels == 1).any()
    assert (got.folds == 2).all()
