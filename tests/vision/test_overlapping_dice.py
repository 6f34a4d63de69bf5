"""Two dice of a throw lie apart: where two reported boxes overlap, the player is asked about
both (`ask_overlapping`, C307 in models/HISTORY.md), and told the throw's count, two such
boxes make one die of it (`count_apart`, C333). A heap's dice lean on each other, and theirs
stay as read."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.vision.boxes import overlapping, overlaps, passed_over
from dicecam.vision.candidates import ASKED_AT_MOST, Candidates
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import paired
from dicecam.vision.reader import THROW_AT_MOST, DiceReader

#: A roboflow_dice dev throw of two dice whose yellow die is boxed twice, its top face and
#: its side face, both read as a 6 (the side face 0.92 sure before C307).
TWICE_BOXED = "dice_318_jpg"
DIE = [100.0, 100.0, 140.0, 140.0]


@pytest.mark.parametrize(("other", "share", "expected"), [
    ([100, 100, 140, 140], 0.3, True),  # the same box
    ([120, 110, 150, 150], 0.3, True),  # half of it over the die
    ([128, 100, 168, 140], 0.3, True),  # 12 of 40 px across: 0.3 of it, just enough
    ([129, 100, 169, 140], 0.3, False),  # 11 of 40 px: just under
    ([129, 100, 169, 140], 0.25, True),  # the same, at a lower share
    ([110, 110, 125, 125], 0.3, True),  # a small box on the die: all of the smaller one
    ([140, 100, 180, 140], 0.3, False),  # touching, side by side
    ([200, 200, 240, 240], 0.3, False),  # apart
])
def test_overlap_is_measured_against_the_smaller_box(other, share, expected) -> None:
    boxes = np.array([DIE, other], np.float32)
    assert overlapping(boxes, share).tolist() == [expected, expected]


def test_one_box_or_none_overlaps_nothing() -> None:
    assert overlapping(np.zeros((0, 4)), 0.3).shape == (0,)
    assert overlapping(np.array([DIE]), 0.3).tolist() == [False]
    # A box without area (a line) overlaps nothing, even lying on a die.
    assert overlapping(np.array([DIE, [110, 110, 110, 130]]), 0.0).tolist() == [False, False]


boxes_st = st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200), st.integers(5, 60), st.integers(5, 60)),
                    min_size=0, max_size=8).map(
    lambda rows: np.array([[x, y, x + w, y + h] for x, y, w, h in rows], np.float32).reshape(-1, 4))


@settings(max_examples=80, deadline=None)
@given(boxes_st, st.floats(0.05, 1.0), st.integers(-300, 300), st.integers(-300, 300))
def test_overlaps_come_in_pairs_and_do_not_move_with_the_photo(boxes, share, dx, dy) -> None:
    out = overlapping(boxes, share)
    assert out.sum() != 1  # a box overlaps another, which overlaps it
    shifted = boxes + np.array([dx, dy, dx, dy], np.float32)
    assert overlapping(shifted, share).tolist() == out.tolist()
    assert (overlapping(boxes, share / 2) | ~out).all()  # a lower share asks at least as many


@settings(max_examples=80, deadline=None)
@given(boxes_st, st.floats(0.05, 1.0), st.randoms(use_true_random=False))
def test_going_down_an_order_the_boxes_taken_lie_apart_and_each_passed_box_lies_on_one(boxes, share, rnd) -> None:
    order = list(range(len(boxes)))
    rnd.shuffle(order)
    passed = passed_over(boxes, np.array(order, np.int64), share)
    taken = np.flatnonzero(~passed)
    near = overlaps(boxes, boxes, share)
    assert not passed[order[0]] if order else not passed.any()  # the likeliest is always taken
    assert not near[np.ix_(taken, taken)][~np.eye(len(taken), dtype=bool)].any()  # apart
    for i in np.flatnonzero(passed):  # each passed box lies on a box taken before it
        before = set(order[: order.index(int(i))])
        assert any(near[i, j] for j in taken if j in before)
    np.testing.assert_array_equal(near, near.T)
    assert overlapping(boxes, share).tolist() == (near & ~np.eye(len(boxes), dtype=bool)).any(axis=1).tolist()


def _kept(boxes: list[list[float]]) -> Candidates:
    """Boxes the rules keep, each read plainly (a 6, 0.99) from a full detector peak."""
    n = len(boxes)
    return Candidates(np.array(boxes, np.float32), np.full(n, 0.9, np.float32), values=np.full(n, 6),
                      held=np.full(n, 0.99, np.float32), top=np.full(n, 0.99, np.float32),
                      not_a_die=np.zeros(n, np.float32), relative=np.ones(n, np.float32), kept=np.ones(n, bool))


@pytest.fixture(scope="module")
def plain_reader() -> DiceReader:
    """The shipped networks, and no confidence fit over the readings: only the rules' word."""
    return DiceReader(capped=False)


@pytest.fixture(scope="module")
def unasking_reader() -> DiceReader:
    return DiceReader(capped=False, ask_overlapping=None)


def _throw(n: int, *, overlap: bool) -> list[list[float]]:
    boxes = [[100.0 + 80 * i, 100.0, 140.0 + 80 * i, 140.0] for i in range(n)]
    if overlap:
        boxes[-1] = [boxes[-2][0] + 14, 118.0, boxes[-2][2] + 14, 158.0]  # on the die before it
    return boxes


@pytest.mark.parametrize("count", [None, 2, 5])
def test_in_a_throw_two_overlapping_dice_are_both_asked(plain_reader, unasking_reader, count) -> None:
    found = _kept(_throw(5 if count is None else count, overlap=True))
    dice = plain_reader.select(found, count=count)
    asked = dice.confidences <= ASKED_AT_MOST
    assert asked.sum() == 2
    assert overlapping(dice.boxes, 0.3)[asked].all()
    assert (dice.confidences[~asked] > 0.9).all()  # the others stay as read
    assert (unasking_reader.select(found, count=count).confidences > 0.9).all()


def _with_others(found: Candidates, boxes: list[list[float]], held: float) -> Candidates:
    """`found` and boxes the rules drop (read as 2 at `held`), likelier the earlier."""
    n = len(boxes)
    dropped = Candidates(np.array(boxes, np.float32), np.full(n, 0.9, np.float32), values=np.full(n, 2),
                         held=np.linspace(held, held / 2, n).astype(np.float32),
                         top=np.full(n, held, np.float32), not_a_die=np.zeros(n, np.float32),
                         relative=np.ones(n, np.float32), kept=np.zeros(n, bool))
    return found.concat(dropped)


@pytest.mark.parametrize("count", [2, 3, 5])
def test_told_a_throw_a_second_box_on_a_die_fills_the_count_after_any_other_box(plain_reader, count) -> None:
    boxes = _throw(count, overlap=True)
    elsewhere = [[100.0, 300.0, 140.0, 340.0]]
    found = _with_others(_kept(boxes), elsewhere, 0.6)
    counted = plain_reader.select_counted(found, count)
    dice = counted.dice
    assert len(dice) == count
    assert not overlapping(dice.boxes, 0.3).any()  # one box a die
    assert any(np.array_equal(b, elsewhere[0]) for b in dice.boxes)  # the other box fills the count
    assert (dice.confidences <= ASKED_AT_MOST).sum() == 2  # the box it fills and the die boxed twice
    assert len(counted.left_out) == 0  # a second box on a die is no die left out
    # Without the rule the two boxes on one die made the count and the other box was not taken.
    off = DiceReader(capped=False, count_apart=False).select(found, count=count)
    assert overlapping(off.boxes, 0.3).sum() == 2


@pytest.mark.parametrize("count", [2, 4])
def test_told_a_throw_with_nothing_else_both_boxes_on_a_die_fill_it_asked(plain_reader, count) -> None:
    dice = plain_reader.select(_kept(_throw(count, overlap=True)), count=count)
    twice = overlapping(dice.boxes, 0.3)
    assert len(dice) == count and twice.sum() == 2
    assert (dice.confidences[twice] <= ASKED_AT_MOST).all()


def test_a_heap_told_its_count_takes_overlapping_boxes_as_they_rank(plain_reader) -> None:
    count = THROW_AT_MOST + 1
    found = _with_others(_kept(_throw(count, overlap=True)), [[100.0, 300.0, 140.0, 340.0]], 0.6)
    dice = plain_reader.select(found, count=count)
    assert overlapping(dice.boxes, 0.3).sum() == 2  # a heap's dice lean on each other
    assert (dice.confidences > 0.9).all()


@pytest.mark.parametrize("count", [None, 3])
def test_dice_apart_stay_as_read(plain_reader, count) -> None:
    dice = plain_reader.select(_kept(_throw(3, overlap=False)), count=count)
    assert (dice.confidences > 0.9).all()


def test_a_heap_s_overlapping_dice_stay_as_read(plain_reader) -> None:
    dice = plain_reader.select(_kept(_throw(THROW_AT_MOST + 1, overlap=True)))
    assert len(dice) == THROW_AT_MOST + 1
    assert (dice.confidences > 0.9).all()


def test_a_die_boxed_twice_on_a_real_board_is_asked_not_told(roboflow_photos) -> None:
    """The side face of dice_318's yellow die came back as a sure second 6; without a count
    the reader now asks about both boxes on that die."""
    photo, = roboflow_photos("dev", TWICE_BOXED)
    image = load_image(photo.path)
    unasking, asking = DiceReader(ask_overlapping=None), DiceReader()
    before = unasking.read(image)
    after = asking.read(image)
    np.testing.assert_array_equal(after.boxes, before.boxes)
    np.testing.assert_array_equal(after.values, before.values)
    twice = overlapping(before.boxes, 0.3)
    assert twice.sum() == 2 and (before.confidences[twice] >= 0.7).all()
    assert (after.confidences[twice] <= ASKED_AT_MOST).all()
    _sure_is_right(after, photo)


def test_told_its_two_dice_a_die_boxed_twice_counts_once_and_the_other_die_is_found(roboflow_photos) -> None:
    """Told dice_318's count, the two boxes on its yellow die made the count (C333): the
    search never ran and the small red die on the board was never read. They count as one
    die now, so the throw is searched and read exactly, the yellow die still asked."""
    photo, = roboflow_photos("dev", TWICE_BOXED)
    image = load_image(photo.path)
    count = len(photo.dice)
    # Both looked closer at the window around the yellow die's boxes, as then: the search's
    # pass as the closer look (C414) boxes that die once (test below).
    before = DiceReader(count_apart=False, count_zoom_by_search=False).read(image, count=count)
    assert overlapping(before.boxes, 0.3).all()  # both boxes on the yellow die
    after = DiceReader(count_zoom_by_search=False).read(image, count=count)
    assert not overlapping(after.boxes, 0.3).any()
    pairs = paired(after.boxes, photo.dice.boxes)
    assert (pairs >= 0).all() and sorted(pairs) == list(range(count))
    assert (after.values == photo.dice.values[pairs]).all()
    on_yellow = overlapping(np.concatenate([after.boxes, before.boxes]), 0.3)[: len(after)]
    assert (after.confidences[on_yellow] <= ASKED_AT_MOST).all()  # which box shows its top is not known
    _sure_is_right(after, photo)


def test_told_its_two_dice_the_search_s_pass_boxes_the_yellow_die_once_and_finds_the_other(roboflow_photos) -> None:
    """dice_318's first pass boxes fewer than its two dice, so the search's whole-photo pass is
    its closer look (C414): it boxes the yellow die once and finds the red one, read exactly."""
    photo, = roboflow_photos("dev", TWICE_BOXED)
    dice = DiceReader().read(load_image(photo.path), count=len(photo.dice))
    assert not overlapping(dice.boxes, 0.3).any()
    pairs = paired(dice.boxes, photo.dice.boxes)
    assert sorted(pairs) == list(range(len(photo.dice)))
    assert (dice.values == photo.dice.values[pairs]).all()
    _sure_is_right(dice, photo)


def _sure_is_right(dice, photo) -> None:
    """What is reported sure is a labelled die read right."""
    pairs = paired(dice.boxes, photo.dice.boxes)
    sure = dice.confidences >= 0.7
    assert all(pairs[k] >= 0 and dice.values[k] == photo.dice.values[pairs[k]] for k in np.flatnonzero(sure))
