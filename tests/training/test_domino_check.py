"""The domino check's examples: dominoes painted clear of the dice, and the reader's boxes on each labelled."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")

from dicecam.training.learn import domino_check
from dicecam.training.learn.domino_check import CUT, caught_above_every_die, examples, paste_chips, paste_dominoes
from dicecam.vision.boxes import centres
from dicecam.vision.dataset import read_dataset
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"

DICE = np.array([[100, 100, 140, 140], [300, 200, 340, 240]], np.float32)


@pytest.mark.parametrize(("rows", "clear"), [(0.0, 2.2), (1.0, 3.5)])  # single dominoes; rows of them
@pytest.mark.parametrize("seed", range(5))
def test_dominoes_are_painted_clear_of_the_dice_and_of_each_other(seed, rows, clear) -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    boxes = paste_dominoes(image, DICE, np.random.default_rng(seed), side=40, rows=rows)
    assert 1 <= len(boxes) <= 4
    away = np.abs(centres(boxes)[:, None] - centres(DICE)[None]).max(axis=2)
    assert (away >= clear * 40).all()
    apart = np.abs(centres(boxes)[:, None] - centres(boxes)[None]).max(axis=2) + np.eye(len(boxes)) * 1e9
    assert (apart >= (clear + 0.3) * 40).all()
    for x0, y0, x1, y1 in DICE.astype(int):
        assert (image[y0:y1, x0:x1] == 120).all()  # the dice's places are untouched
    assert (image != 120).any(axis=2).sum() > len(boxes) * 40 * 40  # each domino two halves' worth


def test_no_rows_asked_paints_as_before_rows_existed() -> None:
    # `rows` 0 draws no extra random number: the shipped check's examples are made again exactly.
    a, b = np.full((480, 640, 3), 120, np.uint8), np.full((480, 640, 3), 120, np.uint8)
    boxes_a = paste_dominoes(a, DICE, np.random.default_rng(7), side=40)
    rng = np.random.default_rng(7)
    boxes_b = paste_dominoes(b, DICE, rng, side=40, rows=0.0)
    np.testing.assert_array_equal(boxes_a, boxes_b)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", range(5))
def test_chips_are_painted_clear_of_the_dice_and_of_each_other_a_die_or_more_across(seed) -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    boxes = paste_chips(image, DICE, np.random.default_rng(seed), side=40)
    assert 1 <= len(boxes) <= 3
    across = boxes[:, 2] - boxes[:, 0]
    assert ((across >= 40) & (across <= 2.6 * 40)).all()  # 1.0-2.6 dice, as real chips beside dice
    away = np.abs(centres(boxes)[:, None] - centres(DICE)[None]).max(axis=2)
    assert (away >= 2.2 * 40).all()
    for x0, y0, x1, y1 in DICE.astype(int):
        assert (image[y0:y1, x0:x1] == 120).all()


@pytest.mark.parametrize("seed", range(5))
def test_varied_chips_are_seen_at_an_angle_clear_of_the_dice(seed) -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    boxes = paste_chips(image, DICE, np.random.default_rng(seed), side=40, varied=True)
    assert len(boxes)
    away = np.abs(centres(boxes)[:, None] - centres(DICE)[None]).max(axis=2)
    assert (away >= 2.2 * 40).all()
    for x0, y0, x1, y1 in DICE.astype(int):
        assert (image[y0:y1, x0:x1] == 120).all()
    for x0, y0, x1, y1 in boxes.astype(int):  # each box holds a painted chip, the table round it
        assert (image[y0:y1, x0:x1] != 120).any(axis=2).mean() > 0.3


def test_varied_chips_change_nothing_unasked() -> None:
    # Without `varied` the chips are painted as before C439, draw for draw.
    a, b = (np.full((480, 640, 3), 120, np.uint8) for _ in range(2))
    first = paste_chips(a, DICE, np.random.default_rng(2), side=40)
    again = paste_chips(b, DICE, np.random.default_rng(2), side=40, varied=False)
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(a, b)


def test_a_photo_too_small_for_a_domino_gets_none() -> None:
    image = np.zeros((60, 60, 3), np.uint8)
    assert paste_dominoes(image, np.zeros((0, 4)), np.random.default_rng(0), side=40).shape == (0, 4)
    assert not image.any()


@pytest.mark.parametrize(("probs", "labels", "line", "caught"), [
    ([0.1, 0.3, 0.9, 0.2], [0, 0, 1, 1], 0.3, 0.5),
    ([0.1, 0.95, 0.9, 0.99], [0, 0, 1, 1], 0.95, 0.5),
    ([0.1, 0.2, 0.9, 0.99], [0, 0, 1, 1], 0.2, 1.0),
])
def test_the_line_lies_above_every_die(probs, labels, line, caught) -> None:
    got_line, got_caught = caught_above_every_die(np.array(probs), np.array(labels, np.float32))
    assert got_line == pytest.approx(line) and got_caught == pytest.approx(caught)


def test_the_reader_s_boxes_on_pasted_dominoes_are_labelled_dominoes(monkeypatch) -> None:
    reader = DiceReader(**domino_check.UNCHECKED)  # as `main` reads them
    photos = [p for p in read_dataset(SAMPLES) if 2 <= len(p.dice) <= 6][:3]
    assert photos
    monkeypatch.setattr(domino_check, "read_dataset", lambda root, split: photos)
    data = examples(reader, SAMPLES.parent, sets=("samples",))
    assert data.crops.shape[1:] == (CUT.size, CUT.size, 3)
    assert len(data.labels) == len(data.folds) == len(data.confidences) == len(data.crops)
    # Every labelled die the reader finds is a "die" example, told the count and without.
    found = sum(len(p.dice) for p in photos)
    assert (data.labels == 0).sum() >= found  # twice over, less any the reader misses
    # The shipped reader takes painted domino halves for dice (what the check is for).
    assert (data.labels == 1).sum() > 0
    assert set(np.unique(data.folds)) <= set(range(5))


def test_a_set_with_nothing_to_paste_gives_no_examples(monkeypatch) -> None:
    monkeypatch.setattr(domino_check, "read_dataset", lambda root, split: [])
    data = examples(DiceReader(), SAMPLES.parent, sets=("samples",))
    assert data.crops.shape == (0, CUT.size, CUT.size, 3) and not len(data.labels) and not len(data.folds)


def test_rendered_throws_give_dice_always_learned_and_join_the_photos_examples(monkeypatch) -> None:
    from dicecam.training.learn.domino_check import joined, rendered_examples

    reader = DiceReader()
    drawn = rendered_examples(reader, scenes=3, seed=1)
    assert drawn.crops.shape[1:] == (CUT.size, CUT.size, 3)
    assert (drawn.folds == -1).all() and (drawn.labels == 0).sum() > 0  # a rendered throw's dice are read
    assert not len(rendered_examples(reader, scenes=0).labels)
    # A chip check's rendered examples learn no domino: every box is a die's (C437).
    assert (rendered_examples(reader, scenes=3, seed=1, dominoes=False).labels == 0).all()
    monkeypatch.setattr(domino_check, "read_dataset", lambda root, split: [])
    both = joined(examples(reader, SAMPLES.parent, sets=("samples",)), drawn)
    assert len(both.labels) == len(drawn.labels) and (both.crops == drawn.crops).all()


def test_saved_examples_load_back_as_they_were(tmp_path) -> None:
    from dicecam.training.learn.domino_check import Examples, loaded, saved

    rng = np.random.default_rng(5)
    data = Examples(rng.integers(0, 256, (3, CUT.size, CUT.size, 3), dtype=np.uint8),
                    np.array([1, 0, 1], np.float32), np.array([0, 4, -1]), np.array([0.9, 0.5, 0.99], np.float32))
    saved(data, tmp_path / "cache" / "examples.npz")
    back = loaded(tmp_path / "cache" / "examples.npz")
    for name in ("crops", "labels", "folds", "confidences"):
        assert np.array_equal(getattr(back, name), getattr(data, name))
        assert getattr(back, name).dtype == getattr(data, name).dtype
