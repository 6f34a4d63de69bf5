"""The missed-dice benchmark counts exactly the dice the scoring rule finds missed (benchmarks/missed_dice.py)."""

from __future__ import annotations

from pathlib import Path

import missed_dice  # benchmarks/ is on pytest's pythonpath
import numpy as np
import pytest

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.mark.parametrize("changes", [{}, {"max_not_a_die": 0.02}], ids=["shipped", "strict"])
def test_every_missed_sample_die_is_counted_once_under_one_reason(changes):
    reader = DiceReader(**changes)
    by_reason = missed_dice.missed(reader, SAMPLES, split="all")
    photos = [p for p in read_dataset(SAMPLES) if not p.crop]  # eval reads a crop as one unboxed die
    scores = [score_photo(p.dice, reader.read(load_image(p.path))) for p in photos]
    missed = sum(s.labelled - s.matched for s in scores)
    assert sum(len(v) for v in by_reason.values()) == missed
    assert set(by_reason) <= {"no box", "whole-die check", "not a die", "small", "big", "other rule"}
    if changes:  # a reader that drops more dice as "not a die" has them counted there
        assert len(by_reason["not a die"]) > len(missed_dice.missed(DiceReader(), SAMPLES, split="all")["not a die"])


@pytest.mark.parametrize(("truth", "boxes", "expected"), [
    ([[0, 0, 10, 10], [20, 0, 30, 10]], [[21, 1, 29, 9]], [-1, 0]),
    ([[0, 0, 10, 10]], np.zeros((0, 4)), [-1]),
])
def test_each_labelled_die_gets_the_box_it_pairs_with(truth, boxes, expected):
    assert missed_dice.paired(np.array(truth, np.float32), np.array(boxes, np.float32)).tolist() == expected
