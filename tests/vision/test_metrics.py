"""The dataset README's scoring rule, on hand-made cases."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.vision.detections import Dice
from dicecam.vision.metrics import Score, match_boxes, score_photo, silent_throw, total, unsure_counts


def dice(*rows: tuple[int, tuple[float, float, float, float]]) -> Dice:
    return Dice.from_dicts([{"value": v, "box": list(b)} for v, b in rows])


SQUARE = (100, 100, 140, 140)  # centre (120, 120)


@pytest.mark.parametrize(
    ("truth", "predicted", "pairs"),
    [
        pytest.param([SQUARE], [SQUARE], [(0, 0)], id="same-box"),
        # Predicted box tiny, inside the label: its centre lies in the label.
        pytest.param([SQUARE], [(125, 125, 130, 130)], [(0, 0)], id="pred-centre-in-label"),
        # Label covers only the pips (matteop65): its centre lies in the larger predicted box.
        pytest.param([(110, 110, 120, 120)], [(90, 90, 170, 170)], [(0, 0)], id="label-centre-in-pred"),
        # Overlapping, but neither centre is inside the other box.
        pytest.param([SQUARE], [(125, 125, 165, 165)], [], id="overlap-without-centre"),
        # A centre exactly on the other box's edge counts as inside.
        pytest.param([SQUARE], [(130, 130, 150, 150)], [(0, 0)], id="centre-on-edge"),
        pytest.param([SQUARE], [(141, 100, 181, 140)], [], id="side-by-side"),
        # Nearest centres are taken first: the prediction goes to the label whose
        # centre is nearer, even though the other label then stays unmatched.
        pytest.param([(0, 0, 40, 40), (30, 0, 70, 40)], [(18, 0, 58, 40), (45, 0, 85, 40)],
                     [(1, 0)], id="greedy-not-optimal"),
        pytest.param([(0, 0, 10, 10), (100, 0, 110, 10)], [(100, 0, 110, 10), (0, 0, 10, 10)],
                     [(0, 1), (1, 0)], id="order-does-not-matter"),
        pytest.param([], [SQUARE], [], id="no-labels"),
        pytest.param([SQUARE], [], [], id="no-predictions"),
        pytest.param([SQUARE, SQUARE], [SQUARE], [(0, 0)], id="one-to-one"),
    ],
)
def test_match_boxes(truth, predicted, pairs):
    assert sorted(map(tuple, match_boxes(np.array(truth, float), np.array(predicted, float)).tolist())) == sorted(pairs)


def test_greedy_case_is_really_ambiguous():
    # Guard for the "greedy-not-optimal" row: the first prediction may match either
    # label and the second only the second label, so a best assignment would find
    # two pairs; nearest-first gives the first prediction to the second label.
    first_label, second_pred = (0, 0, 40, 40), (45, 0, 85, 40)
    assert match_boxes(np.array([first_label], float), np.array([second_pred], float)).shape == (0, 2)
    first_pred = (18, 0, 58, 40)
    assert match_boxes(np.array([first_label], float), np.array([first_pred], float)).tolist() == [[0, 0]]
    second_label = (30, 0, 70, 40)
    assert match_boxes(np.array([second_label], float), np.array([second_pred], float)).tolist() == [[0, 0]]


@pytest.mark.parametrize(
    ("truth", "predicted", "counts"),
    [
        # (photos, exact, labelled, predicted, matched, right)
        pytest.param(dice((4, SQUARE)), dice((4, SQUARE)), (1, 1, 1, 1, 1, 1), id="exact"),
        pytest.param(dice((4, SQUARE)), dice((3, SQUARE)), (1, 0, 1, 1, 1, 0), id="wrong-value"),
        pytest.param(dice((4, SQUARE)), dice((4, SQUARE), (2, (300, 300, 340, 340))), (1, 0, 1, 2, 1, 1),
                     id="extra-die"),
        pytest.param(dice((4, SQUARE), (2, (300, 300, 340, 340))), dice((4, SQUARE)), (1, 0, 2, 1, 1, 1),
                     id="missed-die"),
        pytest.param(Dice.empty(), Dice.empty(), (1, 1, 0, 0, 0, 0), id="no-dice-none-found"),
        pytest.param(Dice.empty(), dice((6, SQUARE)), (1, 0, 0, 1, 0, 0), id="no-dice-one-found"),
    ],
)
def test_score_photo_counts(truth, predicted, counts):
    assert score_photo(truth, predicted) == Score(*counts)
    # With every die marked unsure, the marked mistakes are all of the score's mistakes.
    assert unsure_counts(truth, predicted, 2.0)[0] == score_photo(truth, predicted).mistakes


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        # recall, precision, value accuracy, read F1, exact-roll rate
        (Score(photos=4, exact=3, labelled=10, predicted=8, matched=8, right=6),
         (0.8, 1.0, 0.75, 2 * 0.6 * 0.75 / 1.35, 0.75)),
        (Score(photos=2, exact=0, labelled=5, predicted=10, matched=5, right=5), (1.0, 0.5, 1.0, 2 * 0.5 / 1.5, 0.0)),
        (Score(photos=1, exact=0, labelled=3, predicted=0), (0.0, 1.0, 1.0, 0.0, 0.0)),
        (Score(photos=1, exact=1), (1.0, 1.0, 1.0, 1.0, 1.0)),
        (Score(), (1.0, 1.0, 1.0, 1.0, 1.0)),
    ],
)
def test_ratios(score, expected):
    got = (score.recall, score.precision, score.value_accuracy, score.read_f1, score.exact_roll_rate)
    assert got == pytest.approx(expected)


def test_scores_add_up_over_photos():
    scores = [Score(1, 1, 5, 5, 5, 5), Score(1, 0, 3, 4, 3, 2), Score(1, 0, 2, 0, 0, 0)]
    assert total(scores) == Score(3, 1, 10, 9, 8, 7)
    assert total([]) == Score()


def test_to_dict_holds_counts_and_ratios():
    d = Score(photos=2, exact=1, labelled=4, predicted=5, matched=4, right=3).to_dict()
    assert d == {
        "photos": 2, "exact": 1, "labelled": 4, "predicted": 5, "matched": 4, "right": 3,
        "recall": 1.0, "precision": 0.8, "value_accuracy": 0.75,
        "read_f1": round(2 * 0.75 * 0.6 / 1.35, 4), "exact_roll_rate": 0.5,
    }


_box = st.tuples(
    st.floats(0, 500), st.floats(0, 500), st.floats(1, 80), st.floats(1, 80)
).map(lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3]))
_dice = st.lists(st.tuples(st.integers(1, 6), _box), max_size=12).map(lambda rows: dice(*rows))


@settings(max_examples=150, deadline=None)
@given(truth=_dice, predicted=_dice)
def test_matching_is_one_to_one_and_obeys_the_centre_rule(truth, predicted):
    pairs = match_boxes(truth.boxes, predicted.boxes)
    assert len(set(pairs[:, 0].tolist())) == len(pairs) == len(set(pairs[:, 1].tolist()))
    for t, p in pairs.tolist():
        tb, pb = truth.boxes[t], predicted.boxes[p]
        tc, pc = (tb[:2] + tb[2:]) / 2, (pb[:2] + pb[2:]) / 2
        assert np.all((pc >= tb[:2]) & (pc <= tb[2:])) or np.all((tc >= pb[:2]) & (tc <= pb[2:]))
    score = score_photo(truth, predicted)
    assert score.right <= score.matched <= min(score.labelled, score.predicted)
    assert 0.0 <= score.read_f1 <= 1.0


@settings(max_examples=100, deadline=None)
@given(truth=_dice)
def test_a_perfect_reading_is_exact(truth):
    assert score_photo(truth, truth).exact == 1


@pytest.mark.parametrize(
    ("confidences", "expected"),
    [
        # Readings: right 4 at A, wrong 3 (is 5) at B, an extra die at C.
        pytest.param((0.9, 0.9, 0.9), (0, 0), id="all-sure"),
        pytest.param((0.9, 0.5, 0.4), (2, 0), id="both-mistakes-marked"),
        pytest.param((0.5, 0.9, 0.9), (0, 1), id="false-alarm"),
        pytest.param((0.6, 0.59, 0.9), (1, 0), id="threshold-is-strict"),
    ],
)
def test_unsure_counts_split_marked_mistakes_from_false_alarms(confidences, expected):
    a, b, c = SQUARE, (200, 100, 240, 140), (300, 300, 340, 340)
    truth = dice((4, a), (5, b))
    predicted = Dice(np.array([a, b, c], np.float32), np.array([4, 3, 2]), np.array(confidences, np.float32))
    assert unsure_counts(truth, predicted, 0.6) == expected
    assert unsure_counts(truth, Dice.empty(), 0.6) == (0, 0)


OTHER = (300, 300, 340, 340)


def sure(*rows: tuple[int, tuple[float, float, float, float], float]) -> Dice:
    """Dice with their confidences: (value, box, confidence) per die."""
    found = dice(*[(v, b) for v, b, _ in rows])
    return Dice(found.boxes, found.values, np.array([c for *_, c in rows], np.float32))


@pytest.mark.parametrize(
    ("truth", "predicted", "count", "silent"),
    [
        pytest.param(dice((4, SQUARE)), sure((4, SQUARE, 0.9)), None, False, id="read-exactly"),
        pytest.param(dice((4, SQUARE)), sure((3, SQUARE, 0.9)), None, True, id="wrong-value-sure"),
        pytest.param(dice((4, SQUARE)), sure((3, SQUARE, 0.5)), None, False, id="wrong-value-marked"),
        pytest.param(dice((4, SQUARE), (2, OTHER)), sure((3, SQUARE, 0.5), (2, OTHER, 0.9)), None, False,
                     id="one-die-marked-asks-for-the-throw"),
        pytest.param(dice((4, SQUARE)), sure((4, SQUARE, 0.9), (1, OTHER, 0.8)), None, True, id="extra-die-sure"),
        pytest.param(dice((4, SQUARE), (2, OTHER)), sure((4, SQUARE, 0.9)), None, True, id="missed-die-no-count"),
        pytest.param(dice((4, SQUARE), (2, OTHER)), sure((4, SQUARE, 0.9)), 2, False, id="short-of-the-count"),
        pytest.param(dice((4, SQUARE), (2, OTHER)), sure((4, SQUARE, 0.9), (5, OTHER, 0.9)), 2, True,
                     id="count-met-one-wrong"),
        pytest.param(dice((4, SQUARE)), Dice.empty(), None, False, id="nothing-found-asks"),
        pytest.param(dice((4, SQUARE)), sure((4, SQUARE, 0.7)), None, False, id="at-the-threshold-is-sure"),
        pytest.param(dice((4, SQUARE)), sure((5, SQUARE, 0.7)), None, True, id="wrong-at-the-threshold"),
    ],
)
def test_a_throw_is_silently_wrong_only_when_nothing_asks_the_player(truth, predicted, count, silent):
    assert silent_throw(truth, predicted, 0.7, count=count) is silent
    # A silent throw always has a silent mistake, or (told no count) a die missed with nothing marked.
    if silent:
        marked_mistakes = unsure_counts(truth, predicted, 0.7)[0]
        assert score_photo(truth, predicted).mistakes > marked_mistakes or len(predicted) < len(truth)
