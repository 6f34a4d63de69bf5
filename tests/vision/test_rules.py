"""`vision.rules.judge` rule by rule, on one read box whose readings each row sets (no network):
the shipped lines (`ReaderSettings()`) against what each rule is for (docs/READING.md)."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.vision.candidates import Candidates, filled
from dicecam.vision.rules import judge
from dicecam.vision.settings import ReaderSettings

MIN_SCORE = 0.4
#: A plain die: a strong peak, read surely, the typical size, no doubt that it is a die.
PLAIN = dict(score=0.9, top=0.95, not_a_die=0.01, relative=1.0, whole=np.nan, lone=False)


def _one(**changes: object) -> Candidates:
    row = {**PLAIN, **changes}
    return Candidates(np.array([[10, 10, 40, 40]], np.float32), np.array([row["score"]], np.float32),
                      values=np.array([3]), held=np.array([row["top"]], np.float32),
                      top=np.array([row["top"]], np.float32), not_a_die=np.array([row["not_a_die"]], np.float32),
                      relative=np.array([row["relative"]], np.float32), lone=np.array([row["lone"]]),
                      whole=np.array([row["whole"]], np.float32))


@pytest.mark.parametrize(("changes", "kept"), [
    ({}, True),
    ({"not_a_die": 0.3}, False),                       # read as no die
    ({"not_a_die": 0.3, "whole": 0.95}, True),         # ... but the check sees its cube (rescue)
    ({"not_a_die": 0.7, "whole": 0.95}, False),        # past the rescue line
    ({"score": 0.35, "top": 0.85}, True),              # a weak peak read plainly
    ({"score": 0.35, "top": 0.6}, False),              # a weak peak read doubtfully
    ({"score": 0.35, "top": 0.6, "whole": 0.95}, True),  # ... that the check plainly sees as a die
    ({"relative": 0.5, "top": 0.6}, False),            # a small stray (a pip, a side face)
    ({"relative": 0.5, "top": 0.95}, True),            # small but plainly read
    ({"relative": 2.5, "top": 0.87}, False),           # a giant (a bowl, a heap)
    ({"relative": 2.5}, True),                         # ... but read plainly: a clear die beside small non-dice (C431)
    ({"relative": 2.5, "not_a_die": 0.08}, False),     # ... read with a doubt that it is a die
    ({"relative": 2.5, "score": 0.3}, False),          # ... or on a weak peak (0.95 x 0.3 / 0.5 under 0.93)
    ({"lone": True, "top": 0.85}, False),              # found only by enlarging an empty photo
    ({"lone": True, "top": 0.95}, True),
    ({"whole": 0.2}, False),                           # the check plainly sees no die
])
def test_each_rule_keeps_or_drops_one_box(changes, kept) -> None:
    judged = judge(_one(**changes), ReaderSettings(), min_score=MIN_SCORE)
    assert bool(filled(judged.kept, "kept")[0]) == kept
    np.testing.assert_array_equal(judged.boxes, _one(**changes).boxes)  # judging moves nothing


def test_a_rule_turned_off_keeps_what_it_dropped() -> None:
    doubted = _one(not_a_die=0.3, whole=0.95)
    assert not filled(judge(doubted, ReaderSettings(rescue_not_a_die=None), min_score=MIN_SCORE).kept, "kept")[0]
    assert filled(judge(doubted, ReaderSettings(max_not_a_die=0.5), min_score=MIN_SCORE).kept, "kept")[0]


def test_without_the_plain_giants_line_every_giant_goes() -> None:
    giant = _one(relative=2.5)
    assert not filled(judge(giant, ReaderSettings(giant_sure=None), min_score=MIN_SCORE).kept, "kept")[0]


def test_no_boxes_judge_to_none() -> None:
    assert not len(judge(Candidates.empty(), ReaderSettings(), min_score=MIN_SCORE))
