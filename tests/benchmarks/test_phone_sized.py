"""A set's photos enlarged to a phone photo's size, read and timed (benchmarks/phone_sized.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from phone_sized import Tally, enlarged, main  # benchmarks/ is on pytest's pythonpath

from dicecam.vision.dataset import read_dataset
from dicecam.vision.detections import Dice

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.mark.parametrize(("shape", "side", "want"), [
    ((480, 640, 3), 1600, (1200, 1600, 3)),
    ((640, 480, 3), 2000, (2000, 1500, 3)),
    ((1200, 1600, 3), 800, (600, 800, 3)),
])
def test_a_photo_is_scaled_so_its_long_side_is_the_side_asked(shape, side, want) -> None:
    image = np.zeros(shape, np.uint8)
    out, factor = enlarged(image, side)
    assert out.shape == want and factor == pytest.approx(side / max(shape[:2]))


def test_enlarging_keeps_what_the_photo_shows_where_it_shows_it() -> None:
    image = np.zeros((64, 64, 3), np.uint8)
    image[16:32, 40:56] = 255  # a white square
    out, factor = enlarged(image, 256)
    ys, xs = np.nonzero(out[..., 0] > 127)
    assert factor == 4.0
    assert (ys.min(), ys.max(), xs.min(), xs.max()) == pytest.approx((64, 127, 160, 223), abs=2)


def test_a_tally_counts_sure_mistakes_and_unsure_dice_apart() -> None:
    truth = Dice(np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32), np.array([3, 5]), np.ones(2, np.float32))
    read = Dice(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], np.float32), np.array([3, 2, 1]),
                np.array([0.95, 0.95, 0.3], np.float32))
    tally = Tally()
    tally.add(truth, read)
    row = tally.to_dict()
    # One right die, one wrong value reported sure, one box on no die marked unsure.
    assert (row["photos"], row["exact"], row["sure_wrong"], row["unsure"]) == (1, 0, 1, 1)
    assert "median_ms" not in row  # not timed


def test_both_readers_read_and_are_timed_on_the_same_enlarged_photos(capsys) -> None:
    main([str(SAMPLES), "--side", "800", "--reads", "1", "--vs-option", "free_look_at_most=1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["side"] == 800 and not out["dice"]
    base, other = out["as set"], out["free_look_at_most=1"]
    whole = sum(1 for p in read_dataset(SAMPLES, split="dev") if not p.crop)
    assert base["photos"] == other["photos"] == whole
    for row in (base, other):
        assert row["median_ms"] > 0 and row["max_ms"] >= row["median_ms"] and 0 <= row["over_budget"] <= whole
    assert isinstance(out["median_diff_ms"], float)


def test_told_each_photo_s_count_the_reader_reports_that_many(capsys) -> None:
    main([str(SAMPLES), "--side", "800", "--dice", "--json"])
    out = json.loads(capsys.readouterr().out)
    labelled = sum(len(p.dice) for p in read_dataset(SAMPLES, split="dev") if not p.crop)
    assert out["dice"] and out["as set"]["predicted"] == labelled


@pytest.mark.parametrize(("bad", "reason"), [
    (["--side", "8"], "--side"),
    (["--reads", "-1"], "--reads"),
    (["--vs-option", "no_such_setting=1"], "no_such_setting"),
])
def test_bad_arguments_are_refused_with_a_reason(bad, reason, capsys) -> None:
    with pytest.raises(SystemExit):
        main([str(SAMPLES), *bad])
    assert reason in capsys.readouterr().err
