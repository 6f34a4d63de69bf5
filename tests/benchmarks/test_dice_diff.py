"""Which labelled dice two readers read differently (benchmarks/dice_diff.py)."""

from __future__ import annotations

from pathlib import Path

import dice_diff  # benchmarks/ is on pytest's pythonpath
import numpy as np
import pytest

from dicecam.commands.eval import read_labelled
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
A, B, FAR = [0, 0, 10, 10], [20, 0, 30, 10], [50, 50, 60, 60]
TRUTH = Dice(np.array([A, B], np.float32), np.array([3, 5]), np.ones(2, np.float32))


def _read(boxes: list, values: list, confidences: list) -> Dice:
    return Dice(np.array(boxes, np.float32).reshape(-1, 4), np.array(values), np.array(confidences, np.float32))


@pytest.mark.parametrize(("before", "after", "expected"), [
    (([A, B], [3, 5], [0.9, 0.9]), ([A, B], [3, 5], [0.4, 0.4]), []),            # both right: no change, however sure
    (([A, B], [3, 5], [0.9, 0.4]), ([A, B], [3, 6], [0.9, 0.3]), [(1, False)]),   # B read wrong now: lost
    (([A], [3], [0.9]), ([A, B], [3, 5], [0.9, 0.8]), [(1, True)]),               # B had no box, now read: won
    (([A, B], [4, 5], [0.5, 0.9]), ([B, FAR], [5, 3], [0.9, 0.9]), []),           # A wrong before, no box after
    (([A, B], [3, 5], [0.9, 0.9]), ([], [], []), [(0, False), (1, False)]),       # nothing found: both lost
])
def test_a_die_changes_only_when_exactly_one_reader_reads_it_right(before, after, expected) -> None:
    found = dice_diff.changes("p.jpg", TRUTH, _read(*before), _read(*after))
    assert [(c.label, c.won) for c in found] == expected


def test_the_summary_counts_how_sure_the_reader_that_was_right_was() -> None:
    found = dice_diff.changes("p.jpg", TRUTH, _read([A, B], [3, 5], [0.9, 0.4]), _read([A, B], [2, 1], [0.8, 0.8]))
    assert dice_diff.summary(found, low_confidence=0.7) == {"won": 0, "won_sure": 0, "lost": 2, "lost_sure": 1}
    assert found[1].after == dice_diff.Reading(1, 0.8)


def test_a_reader_that_finds_nothing_loses_every_die_the_shipped_one_reads_right() -> None:
    shipped, blind = DiceReader(), DiceReader(max_not_a_die=0.0, rescue_not_a_die=None)  # every box is no die
    found = dice_diff.diff(shipped, blind, SAMPLES, "all", count=False)
    right = sum(score_photo(p.dice, read_labelled(shipped, p, load_image(p.path))).right
                for p in read_dataset(SAMPLES) if not p.crop)
    assert right > 0
    assert [c.won for c in found if not c.photo.startswith("chase")] == [False] * right


def test_compared_counts_each_photo_as_the_scoring_rule_does() -> None:
    shipped, blind = DiceReader(), DiceReader(max_not_a_die=0.0, rescue_not_a_die=None)
    found, first, second = dice_diff.compared(shipped, blind, SAMPLES, "all", count=False)
    photos = read_dataset(SAMPLES)
    assert found == dice_diff.diff(shipped, blind, SAMPLES, "all", count=False)
    assert first.shape == second.shape == (len(photos), 3)
    scores = [score_photo(p.dice, read_labelled(shipped, p, load_image(p.path))) for p in photos]
    assert first.tolist() == [[s.labelled, s.predicted, s.right] for s in scores]
    assert (second[:, 0] == first[:, 0]).all() and second[:, 2].sum() < first[:, 2].sum()
