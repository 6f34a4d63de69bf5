"""`vision.second_opinions` as pure functions: what each step may change (confidences, the top look
a value, and the domino and side checks' drops which dice are left), where it stays out (heaps, missing
networks, lines off), and that a die it asks about is reported unsure. The steps' effect on real
and rendered photos is tested through the reader (test_overlapping_dice, test_top_look,
test_decoy_asks, test_domino_asks, ..._passes)."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.vision import second_opinions as asks
from dicecam.vision.candidates import ASKED_AT_MOST, Candidates
from dicecam.vision.detections import Dice
from dicecam.vision.second_opinions import THROW_AT_MOST
from dicecam.vision.settings import ReaderSettings

IMAGE = np.full((200, 300, 3), 128, np.uint8)


def _row(n: int, *, overlap: bool = False) -> Dice:
    """`n` dice 30 px apart in a row (the first two on one place where `overlap`), all sure."""
    boxes = np.array([[10 + 30 * i, 10, 30 + 30 * i, 30] for i in range(n)], np.float32)
    if overlap and n >= 2:
        boxes[1] = boxes[0] + [4, 4, 4, 4]
    return Dice(boxes, np.arange(n) % 6 + 1, np.full(n, 0.95, np.float32))


class _Always:
    """A stand-in network that gives every box the same answer, counting what it was asked."""

    not_a_die = 6

    def __init__(self, answer: float) -> None:
        self.answer, self.asked = answer, 0

    def probability(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        self.asked += len(boxes)
        return np.full(len(boxes), self.answer, np.float32)

    def crops(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        return np.zeros((len(boxes), 4, 4, 3), np.uint8)

    def classify(self, crops: np.ndarray) -> np.ndarray:
        self.asked += len(crops)
        out = np.zeros((len(crops), 7), np.float32)
        out[:, self.not_a_die] = self.answer
        return out


@pytest.mark.parametrize(("n", "overlap", "share", "asked"), [
    (2, True, 0.3, [True, True]),          # a throw: two boxes on one place are asked
    (3, False, 0.3, [False] * 3),          # apart: nothing asked
    (2, True, None, [False, False]),       # the step off
    (THROW_AT_MOST + 1, True, 0.3, [False] * (THROW_AT_MOST + 1)),  # a heap is left as read
    (1, False, 0.3, [False]),
])
def test_overlapping_boxes_of_a_throw_are_asked(n, overlap, share, asked) -> None:
    before = _row(n, overlap=overlap)
    after = asks.overlaps_asked(before, share=share)
    np.testing.assert_array_equal(after.confidences <= ASKED_AT_MOST, asked)
    np.testing.assert_array_equal(after.boxes, before.boxes)
    np.testing.assert_array_equal(after.values, before.values)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 250), st.floats(0, 150), st.floats(2, 60), st.floats(0, 1)),
                min_size=0, max_size=9))
def test_asking_never_moves_a_box_or_a_value_nor_makes_a_die_surer(rows) -> None:
    boxes = np.array([[x, y, x + s, y + s] for x, y, s, _ in rows], np.float32).reshape(-1, 4)
    dice = Dice(boxes, np.ones(len(rows), np.int64), np.array([c for *_, c in rows], np.float32))
    for after in (asks.overlaps_asked(dice, share=0.3),
                  asks.decoys_asked(IMAGE, dice, decoy_reader=_Always(1.0), settings=ReaderSettings()),
                  asks.dominoes_asked(IMAGE, dice, domino_check=_Always(1.0), settings=ReaderSettings())):
        np.testing.assert_array_equal(after.boxes, dice.boxes)
        np.testing.assert_array_equal(after.values, dice.values)
        assert (after.confidences <= dice.confidences).all()


@pytest.mark.parametrize(("answer", "asked"), [(0.99, True), (0.5, False)])
def test_the_decoy_reader_asks_sure_dice_of_a_throw_from_its_line(answer, asked) -> None:
    dice = _row(3)
    after = asks.decoys_asked(IMAGE, dice, decoy_reader=_Always(answer), settings=ReaderSettings(decoy_asks=0.95))
    assert (after.confidences <= ASKED_AT_MOST).all() == asked


def test_a_die_read_1_is_asked_from_its_own_lower_line() -> None:
    dice = Dice(_row(2).boxes, np.array([1, 2]), np.full(2, 0.95, np.float32))
    after = asks.decoys_asked(IMAGE, dice, decoy_reader=_Always(0.8),
                         settings=ReaderSettings(decoy_asks=0.95, decoy_asks_one=0.7))
    np.testing.assert_array_equal(after.confidences <= ASKED_AT_MOST, [True, False])


@pytest.mark.parametrize("step", ["decoys", "dominoes", "sides", "top"])
def test_a_missing_network_asks_nothing(step) -> None:
    dice = Dice(_row(3).boxes, np.arange(1, 4), np.full(3, 0.6, np.float32))  # unsure: the top look's dice
    s = ReaderSettings(decoy_asks=0.0, domino_asks=0.0, side_asks=0.0, side_drops=0.0, top_look_view=0.5)
    after = {"decoys": lambda: asks.decoys_asked(IMAGE, dice, decoy_reader=None, settings=s),
             "dominoes": lambda: asks.dominoes_asked(IMAGE, dice, domino_check=None, settings=s),
             "sides": lambda: asks.sides_asked(IMAGE, dice, side_check=None, settings=s, drop=True),
             "top": lambda: asks.top_looked(IMAGE, dice, top=cast(Any, _Always(1.0)), view=None, settings=s)}[step]()
    assert after is dice


def test_unsure_dice_and_heaps_are_not_asked_again() -> None:
    check = _Always(1.0)
    heap = _row(THROW_AT_MOST + 1)
    throws_only = ReaderSettings(decoy_asks_any_read=False)
    assert asks.decoys_asked(IMAGE, heap, decoy_reader=check, settings=throws_only) is heap
    unsure = Dice(heap.boxes, heap.values, np.full(len(heap), 0.4, np.float32))
    assert asks.dominoes_asked(IMAGE, unsure, domino_check=check, settings=ReaderSettings()) is unsure
    assert asks.decoys_asked(IMAGE, unsure, decoy_reader=check, settings=ReaderSettings()) is unsure
    assert check.asked == 0  # nothing was even looked at


@pytest.mark.parametrize(("word", "asked"), [(1.0, True), (0.96, True), (0.9, False)])
def test_a_read_past_six_is_asked_at_the_common_line_1s_too(word, asked) -> None:
    # C424c: a keypad's keys are boxed as several dice; past six the 1s' own line (0.7, chosen
    # on throws) is not used, a heap's small 1s come near it.
    heap = _row(THROW_AT_MOST + 1)
    ones = Dice(heap.boxes, np.ones(len(heap), np.int64), heap.confidences)
    after = asks.decoys_asked(IMAGE, ones, decoy_reader=_Always(word), settings=ReaderSettings())
    assert ((after.confidences <= ASKED_AT_MOST).all() if asked else after is ones)


def test_the_domino_check_asks_heaps_too() -> None:
    heap = _row(THROW_AT_MOST + 1)
    after = asks.dominoes_asked(IMAGE, heap, domino_check=_Always(1.0), settings=ReaderSettings(domino_asks=0.95))
    assert (after.confidences <= ASKED_AT_MOST).all()


def _judged(kept: list[bool], values: list[int] | None = None) -> Candidates:
    """Judged candidates in a row 30 px apart, read as `values` (all 5s: no printed row)."""
    n = len(kept)
    boxes = np.array([[10 + 30 * i, 10, 30 + 30 * i, 30] for i in range(n)], np.float32)
    read = np.array(values if values is not None else [5] * n, np.int64)
    return Candidates(boxes, np.full(n, 0.9, np.float32), values=read, kept=np.array(kept, bool))


@pytest.mark.parametrize(("kept", "values", "last"), [
    ([True] * 5, [3, 5, 1, 2, 3], [False, False, True, True, True]),   # 1-2-3 printed in a row: last
    ([True] * 5, [3, 5, 1, 2, 4], [False] * 5),                        # no row of three
    ([True, True, False, True, True], [6, 1, 2, 3, 4], [False] * 5),   # the row runs through a box not kept
    ([True, True, True], [1, 2, 3], None),                             # no spare box: nothing looked at
])
def test_a_count_with_spare_boxes_ranks_printed_rows_last(kept, values, last) -> None:
    got = asks.doubted(IMAGE, _judged(kept, values), 3, domino_check=None, decoy_reader=None,
                       settings=ReaderSettings(domino_passes=None, decoy_passes=None, side_passes=None))
    if last is None:
        assert got is None
    else:
        np.testing.assert_array_equal(got, last)


def test_printed_rows_off_rank_nothing() -> None:
    found = _judged([True] * 4, [1, 2, 3, 4])
    assert asks.doubted(IMAGE, found, 2, domino_check=None, decoy_reader=None,
                        settings=ReaderSettings(domino_passes=None, decoy_passes=None, side_passes=None,
                                                printed_rows=None)) is None


@pytest.mark.parametrize(("values", "asked"), [
    ([4, 5, 6, 2], [True, True, True, False]),
    ([4, 5, 1, 2], [False] * 4),
])
def test_dice_in_a_printed_row_are_asked_and_nothing_else_changes(values, asked) -> None:
    dice = _row(4)
    dice = Dice(dice.boxes, np.array(values, np.int64), dice.confidences)
    after = asks.printed_asked(dice, settings=ReaderSettings())
    np.testing.assert_array_equal(after.confidences <= ASKED_AT_MOST, asked)
    np.testing.assert_array_equal(after.values, dice.values)
    np.testing.assert_array_equal(after.boxes, dice.boxes)


def test_told_a_count_rows_are_looked_for_among_the_kept_boxes() -> None:
    # C429b: a row completed by a box the rules did not keep (a count's fill) is no printed row.
    found = _judged([True, True, False], [1, 2, 3])
    taken = Dice(found.boxes, np.array([1, 2, 3], np.int64), np.full(3, 0.9, np.float32))
    assert (asks.printed_asked(taken, settings=ReaderSettings()).confidences <= ASKED_AT_MOST).all()
    kept_rows = asks.printed_kept(found, ReaderSettings())
    assert not kept_rows.any()
    after = asks.printed_asked(taken, settings=ReaderSettings(), printed=found.boxes[kept_rows])
    assert (after.confidences > ASKED_AT_MOST).all()


@pytest.mark.parametrize(("kept", "count", "answer", "last"), [
    ([True, True, True], 2, 0.9, [True, True, True]),     # spare kept boxes: the doubted go last
    ([True, True, False], 2, 0.9, None),                  # no spare box: nothing looked at
    ([True, True, True], 2, 0.1, [False, False, False]),  # none doubted
    ([True, False, True, True], 2, 0.9, [True, False, True, True]),  # only kept boxes are ranked
])
def test_a_count_with_spare_boxes_ranks_the_doubted_last(kept, count, answer, last) -> None:
    check = _Always(answer)
    got = asks.doubted(IMAGE, _judged(kept), count, domino_check=check, decoy_reader=None,
                  settings=ReaderSettings(domino_passes=0.5, decoy_passes=None))
    if last is None:
        assert got is None and check.asked == 0
    else:
        np.testing.assert_array_equal(got, last)


@pytest.mark.parametrize(("kept", "count", "answer", "last"), [
    ([True, True, True], 2, 0.9, [True, True, True]),     # spare kept boxes: side faces go last
    ([True, True, True], 2, 0.3, [False, False, False]),  # under the line: none
    ([True, True, False], 2, 0.9, None),                  # no spare box: nothing looked at
])
def test_a_count_with_spare_boxes_ranks_side_faces_last(kept, count, answer, last) -> None:
    check = _Always(answer)
    got = asks.doubted(IMAGE, _judged(kept), count, domino_check=None, decoy_reader=None, side_check=check,
                       settings=ReaderSettings(domino_passes=None, decoy_passes=None, side_passes=0.5))
    if last is None:
        assert got is None and check.asked == 0
    else:
        np.testing.assert_array_equal(got, last)


@pytest.mark.parametrize(("drop", "answer", "confidence", "left", "asked"), [
    (True, 0.97, 0.95, 3, 0),     # without a count, the surest side faces are left out, sure...
    (True, 0.97, 0.40, 3, 0),     # ...or not
    (True, 0.92, 0.95, 0, 3),     # between the lines: asked only
    (False, 0.97, 0.95, 0, 3),    # told a count: asked, never left out here
    (True, 0.5, 0.95, 0, 0),      # under both lines: as read
])
def test_side_faces_are_asked_and_the_surest_left_out_without_a_count(drop, answer, confidence, left, asked) -> None:
    dice = Dice(_row(3).boxes, _row(3).values, np.full(3, confidence, np.float32))
    after = asks.sides_asked(IMAGE, dice, side_check=_Always(answer), drop=drop,
                             settings=ReaderSettings(side_asks=0.9, side_drops=0.95))
    assert len(dice) - len(after) == left
    assert int((after.confidences <= ASKED_AT_MOST).sum()) == asked


def test_the_side_check_off_looks_at_nothing() -> None:
    check, dice = _Always(1.0), _row(3)
    after = asks.sides_asked(IMAGE, dice, side_check=check, drop=True,
                             settings=ReaderSettings(side_asks=None, side_drops=None))
    assert after is dice and check.asked == 0


class _PerBox(_Always):
    """A stand-in check that gives each box its own answer, in the order asked."""

    def __init__(self, answers: list[float]) -> None:
        super().__init__(0.0)
        self.answers = np.array(answers, np.float32)

    def probability(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        self.asked += 1
        return self.answers[:len(boxes)] if len(boxes) == len(self.answers) else np.zeros(len(boxes), np.float32)


@pytest.mark.parametrize(("drop", "drops", "answer", "confidence", "left", "asked"), [
    (True, 0.99, 0.995, 0.95, 3, 0),      # without a count: halves left out, sure ones...
    (True, 0.99, 0.995, 0.40, 3, 0),      # ...and unsure ones
    (True, 0.99, 0.97, 0.95, 0, 3),       # under the drop line: asked only, as before C378
    (False, 0.99, 0.995, 0.95, 0, 3),     # told a count: asked, never left out here
    (True, None, 0.995, 0.95, 0, 3),      # the drop off
])
def test_without_a_count_the_checks_surest_halves_are_left_out(drop, drops, answer, confidence, left, asked) -> None:
    dice = Dice(_row(3).boxes, _row(3).values, np.full(3, confidence, np.float32))
    after = asks.dominoes_asked(IMAGE, dice, domino_check=_Always(answer), drop=drop,
                                settings=ReaderSettings(domino_asks=0.95, domino_drops=drops))
    assert len(dice) - len(after) == left
    assert int((after.confidences <= ASKED_AT_MOST).sum()) == asked


def test_one_run_of_the_check_serves_both_asks_and_drops() -> None:
    check = _Always(0.5)
    asks.dominoes_asked(IMAGE, _row(4), domino_check=check, drop=True, settings=ReaderSettings())
    assert check.asked == 4  # every die once, not the sure ones twice


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=9))
def test_what_the_drop_keeps_is_every_die_under_its_line_in_order(rows) -> None:
    n = len(rows)
    boxes = np.array([[10 + 25 * i, 10, 30 + 25 * i, 30] for i in range(n)], np.float32)
    dice = Dice(boxes, np.arange(n) % 6 + 1, np.array([c for c, _ in rows], np.float32))
    answers = [a for _, a in rows]
    after = asks.dominoes_asked(IMAGE, dice, domino_check=_PerBox(answers), drop=True,
                                settings=ReaderSettings(domino_asks=0.95, domino_drops=0.99))
    under = np.array(answers, np.float32) < 0.99  # the check answers in float32, as the network does
    np.testing.assert_array_equal(after.boxes, dice.boxes[under])
    np.testing.assert_array_equal(after.values, dice.values[under])
    assert (after.confidences <= dice.confidences[under]).all()


@pytest.mark.parametrize(("line", "answer", "left"), [
    (0.99, 0.995, 0),   # every left-out box a sure half: none offered
    (0.99, 0.5, 3),     # under the line: all still offered
    (None, 0.995, 3),   # the step off
])
def test_the_surest_halves_are_not_offered_as_dice(line, answer, left) -> None:
    dice = _row(3)
    after = asks.halves_dropped(IMAGE, dice, domino_check=_Always(answer), settings=ReaderSettings(domino_drops=line))
    assert len(after) == left
    np.testing.assert_array_equal(after.boxes, dice.boxes[:left])


class _Pair(_Always):
    """A stand-in for two checks asked as one (`EitherCheck`): each box gets the domino check's
    `domino` and the chip check's `chip`, and its probability is the larger."""

    def __init__(self, domino: float, chip: float) -> None:
        super().__init__(max(domino, chip))
        self.pair = np.array([domino, chip], np.float32)

    def each(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        self.asked += len(boxes)
        return np.tile(self.pair, (len(boxes), 1))


@pytest.mark.parametrize(("domino", "chip", "chip_drops", "left_out", "asked"), [
    (0.995, 0.1, 0.9, 3, 0),    # a domino's half at the domino check's line
    (0.1, 0.93, 0.9, 3, 0),     # a chip at the chip check's own line (C436)...
    (0.1, 0.93, None, 0, 0),    # ...only the larger at the domino line without it: kept, unsure
    (0.1, 0.96, None, 0, 3),    # sure and asked, as before C436
    (0.1, 0.85, 0.9, 0, 0),     # under the chip line
    (0.93, 0.1, 0.9, 0, 0),     # the chip line is the chip check's alone: no half is left out by it
])
def test_each_check_leaves_out_at_its_own_line(domino, chip, chip_drops, left_out, asked) -> None:
    dice = _row(3)
    lines = ReaderSettings(domino_asks=0.95, domino_drops=0.99, chip_drops=chip_drops)
    after = asks.dominoes_asked(IMAGE, dice, domino_check=_Pair(domino, chip), drop=True, settings=lines)
    assert len(dice) - len(after) == left_out
    assert int((after.confidences <= ASKED_AT_MOST).sum()) == asked
    offered = asks.halves_dropped(IMAGE, dice, domino_check=_Pair(domino, chip), settings=lines)
    assert len(dice) - len(offered) == left_out  # told a count, the boxes it leaves out lose the same


def test_a_single_check_is_held_to_the_domino_line_alone() -> None:
    # A models folder without the chip check: the chip line has no check to apply to.
    lines = ReaderSettings(domino_drops=0.99, chip_drops=0.5)
    assert len(asks.dominoes_asked(IMAGE, _row(3), domino_check=_Always(0.9), drop=True, settings=lines)) == 3
    assert len(asks.dominoes_asked(IMAGE, _row(3), domino_check=_Always(0.995), drop=True, settings=lines)) == 0


def test_no_check_drops_no_half() -> None:
    dice = _row(2)
    assert asks.halves_dropped(IMAGE, dice, domino_check=None, settings=ReaderSettings()) is dice
