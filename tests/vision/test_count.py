"""A known count of dice: `DiceReader.read(image, count=N)` returns the N likeliest dice of one throw."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_samples import PHOTOS

from dicecam.vision.decode import load_image
from dicecam.vision.metrics import score_photo

SCENES = [p for p in PHOTOS if not p.crop]


def _same_boxes(a: np.ndarray, b: np.ndarray) -> set[tuple[float, ...]]:
    return {tuple(np.round(x, 2)) for x in a} & {tuple(np.round(x, 2)) for x in b}


@pytest.fixture(scope="module")
def images():
    return {p.image: load_image(p.path) for p in SCENES}


@pytest.mark.parametrize("photo", SCENES, ids=lambda p: p.image)
def test_the_labelled_count_gives_that_many_dice(reader, images, photo):
    n = len(photo.dice)
    found = reader.read(images[photo.image], count=n)
    assert len(found) == n
    # Told the count, the reading is never worse than without it on the shipped samples.
    told, untold = score_photo(photo.dice, found), score_photo(photo.dice, reader.read(images[photo.image]))
    assert told.right >= untold.right - 1


@pytest.mark.parametrize("photo", SCENES[:6], ids=lambda p: p.image)
def test_fewer_than_read_takes_the_likeliest_and_adds_nothing(reader, images, photo):
    image = images[photo.image]
    every = reader.read(image)
    fewer = reader.read(image, count=max(1, len(every) // 2))
    assert len(fewer) == max(1, len(every) // 2)
    assert len(_same_boxes(fewer.boxes, every.boxes)) == len(fewer)
    found = reader.candidates(image)
    kept = found.take(found.kept)
    rank = reader.likelihood(kept)
    taken = np.array([bool(_same_boxes(box[None], fewer.boxes)) for box in kept.boxes])
    # no die left out was likelier than a die taken
    assert rank[~taken].max(initial=0) <= rank[taken].min() + 1e-6


@pytest.mark.parametrize("photo", SCENES[:6], ids=lambda p: p.image)
def test_more_than_read_adds_the_best_other_boxes_marked_unsure(reader, images, photo):
    image = images[photo.image]
    every = reader.read(image)
    # Told of more dice than it keeps, the reader looks again (`DiceReader.search`) first.
    found = reader.search(image, reader.candidates(image))
    spare = int((~found.kept).sum())
    more = reader.read(image, count=len(every) + 3)
    assert len(more) == len(every) + min(3, spare)
    assert len(_same_boxes(more.boxes, every.boxes)) == len(every)  # every die read stays
    added = [i for i, b in enumerate(more.boxes) if not _same_boxes(b[None], every.boxes)]
    assert all(more.confidences[i] < reader.low_confidence for i in added)


def test_a_count_of_zero_reads_nothing_and_a_negative_one_is_refused(reader, images):
    image = images[SCENES[0].image]
    assert len(reader.read(image, count=0)) == 0
    with pytest.raises(ValueError, match="cannot show"):
        reader.read(image, count=-1)


@pytest.mark.parametrize("count", [1.5, 5.0, True, "5", None])
def test_a_count_that_is_not_a_whole_number_is_refused_before_reading(reader, count):
    # `read(image)` without a count is the uncounted read; `read_counted` must be told one.
    with pytest.raises(ValueError, match="whole number"):
        reader.read_counted(np.zeros((64, 64, 3), np.uint8), count)


def test_a_numpy_count_reads_as_the_same_int(reader, images):
    image = images[SCENES[0].image]
    assert reader.read(image, count=np.int64(2)).to_list() == reader.read(image, count=2).to_list()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 30))
def test_any_count_gives_as_many_dice_as_there_are_boxes_to_give(reader, images, count):
    image = images[SCENES[1].image]
    found = reader.candidates(image)
    if count > found.kept.sum():  # a count the rules' dice cannot make: the photo is searched again
        found = reader.search(image, found)
    dice = reader.read(image, count=count)
    assert len(dice) == min(count, len(found))
    # A die reported sure with a count is a die the reader's rules keep (at the first look or the search).
    sure = dice.confidences >= reader.low_confidence
    assert len(_same_boxes(dice.boxes[sure], found.boxes[found.kept])) == int(sure.sum())


@pytest.mark.parametrize("photo", SCENES[:6], ids=lambda p: p.image)
def test_the_dice_a_count_leaves_out_are_the_rest_of_those_read(reader, images, photo):
    image = images[photo.image]
    every = reader.read(image)
    for count in range(len(every) + 2):
        counted = reader.read_counted(image, count)
        told = reader.read(image, count=count)
        assert np.array_equal(counted.dice.boxes, told.boxes) and np.array_equal(counted.dice.values, told.values)
        if count <= len(every):
            # Taken and left out together are the dice read without a count, each once.
            both = np.concatenate([counted.dice.boxes, counted.left_out.boxes])
            assert len(both) == len(every) == len(_same_boxes(both, every.boxes))
        else:
            assert len(counted.left_out) == 0


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 30))
def test_a_count_leaves_out_exactly_the_kept_dice_beyond_it(reader, images, count):
    image = images[SCENES[2].image]
    kept = len(reader.read(image))
    counted = reader.read_counted(image, count)
    assert len(counted.left_out) == max(0, kept - count)
    assert not _same_boxes(counted.dice.boxes, counted.left_out.boxes)  # no die both taken and left out


def test_recognize_takes_the_number_of_dice():
    photo = SCENES[0]
    done = subprocess.run([sys.executable, "-m", "dicecam", "recognize", "--json", "--dice", "3", str(photo.path)],
                          capture_output=True, text=True, check=True)
    line = json.loads(done.stdout)
    every = json.loads(subprocess.run([sys.executable, "-m", "dicecam", "recognize", "--json", str(photo.path)],
                                      capture_output=True, text=True, check=True).stdout)
    assert len(line["dice"]) == 3 and len(line["left_out"]) == len(every["dice"]) - 3
    assert "left_out" not in every  # no count, nothing left out
    bad = subprocess.run([sys.executable, "-m", "dicecam", "recognize", "--dice", "five", str(photo.path)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "whole number" in bad.stderr
