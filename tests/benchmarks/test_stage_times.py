"""Where a reading's time goes, stage by stage (benchmarks/stage_times.py)."""

from __future__ import annotations

import json

import pytest
import stage_times  # benchmarks/ is on pytest's pythonpath
from bench_vision import DICE, SIZES, scene_photo

from dicecam.vision.candidates import filled
from dicecam.vision.decode import decode_image
from dicecam.vision.reader import DiceReader


@pytest.fixture(scope="module")
def board() -> object:
    return decode_image(scene_photo("board", 640, 480))


@pytest.mark.parametrize(("count", "search"), [
    (None, True),  # without a count there is nothing to search for
    (DICE["board"], True),  # told 2 dice: searched where the board's rules keep fewer
    (DICE["board"], False),  # a live frame is never searched
])
def test_the_search_is_timed_only_where_it_runs(board, count, search) -> None:
    reader = DiceReader()
    kept = int(filled(reader.candidates(board).kept, "kept").sum())
    searched = search and count is not None and kept < count
    clock = stage_times.StageClock(reader)
    stages = clock.reading(lambda: reader.read(board, count=count, search=search))
    assert (stages["search"] > 0) == searched
    assert stages["first look"] > 0 and stages["reader net"] > 0 and stages["crops"] > 0
    # Every stage lies inside the reading, none inside another.
    timed = [stages[c] for c in stage_times.COLUMNS]
    assert sum(timed) <= stages["total"]
    assert stages["rest"] == pytest.approx(stages["total"] - sum(timed))


def test_a_clocked_reader_reads_as_before(board) -> None:
    plain, clocked = DiceReader(), DiceReader()
    stage_times.StageClock(clocked)
    a, b = plain.read(board, count=2), clocked.read(board, count=2)
    assert a.values.tolist() == b.values.tolist() and a.boxes.tolist() == b.boxes.tolist()


def test_medians_are_taken_column_by_column() -> None:
    rows = [{"total": 10.0, "search": 1.0}, {"total": 30.0, "search": 0.0}, {"total": 20.0, "search": 5.0}]
    assert stage_times.stage_medians(rows) == {"total": 20.0, "search": 1.0}


def test_one_row_a_photo_size(capsys) -> None:
    assert stage_times.main(["--scene", "few", "--repeats", "1", "--dice", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["size"] for r in rows] == [f"{w}x{h}" for w, h in SIZES]
    assert {r["scene"] for r in rows} == {"few"} and {r["count"] for r in rows} == {DICE["few"]}
    assert all(r["total"] > 0 and r["search"] == 0 for r in rows)  # five clear dice: nothing to search


def test_no_readings_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        stage_times.main(["--repeats", "0"])
    assert "--repeats must be at least 1" in capsys.readouterr().err
