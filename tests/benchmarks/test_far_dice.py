"""Large dice read as far ones come out: small and soft (benchmarks/far_dice.py)."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import far_dice  # benchmarks/ is on pytest's pythonpath
import numpy as np
import pytest

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import Score
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _sharpness(img: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def test_far_shrinks_by_its_factor_and_softens_by_its_sigma() -> None:
    photo = next(p for p in read_dataset(SAMPLES) if not p.crop)
    image = load_image(photo.path)
    plain = far_dice.far(image, 0.5)
    soft = far_dice.far(image, 0.5, blur=1.0)
    assert plain.shape[:2] == (round(image.shape[0] * 0.5), round(image.shape[1] * 0.5))
    assert soft.shape == plain.shape and _sharpness(soft) < 0.5 * _sharpness(plain)
    assert far_dice.far(image, 0.5, jpeg=70).shape == plain.shape


def test_only_throws_of_large_dice_are_taken() -> None:
    photos = [p for p in read_dataset(SAMPLES) if not p.crop and 0 < len(p.dice) <= far_dice.MAX_DICE]
    sides = dict((p.image, side) for p, side in far_dice.large_throws(photos, 0.0))
    assert len(sides) == len(photos)
    big = [p.image for p, _ in far_dice.large_throws(photos, 44.0)]
    assert big == [name for name, side in sides.items() if side >= 44.0]


def test_a_throw_read_at_its_own_size_scores_as_the_reader_reads_it() -> None:
    reader = DiceReader()
    photo = next(p for p in read_dataset(SAMPLES) if not p.crop and 0 < len(p.dice) <= far_dice.MAX_DICE)
    image = load_image(photo.path)
    score = far_dice.read_told(reader, photo, image, 1.0)
    assert score.photos == 1 and score.labelled == len(photo.dice) and score.predicted == len(photo.dice)
    # Shrunk by half, the labels shrink with it: the same dice are still paired.
    half = far_dice.read_told(reader, photo, far_dice.far(image, 0.5), 0.5)
    assert half.labelled == score.labelled and half.matched >= 1


@pytest.mark.parametrize(("score", "want"), [
    (Score(photos=4, exact=3, labelled=20, right=18), {"throws": 4, "exact": 0.75, "right": 0.9}),
    (Score(), {"throws": 0, "exact": math.nan, "right": math.nan}),
])
def test_shares_are_of_throws_and_of_labelled_dice(score, want) -> None:
    got = far_dice.shares(score)
    assert got["throws"] == want["throws"]
    for key in ("exact", "right"):
        assert got[key] == want[key] or (math.isnan(got[key]) and math.isnan(want[key]))


def test_a_side_above_the_throws_taken_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        far_dice.main([str(SAMPLES), "--side", "50", "--min-side", "44"])
    assert "--side" in capsys.readouterr().err
