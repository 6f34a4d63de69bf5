"""Why counted throws are not read exactly (benchmarks/counted_throws.py)."""

from __future__ import annotations

from pathlib import Path

import counted_throws  # benchmarks/ is on pytest's pythonpath
import numpy as np
import pytest

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
A, B = [0, 0, 10, 10], [20, 0, 30, 10]


@pytest.mark.parametrize(("chosen", "candidates", "why"), [
    ([A, B], [A, B], "wrong value"),           # both found: a value was read wrong
    ([A, [50, 50, 60, 60]], [A, B, [50, 50, 60, 60]], "passed over"),  # B had a box; the count took another
    ([A], [A], "no box"),                      # B never had a box
    ([[50, 50, 60, 60]], [[50, 50, 60, 60], A], "no box"),  # one passed over, one with none: the detector first
])
def test_a_throw_goes_under_the_first_reason_that_holds(chosen, candidates, why) -> None:
    assert counted_throws.reason(np.array([A, B], float), np.array(chosen, float).reshape(-1, 4),
                                 np.array(candidates, float).reshape(-1, 4)) == why


def test_every_sample_throw_not_read_exactly_with_its_count_is_counted_once() -> None:
    reader = DiceReader()
    by_reason, throws = counted_throws.counted_misses(reader, SAMPLES, split="all")
    photos = [p for p in read_dataset(SAMPLES) if not p.crop]
    inexact = sorted(p.image for p in photos
                     if not score_photo(p.dice, reader.read(load_image(p.path), count=len(p.dice))).exact)
    assert throws == len(photos)
    assert sorted(i for found in by_reason.values() for i in found) == inexact
    assert set(by_reason) <= set(counted_throws.REASONS)
