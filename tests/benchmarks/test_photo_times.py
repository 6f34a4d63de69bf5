"""Each real photo's own time (benchmarks/photo_times.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import photo_times  # benchmarks/ is on pytest's pythonpath
import pytest
from photo_times import PhotoTime, fastest, main, summary, time_photos

from dicecam.vision.dataset import read_dataset
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


class Clock:
    """A `time.perf_counter` that moves by the next of `steps` (seconds) on every second call:
    a read that takes exactly that long."""

    def __init__(self, steps: list[float]) -> None:
        self.now, self.steps, self.calls = 0.0, list(steps), 0

    def __call__(self) -> float:
        self.calls += 1
        if self.calls % 2 == 0:
            self.now += self.steps.pop(0)
        return self.now


def test_fastest_warms_once_and_keeps_the_quickest_timed_read(monkeypatch) -> None:
    clock = Clock([0.030, 0.012, 0.020])
    monkeypatch.setattr(photo_times.time, "perf_counter", clock)
    reads = []
    assert fastest(lambda: reads.append(1), 3) == pytest.approx(12.0)
    assert len(reads) == 4  # one untimed warm-up read, then three timed


@pytest.mark.parametrize("reads", [0, -1])
def test_a_photo_is_read_at_least_once(reads) -> None:
    with pytest.raises(ValueError, match="at least once"):
        fastest(lambda: None, reads)


def test_summary_counts_the_photos_over_budget_and_names_the_slowest() -> None:
    times = [PhotoTime(f"images/dev/p{i}.jpg", ms, 2) for i, ms in enumerate([10.0, 20.0, 30.0, 40.0, 51.0, 90.0])]
    got = summary(times, 50.0)
    assert got["photos"] == 6 and got["median_ms"] == 35.0 and got["max_ms"] == 90.0
    assert got["p90_ms"] == round(float(np.percentile([10, 20, 30, 40, 51, 90], 90)), 1)
    assert got["over_budget"] == 2
    assert [row["image"] for row in got["slowest"]] == ["p5.jpg", "p4.jpg", "p3.jpg", "p2.jpg", "p1.jpg"]
    assert summary(times, 95.0)["over_budget"] == 0


def test_summary_of_no_photos_says_so() -> None:
    assert summary([]) == {"photos": 0, "median_ms": None, "p90_ms": None, "max_ms": None, "over_budget": 0,
                           "slowest": []}


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(threads=2)


def test_every_whole_photo_of_the_split_is_timed_and_crops_are_left_out(reader) -> None:
    whole = [p for p in read_dataset(SAMPLES, split="dev") if not p.crop]
    times = time_photos(reader, SAMPLES, "dev", reads=1)
    assert [t.image for t in times] == [p.image for p in whole]
    assert all(t.ms > 0 for t in times)
    assert [t.dice for t in times] == [len(p.dice) for p in whole]


def test_max_dice_keeps_only_throws_of_that_many(reader) -> None:
    times = time_photos(reader, SAMPLES, "dev", max_dice=2, reads=1, dice=True)
    assert times and all(t.dice <= 2 for t in times)
    assert len(times) == sum(1 for p in read_dataset(SAMPLES, split="dev") if not p.crop and len(p.dice) <= 2)


def test_json_output_carries_the_figures_and_the_budget(capsys) -> None:
    main([str(SAMPLES), "--max-dice", "2", "--reads", "1", "--budget", "1000", "--json"])
    got = json.loads(capsys.readouterr().out)
    assert got["photos"] >= 1 and got["over_budget"] == 0 and got["budget_ms"] == 1000
    assert got["median_ms"] <= got["p90_ms"] <= got["max_ms"]


@pytest.mark.parametrize(("bad", "reason"), [(["--reads", "0"], "--reads is how many timed reads"),
                                             (["--max-dice", "-1"], "--max-dice is a number of dice")])
def test_bad_arguments_are_refused_with_a_reason(bad, reason, capsys) -> None:
    with pytest.raises(SystemExit):
        main([str(SAMPLES), *bad])
    assert reason in capsys.readouterr().err


def test_calls_take_turns_in_each_round_and_each_keeps_its_quickest(monkeypatch) -> None:
    clock = Clock([0.030, 0.050, 0.012, 0.040, 0.020, 0.045])
    monkeypatch.setattr(photo_times.time, "perf_counter", clock)
    order = []
    got = photo_times.fastest_each([lambda: order.append("a"), lambda: order.append("b")], 3)
    assert got == pytest.approx([12.0, 40.0])
    assert order == ["a", "b"] * 4  # a warm-up of each, then three rounds in turn


def test_paired_names_the_photos_one_reader_puts_over_the_budget() -> None:
    a = [PhotoTime("x/p1.jpg", 40.0, 5), PhotoTime("x/p2.jpg", 49.0, 5), PhotoTime("x/p3.jpg", 70.0, 6)]
    b = [PhotoTime("x/p1.jpg", 41.0, 5), PhotoTime("x/p2.jpg", 51.0, 5), PhotoTime("x/p3.jpg", 60.0, 6)]
    got = photo_times.paired(a, b, budget=50)
    assert got["median_diff_ms"] == 1.0
    assert got["flips"] == [{"image": "p2.jpg", "ms": 49.0, "vs_ms": 51.0}]


def test_a_candidates_models_are_timed_on_the_same_photos(capsys) -> None:
    main([str(SAMPLES), "--max-dice", "2", "--reads", "1", "--vs-models", str(SAMPLES.parent / "models"), "--json"])
    got = json.loads(capsys.readouterr().out)
    assert got["vs_models"]["photos"] == got["photos"] >= 1
    assert isinstance(got["median_diff_ms"], float) and isinstance(got["flips"], list)


def test_a_candidate_setting_is_timed_on_the_same_photos(capsys) -> None:
    main([str(SAMPLES), "--max-dice", "2", "--reads", "1", "--vs-option", "search_max_side=640", "--json"])
    got = json.loads(capsys.readouterr().out)
    assert got["vs_option"]["photos"] == got["photos"] >= 1
    assert "vs_models" not in got
    assert isinstance(got["median_diff_ms"], float) and isinstance(got["flips"], list)


def test_a_candidates_models_with_its_settings_are_timed_together(capsys) -> None:
    main([str(SAMPLES), "--max-dice", "2", "--reads", "1", "--vs-models", str(SAMPLES.parent / "models"),
          "--vs-option", "search_max_side=640"])
    out = capsys.readouterr().out
    assert f"{SAMPLES.parent / 'models'} search_max_side=640, in turn on each photo" in out


def test_a_candidate_setting_is_printed_by_name(capsys) -> None:
    main([str(SAMPLES), "--max-dice", "2", "--reads", "1", "--vs-option", "search_max_side=640"])
    assert "search_max_side=640, in turn on each photo" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "reason"), [
    (["--vs-option", "no_such_setting=1"], "unknown reader setting"),
    (["--vs-models", "/no/such/folder"], "no such folder: /no/such/folder"),
])
def test_a_bad_candidate_is_refused_with_a_reason(argv, reason, capsys) -> None:
    with pytest.raises(SystemExit):
        main([str(SAMPLES), *argv])
    assert reason in capsys.readouterr().err
