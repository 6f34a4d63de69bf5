"""Live frames are read told the count without the count's search: where the first look keeps
fewer dice than the count, one closer look over the whole photo (`frame_look_max_side`, S262)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.vision.dataset import read_dataset
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
BOARD = "roboflow_dice/dice_309_jpg.rf.74db48dfe3726e2f26935862998574cf.jpg"  # a 4 and a 2 on a Catan board
FIVE = "byler_d6/IMG_20191209_100714.jpg"                                       # 2 2 3 3 3 on a plain table


def _photo(name: str, scale: float = 1.0) -> tuple[np.ndarray, Dice]:
    """A sample photo (shrunk by `scale`, as a phone further away sees it) and its labels."""
    photo = next(p for p in read_dataset(SAMPLES) if p.image == name)
    image = cv2.imread(str(photo.path))
    assert image is not None
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image, Dice(photo.dice.boxes * scale, photo.dice.values, photo.dice.confidences)


def _sides(reader: DiceReader) -> list[int]:
    """The longer input side of every detector run `reader` makes from now on."""
    sides: list[int] = []
    session = reader.detector.session

    class Counting:
        def run(self, names, feed):
            sides.append(max(feed["image"].shape[2:]))
            return session.run(names, feed)

        def get_modelmeta(self):
            return session.get_modelmeta()

    reader.detector.session = Counting()
    return sides


def test_a_far_frame_short_of_its_count_looks_closer_and_reads_the_throw():
    image, truth = _photo(BOARD, 0.5)  # the board from twice as far: two small dice among its tokens
    before, after = DiceReader(frame_look_max_side=0), DiceReader()
    runs_before, runs_after = _sides(before), _sides(after)
    plain = before.read(image, count=2, search=False)
    closer = after.read(image, count=2, search=False)
    assert not score_photo(truth, plain).exact
    assert score_photo(truth, closer).exact and sorted(closer.values.tolist()) == [2, 4]
    # One detector pass more, larger than any pass of the first look, and none of the
    # count's 1,280 px search.
    assert len(runs_after) == len(runs_before) + 1
    assert max(runs_before) < runs_after[-1] <= 1024 + 31


@pytest.mark.parametrize("how", ["frame with its count met", "without a count", "photo throw (searched)"])
def test_the_closer_look_is_only_for_frames_short_of_their_count(how):
    name, count, search = {"frame with its count met": (FIVE, 5, False),
                           "without a count": (BOARD, None, True),
                           "photo throw (searched)": (BOARD, 2, True)}[how]
    image, _truth = _photo(name, 0.5 if name == BOARD else 1.0)
    before, after = DiceReader(frame_look_max_side=0), DiceReader()
    runs_before, runs_after = _sides(before), _sides(after)
    a, b = before.read(image, count=count, search=search), after.read(image, count=count, search=search)
    assert runs_after == runs_before
    assert a.values.tolist() == b.values.tolist() and np.array_equal(a.boxes, b.boxes)
