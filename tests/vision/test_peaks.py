"""Peak picking and duplicate suppression of the detector's outputs."""

from __future__ import annotations

import numpy as np

from vision.peaks import centre_peaks, suppress_duplicates


def test_peaks_are_local_maxima_above_threshold_strongest_first():
    heat = np.zeros((20, 30), np.float32)
    heat[5, 5], heat[5, 6] = 0.9, 0.5       # a peak and its shoulder
    heat[15, 20] = 0.6
    heat[10, 10] = 0.1                      # too weak
    ys, xs, scores = centre_peaks(heat, min_score=0.25)
    assert list(zip(ys.tolist(), xs.tolist())) == [(5, 5), (15, 20)]
    assert scores.tolist() == [np.float32(0.9), np.float32(0.6)]


def test_no_peaks_gives_well_shaped_empty_result():
    ys, xs, scores = centre_peaks(np.zeros((8, 8), np.float32))
    assert ys.shape == xs.shape == scores.shape == (0,)


def test_peak_count_is_capped():
    heat = np.zeros((40, 40), np.float32)
    heat[::2, ::2] = np.linspace(0.3, 0.9, 400, dtype=np.float32).reshape(20, 20)
    ys, _, scores = centre_peaks(heat, max_peaks=7)
    assert len(ys) == 7 and scores[0] == np.float32(0.9)


def test_touching_dice_both_kept_but_nested_duplicate_dropped():
    boxes = np.array([
        [0, 0, 10, 10],      # die A
        [10, 0, 20, 10],     # die B, touching A
        [2, 2, 11, 11],      # a second guess at A: holds A's centre
    ], np.float32)
    scores = np.array([0.9, 0.8, 0.5], np.float32)
    assert sorted(suppress_duplicates(boxes, scores).tolist()) == [0, 1]


def test_suppression_keeps_the_stronger_of_two():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 10, 10]], np.float32)
    assert suppress_duplicates(boxes, np.array([0.4, 0.7], np.float32)).tolist() == [1]


def test_suppression_of_nothing():
    assert suppress_duplicates(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32)).shape == (0,)


def test_a_pip_inside_a_big_die_is_dropped_but_touching_dice_stay():
    from vision.peaks import drop_nested

    boxes = np.array([
        [100, 100, 180, 180],   # a big die
        [110, 110, 130, 130],   # one of its pips, boxed as if it were a die
        [180, 100, 260, 180],   # a neighbour touching the big die
    ], np.float32)
    scores = np.array([0.6, 0.9, 0.8], np.float32)
    assert drop_nested(boxes, scores).tolist() == [0, 2]


def test_a_nested_box_survives_a_much_weaker_container():
    from vision.peaks import drop_nested

    boxes = np.array([[0, 0, 100, 100], [40, 40, 60, 60]], np.float32)
    assert drop_nested(boxes, np.array([0.1, 0.9], np.float32)).tolist() == [0, 1]
    assert drop_nested(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32)).shape == (0,)
