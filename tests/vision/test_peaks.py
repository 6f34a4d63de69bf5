"""Peak picking and duplicate suppression of the detector's outputs."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from dicecam.vision.peaks import centre_peaks, suppress_duplicates


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
    from dicecam.vision.peaks import drop_nested

    boxes = np.array([
        [100, 100, 180, 180],   # a big die
        [110, 110, 130, 130],   # one of its pips, boxed as if it were a die
        [180, 100, 260, 180],   # a neighbour touching the big die
    ], np.float32)
    scores = np.array([0.6, 0.9, 0.8], np.float32)
    assert drop_nested(boxes, scores).tolist() == [0, 2]


def test_a_nested_box_survives_a_much_weaker_container():
    from dicecam.vision.peaks import drop_nested

    boxes = np.array([[0, 0, 100, 100], [40, 40, 60, 60]], np.float32)
    assert drop_nested(boxes, np.array([0.1, 0.9], np.float32)).tolist() == [0, 1]
    assert drop_nested(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32)).shape == (0,)


_box = st.tuples(st.integers(0, 200), st.integers(0, 200), st.integers(4, 60), st.integers(4, 60)).map(
    lambda t: [t[0], t[1], t[0] + t[2], t[1] + t[3]])


def _clash(a: np.ndarray, b: np.ndarray, iou: float = 0.45) -> bool:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    cx, cy = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    return inter / union > iou or (b[0] < cx < b[2] and b[1] < cy < b[3])


@given(st.lists(st.tuples(_box, st.floats(0.01, 1.0)), max_size=25))
def test_kept_boxes_never_clash_and_each_dropped_box_clashes_with_a_stronger_kept_one(rows):
    boxes = np.array([b for b, _ in rows], np.float32).reshape(-1, 4)
    # Distinct scores: between equal ones, which box counts as the stronger is arbitrary.
    scores = np.array([s for _, s in rows], np.float64) + np.arange(len(rows)) * 1e-3
    keep = suppress_duplicates(boxes, scores).tolist()
    assert len(set(keep)) == len(keep)
    for i in keep:
        for j in keep:
            if i != j and scores[j] >= scores[i]:
                assert not _clash(boxes[i], boxes[j])
    for i in set(range(len(boxes))) - set(keep):
        assert any(_clash(boxes[i], boxes[j]) and scores[j] >= scores[i] for j in keep)


def test_apart_from_keeps_only_boxes_that_clash_with_none():
    from dicecam.vision.peaks import apart_from

    others = np.array([[100, 100, 140, 140]], np.float32)
    boxes = np.array([
        [140, 100, 180, 140],   # touching: a die of its own
        [105, 105, 145, 145],   # mostly the same box
        [130, 90, 200, 160],    # overlaps a little, holds neither centre: a neighbour
        [115, 115, 170, 170],   # its box holds the other's centre (120, 120)
        [60, 60, 125, 125],     # its centre (92.5, 92.5) is outside, but it holds the other's centre
        [110, 110, 130, 130],   # its centre lies inside the other
    ], np.float32)
    assert apart_from(boxes, others).tolist() == [True, False, True, False, False, False]


def test_apart_from_nothing():
    from dicecam.vision.peaks import apart_from

    box = np.array([[0, 0, 10, 10]], np.float32)
    assert apart_from(box, np.zeros((0, 4), np.float32)).tolist() == [True]
    assert apart_from(np.zeros((0, 4), np.float32), box).shape == (0,)
