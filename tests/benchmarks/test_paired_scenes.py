"""The paired comparison of two reader settings (benchmarks/paired_scenes.py)."""

from __future__ import annotations

import numpy as np
import paired_scenes  # benchmarks/ is on pytest's pythonpath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecam.vision.metrics import Score
from dicecam.vision.reader import DEFAULT_MODELS

counts = st.tuples(st.integers(0, 40), st.integers(0, 40)).flatmap(
    lambda lp: st.tuples(st.just(lp[0]), st.just(lp[1]), st.integers(0, min(lp))))


@given(counts)
def test_read_f1_of_counts_is_the_scoring_rules(c: tuple[int, int, int]) -> None:
    labelled, predicted, right = c
    score = Score(labelled=labelled, predicted=predicted, matched=right, right=right)
    assert paired_scenes.read_f1(np.array(c)) == pytest.approx(score.read_f1)


def test_the_same_readings_gain_nothing_and_the_interval_is_closed() -> None:
    rng = np.random.default_rng(1)
    scenes = rng.integers(1, 9, size=(200, 1)).repeat(3, axis=1)
    scenes[:, 2] -= rng.integers(0, 2, size=200)
    assert paired_scenes.paired_gain(scenes, scenes, resamples=200) == (0.0, 0.0, 0.0)


def test_a_reading_right_more_often_gains_and_its_interval_holds_the_gain() -> None:
    rng = np.random.default_rng(2)
    labelled = rng.integers(2, 9, size=(500,))
    base = np.stack([labelled, labelled, labelled - (rng.random(500) < 0.3)], axis=1)
    better = base.copy()
    better[:, 2] = labelled - (rng.random(500) < 0.1)
    gain, low, high = paired_scenes.paired_gain(base, better, resamples=500)
    totals = base.sum(axis=0), better.sum(axis=0)
    assert gain == pytest.approx(2 * totals[1][2] / (2 * totals[1][0]) - 2 * totals[0][2] / (2 * totals[0][0]))
    assert 0 < low < gain < high
    # Swapped, the gain and its interval turn round.
    assert paired_scenes.paired_gain(better, base, resamples=500) == pytest.approx((-gain, -high, -low))


def test_counts_of_different_scenes_are_refused() -> None:
    with pytest.raises(ValueError, match="alike"):
        paired_scenes.paired_gain(np.ones((3, 3)), np.ones((4, 3)))


def test_nothing_to_compare_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        paired_scenes.main(["--scenes", "1"])
    assert stop.value.code == 2
    assert "nothing to compare" in capsys.readouterr().err


def test_the_shipped_models_against_themselves_on_upright_scenes_gain_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    models = DEFAULT_MODELS
    assert paired_scenes.main(["--against", str(models), "--scenes", "2", "--seed", "5,6", "--upright",
                               "--resamples", "50", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["upright"] is True and result["against"] == str(models)
    assert result["read_f1"][0] == result["read_f1"][1] and 0 < result["read_f1"][0] <= 1
    assert result["gain"] == 0 and result["interval_95"] == [0, 0]
    assert result["extra_boxes_on_dice"][0] == result["extra_boxes_on_dice"][1]
