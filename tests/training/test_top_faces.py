"""Top faces inside whole-die labels (training.data.top_faces)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from dicecam.training.data.top_faces import estimate_top_face, match_top_faces


def test_a_detected_top_face_inside_the_die_is_taken() -> None:
    die = np.array([[100, 100, 160, 180]], np.float32)
    found = np.array([[105, 102, 155, 150], [300, 300, 340, 340]], np.float32)
    tops, taken = match_top_faces(die, found, np.array([0.8, 0.9], np.float32))
    assert taken.tolist() == [True]
    assert tops[0].tolist() == found[0].tolist()


def test_a_box_around_the_whole_die_or_one_pip_is_no_top_face() -> None:
    die = np.array([[100, 100, 160, 180]], np.float32)
    whole = np.array([[95, 95, 165, 185]], np.float32)
    pip = np.array([[128, 128, 136, 136]], np.float32)
    for found in (whole, pip):
        tops, taken = match_top_faces(die, found, np.array([0.9], np.float32))
        assert not taken[0]
        assert np.allclose(tops, estimate_top_face(die))


def test_one_detected_box_serves_one_die() -> None:
    dice = np.array([[100, 100, 160, 160], [110, 110, 170, 170]], np.float32)
    found = np.array([[115, 115, 150, 150]], np.float32)
    _, taken = match_top_faces(dice, found, np.array([0.9], np.float32))
    assert taken.sum() == 1


@given(st.lists(st.tuples(st.floats(0, 500), st.floats(0, 500), st.floats(4, 200), st.floats(4, 200)),
                min_size=1, max_size=8))
def test_an_estimated_top_face_lies_in_its_die_at_the_top(raw) -> None:
    die = np.array([(x, y, x + w, y + h) for x, y, w, h in raw], np.float32)
    top = estimate_top_face(die)
    assert (top[:, 0] >= die[:, 0] - 1e-3).all() and (top[:, 2] <= die[:, 2] + 1e-3).all()
    assert (top[:, 1] >= die[:, 1] - 1e-3).all() and (top[:, 3] <= die[:, 3] + 1e-3).all()
    # it sits in the upper part: its centre is never below the die's centre
    assert ((top[:, 1] + top[:, 3]) / 2 <= (die[:, 1] + die[:, 3]) / 2 + 1e-3).all()


def test_the_box_read_as_the_labelled_value_is_the_top_face_even_when_weaker() -> None:
    die = np.array([[100, 100, 160, 200]], np.float32)
    top = [105, 105, 155, 145]     # read 5: the labelled value
    front = [105, 140, 155, 195]   # a stronger peak on the front face, read 2
    found = np.array([top, front], np.float32)
    tops, taken = match_top_faces(die, found, np.array([0.5, 0.9], np.float32), values=np.array([5]),
                                  read=np.array([5, 2]))
    assert taken[0] and tops[0].tolist() == top


def test_with_no_box_read_right_the_higher_one_is_the_top_face() -> None:
    die = np.array([[100, 100, 160, 200]], np.float32)
    found = np.array([[105, 140, 155, 195], [105, 105, 155, 145]], np.float32)
    tops, _ = match_top_faces(die, found, np.array([0.9, 0.6], np.float32), values=np.array([6]),
                              read=np.array([2, 3]))
    assert tops[0].tolist() == found[1].tolist()
