"""Mining the detector's boxes that sit off a die (training.mine.misplaced)."""

from __future__ import annotations

import numpy as np
import pytest

from training.mine import misplaced, unmatched

DIE = (100.0, 100.0, 140.0, 140.0)  # a 40 px top face


@pytest.mark.parametrize(
    ("found", "pairs"),
    [
        pytest.param([DIE], [], id="on-the-die"),
        pytest.param([(102, 101, 142, 141)], [], id="within-the-jitter"),
        pytest.param([(106, 100, 146, 140)], [[0, 0]], id="centre-off-by-0.15"),
        pytest.param([(96, 96, 144, 144)], [], id="1.2x-as-trained"),
        pytest.param([(94, 94, 146, 146)], [[0, 0]], id="1.3x-too-big"),
        pytest.param([(104, 104, 136, 136)], [[0, 0]], id="0.8x-too-small"),
        # Overlapping under 0.3 it is a hard negative (a pip, a neighbour), never both.
        pytest.param([(125, 125, 165, 165)], [], id="mostly-off"),
        pytest.param([(300, 300, 340, 340)], [], id="elsewhere"),
        pytest.param([], [], id="nothing-found"),
    ],
)
def test_misplaced(found, pairs):
    truth = np.array([DIE])
    found = np.array(found, float).reshape(-1, 4)
    assert misplaced(truth, found).tolist() == pairs
    assert not (unmatched(truth, found)[[i for i, _ in pairs]]).any()


def test_a_box_goes_to_the_die_it_overlaps_most():
    truth = np.array([(0, 0, 40, 40), DIE], float)
    found = np.array([(110, 96, 150, 136), (0, 0, 40, 40)], float)
    assert misplaced(truth, found).tolist() == [[0, 1]]


def test_nothing_labelled_gives_no_pairs():
    assert misplaced(np.zeros((0, 4)), np.array([DIE])).shape == (0, 2)
