"""Timing a reader setting against the defaults in one process (benchmarks/bench_option.py)."""

from __future__ import annotations

import json
import shutil

import bench_option  # benchmarks/ is on pytest's pythonpath
import pytest


def test_paired_times_runs_both_in_turn_and_tells_the_slower_one() -> None:
    calls: list[str] = []

    def slow() -> None:
        calls.append("slow")
        sum(range(300_000))

    def fast() -> None:
        calls.append("fast")

    times = bench_option.paired_times(slow, fast, repeats=5)
    assert calls == ["slow", "fast"] * 6  # one warm-up each, then in turn
    assert times["repeats"] == 5
    assert times["first_ms"] > times["second_ms"]
    assert times["difference_ms"] > 0


def test_a_setting_that_changes_nothing_costs_about_nothing(capsys) -> None:
    assert bench_option.main(["--option", "check_below=0.9", "--repeats", "3", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["size"] for r in rows] == ["640x480", "1920x1080", "3024x3024", "4032x3024"] * 4
    assert {r["scene"] for r in rows} == {"busy", "few", "board", "board-plain"}
    for r in rows:
        assert r["first_ms"] > 0 and r["second_ms"] > 0
        # The same reading twice: the difference is noise, well under either time.
        assert abs(r["difference_ms"]) < max(r["first_ms"], r["second_ms"])


def test_a_copy_of_the_networks_is_timed_against_them(tmp_path, capsys) -> None:
    from dicecam.vision.reader import DEFAULT_MODELS

    for f in DEFAULT_MODELS.iterdir():
        if f.is_file() and f.suffix in (".onnx", ".json"):
            shutil.copy(f, tmp_path / f.name)
    assert bench_option.main(["--vs-models", str(tmp_path), "--repeats", "2"]) == 0
    out = capsys.readouterr().out
    assert f"the networks of {tmp_path}" in out
    assert out.count("| busy |") == len(bench_option.SIZES) == out.count("| board |")  # a row a size


@pytest.mark.parametrize(("argv", "message"), [
    ([], "give --option NAME=VALUE, --vs-models DIR, or both"),
    (["--vs-models", "/no/such/folder"], "no such folder: /no/such/folder"),
])
def test_nothing_to_compare_is_refused_with_a_reason(argv, message, capsys) -> None:
    with pytest.raises(SystemExit):
        bench_option.main(argv)
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("flags", "counted", "searched", "more"), [
    ([], False, True, 0),
    (["--dice"], True, True, 0),
    (["--frames"], True, False, 0),  # as the live camera reads a frame
    (["--more", "3"], True, True, 3),  # a count the photo cannot fill
    (["--frames", "--more", "1"], True, False, 1),
])
def test_both_readers_are_told_each_photos_count_and_whether_to_search(flags, counted, searched, more,
                                                                      monkeypatch) -> None:
    from bench_vision import DICE, SIZES

    from dicecam.vision.reader import DiceReader

    told: list[tuple[int | None, bool]] = []

    def read(self, image, *, count=None, search=True):
        told.append((count, search))

    monkeypatch.setattr(DiceReader, "read", read)
    assert bench_option.main(["--option", "check_count_fill=0", "--repeats", "1", *flags]) == 0
    # Each photo: a warm-up and a turn for each reader, scene by scene as DICE lists them.
    assert told == [(DICE[scene] + more if counted else None, searched)
                    for scene in DICE for _ in range(len(SIZES)) for _ in range(4)]


def test_a_count_of_fewer_dice_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        bench_option.main(["--option", "check_count_fill=0", "--more", "-1"])
    assert "count of dice to add, not -1" in capsys.readouterr().err


def test_dice_and_frames_are_one_or_the_other(capsys) -> None:
    with pytest.raises(SystemExit):
        bench_option.main(["--option", "check_count_fill=0", "--dice", "--frames"])
    assert "not allowed with argument" in capsys.readouterr().err
