"""A box the reader calls "not a die" is kept where the whole-die check plainly sees a die
(`rescue_not_a_die`, `rescue_whole`): a small die on a printed hex looks like print to a
reader that sees only its face. So is a weak peak the reader reads only fairly plainly
(`weak_rescue`, S232)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dicecam.vision.candidates import Candidates, filled
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _box(*, peak: float, top: float, not_a_die: float, whole: float | None) -> Candidates:
    """One typical-sized face read as a 3 (`top` sure of it), its detector `peak`, the
    reader's "not a die" and the check's word (None: a models folder without the check)."""
    f = np.float32
    return Candidates(np.array([[10, 10, 40, 40]], f), np.array([peak], f), np.array([3]), np.array([top], f),
                      np.array([top], f), np.array([not_a_die], f), np.array([1.0], f), None, np.array([False]),
                      None if whole is None else np.array([whole], f))


def one_box(not_a_die: float, whole: float | None) -> Candidates:
    """A plain, sure, typical-sized face that only the reader's "not a die" may drop."""
    return _box(peak=1.0, top=0.99, not_a_die=not_a_die, whole=whole)


@pytest.mark.parametrize(("not_a_die", "whole", "kept"), [
    (0.1, np.nan, True),   # a die to the reader: the rescue is not needed
    (0.3, np.nan, False),  # not looked at: "not a die" stands
    (0.3, None, False),    # a models folder without the check
    (0.3, 0.95, True),
    (0.3, 0.90, True),     # at the threshold
    (0.3, 0.89, False),
    (0.59, 0.99, True),
    (0.6, 0.99, False),    # plainly no die to the reader: the check cannot overrule that
    (0.9, 1.0, False),
])
def test_not_a_die_is_overruled_only_where_the_check_plainly_sees_a_die(reader, not_a_die, whole, kept) -> None:
    assert (reader.settings.rescue_not_a_die, reader.settings.rescue_whole) == (0.6, 0.9)
    assert bool(reader.judge(one_box(not_a_die, whole)).kept[0]) is kept


def test_without_the_rescue_not_a_die_stands_whatever_the_check_says(reader) -> None:
    assert not reader.judge(one_box(0.3, 0.99), rescue_not_a_die=None).kept[0]
    assert reader.judge(one_box(0.1, 0.99), rescue_not_a_die=None).kept[0]


def weak_box(top: float, whole: float | None) -> Candidates:
    """A typical-sized face on a weak peak (0.35), read `top`, that the reader calls a die."""
    return _box(peak=0.35, top=top, not_a_die=0.01, whole=whole)


@pytest.mark.parametrize(("top", "whole", "kept"), [
    (0.85, np.nan, True),  # read plainly: kept without the check (`weak_sure`)
    (0.6, np.nan, False),  # not looked at
    (0.6, None, False),    # a models folder without the check
    (0.6, 0.95, True),
    (0.6, 0.90, True),     # at the threshold
    (0.6, 0.89, False),
    (0.5, 0.99, True),
    (0.49, 0.99, False),   # the reader barely sees a face: the check cannot make one
])
def test_a_weak_peak_read_fairly_plainly_is_kept_where_the_check_plainly_sees_a_die(reader, top, whole, kept) -> None:
    assert reader.min_score > 0.35 and (reader.settings.weak_sure, reader.settings.weak_rescue) == (0.8, 0.5)
    assert bool(reader.judge(weak_box(top, whole)).kept[0]) is kept


def test_without_the_rescue_a_weak_peak_needs_a_plain_reading_whatever_the_check_says(reader) -> None:
    assert not reader.judge(weak_box(0.6, 0.99), weak_rescue=None).kept[0]
    assert reader.judge(weak_box(0.85, np.nan), weak_rescue=None).kept[0]


def test_the_check_looks_at_the_boxes_it_is_asked_to_besides_the_kept_ones(reader) -> None:
    photo = load_image(SAMPLES / "byler_d6" / "IMG_20191209_100248.jpg")
    found = reader.candidates(photo)
    kept = filled(found.kept, "kept")
    assert kept.any() and (~kept).sum() >= 2
    also = np.zeros(len(found), bool)
    also[np.flatnonzero(~kept)[0]] = True
    seen = reader.whole_die.look(photo, found, also=also).whole
    assert not np.isnan(seen[kept | also]).any()
    assert np.isnan(seen[~kept & ~also]).all()
    # The same boxes get the same word whether looked at with others or alone.
    np.testing.assert_allclose(seen[also], reader.whole_die.probability(photo, found.boxes[also]), atol=1e-5)


def _against_not_a_die(reader, found: Candidates) -> np.ndarray:
    """The boxes the rules would drop as "not a die"."""
    return filled(found.not_a_die, "not_a_die") >= reader.settings.max_not_a_die


def _weak_and_not_plain(reader, found: Candidates) -> np.ndarray:
    """The weak peaks the reader does not read plainly enough to keep alone."""
    return (found.scores < reader.min_score) & (filled(found.top, "top") < reader.settings.weak_sure)


@pytest.mark.datasets("roboflow_dice")
@pytest.mark.parametrize(("rescued_from", "off", "at_least"), [
    (_against_not_a_die, {"rescue_not_a_die": None}, 5),
    (_weak_and_not_plain, {"weak_rescue": None}, 1),
], ids=["not a die", "weak peak"])
def test_on_a_game_table_the_rescues_find_labelled_dice(reader, shared_datasets, rescued_from, off, at_least) -> None:
    rescued = right = 0
    for labelled in read_dataset(shared_datasets / "roboflow_dice", split="dev"):
        found = reader.candidates(load_image(labelled.path))
        if not len(found):
            continue
        kept = filled(found.kept, "kept")
        saved = kept & rescued_from(reader, found)
        # Every box kept against the rule was looked at and plainly a die.
        assert (found.whole[saved] >= reader.settings.rescue_whole).all()
        # And without the rescue, exactly those boxes are dropped.
        assert np.array_equal(filled(reader.judge(found, **off).kept, "kept"), kept & ~saved)
        rescued += int(saved.sum())
        pairs = match_boxes(labelled.dice.boxes, found.boxes[saved])
        right += sum(int(labelled.dice.values[t] == found.values[saved][q]) for t, q in pairs)
    assert rescued >= at_least
    assert right > rescued / 2  # more real dice, read right, than anything else
