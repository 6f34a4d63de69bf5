"""One report on a candidate models folder against the shipped one (benchmarks/candidate.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import candidate  # benchmarks/ is on pytest's pythonpath
import pytest

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
SAMPLES = ROOT / "sample_images"
FILES = ("detector.onnx", "reader.onnx", "whole_die.onnx", "confidence.json")


def _copy(tmp_path: Path, *, without: str | None = None) -> Path:
    folder = tmp_path / "candidate"
    folder.mkdir()
    for name in FILES:
        if name != without:
            shutil.copy(MODELS / name, folder / name)
    return folder


@pytest.mark.parametrize(("without", "says"), [
    ("reader.onnx", "has no reader.onnx"),
    ("detector.onnx", "has no detector.onnx"),
    ("whole_die.onnx", "read without the check"),
    ("confidence.json", "python -m dicecam.training.calibrate"),
])
def test_an_incomplete_folder_is_refused_before_anything_is_read(tmp_path, capsys, without, says) -> None:
    folder = _copy(tmp_path, without=without)
    assert candidate.main([str(folder), "--datasets", str(SAMPLES), "--split", "all", "--scenes", "0",
                           "--no-acceptance"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("candidate: ") and says in err


def test_a_missing_folder_is_refused(tmp_path) -> None:
    with pytest.raises(candidate.CandidateError, match="is not a folder"):
        candidate.check_folder(tmp_path / "nowhere", MODELS)


@pytest.fixture(scope="module")
def itself(tmp_path_factory) -> dict:
    """The shipped folder, copied, against itself on the sample photos and two rendered scenes."""
    folder = _copy(tmp_path_factory.mktemp("same"))
    return candidate.report(folder, MODELS, [SAMPLES], split="all", scenes=2, tests=False)


def test_the_shipped_folder_against_itself_wins_and_loses_nothing(itself) -> None:
    row = itself["sets"]["sample_images"]
    assert row["dice"] == {"won": 0, "won_sure": 0, "lost": 0, "lost_sure": 0}
    assert row["candidate"] == row["against"]
    assert row["missed"]["candidate"] == row["missed"]["against"]
    assert 0.9 < row["candidate"]["plain"]["read_f1"] <= 1.0
    assert itself["rendered"]["candidate"] == itself["rendered"]["against"]
    assert "acceptance" not in itself


def test_the_report_says_where_each_folder_s_missed_dice_go(tmp_path, capsys) -> None:
    # One sample photo labelled with one more "die" where its table is bare (the top-left
    # corner): no detector boxes it, so both folders miss it, under "no box".
    row = json.loads((SAMPLES / "labels.jsonl").read_text().splitlines()[0])
    row["dice"].append({"value": 3, "box": [2.0, 2.0, 30.0, 30.0]})
    dataset = tmp_path / "ghost"
    (dataset / Path(row["image"]).parent).mkdir(parents=True)
    shutil.copy(SAMPLES / row["image"], dataset / row["image"])
    (dataset / "labels.jsonl").write_text(json.dumps({**row, "split": "dev"}) + "\n")
    folder = _copy(tmp_path)
    assert candidate.main([str(folder), "--datasets", str(dataset), "--scenes", "0", "--no-acceptance"]) == 0
    out = capsys.readouterr().out
    assert "missed dice, candidate / against: no box 1 / 1" in out


def test_the_candidate_is_read_with_its_own_confidence_fit(tmp_path, capsys) -> None:
    folder = _copy(tmp_path)
    fit = json.loads((folder / "confidence.json").read_text())
    (folder / "confidence.json").write_text(json.dumps({**fit, "bias": -30.0}))  # no die is ever sure
    assert candidate.main([str(folder), "--datasets", str(SAMPLES), "--split", "all", "--scenes", "0",
                           "--no-acceptance", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["sets"]["sample_images"]
    # Every die of a whole photo unsure (the single-die crops are read without the fit).
    assert row["candidate"]["plain"]["unsure_share"] > 0.9
    assert row["against"]["plain"]["unsure_share"] < 0.2
    # The same boxes and values either way: only how sure differs.
    assert row["candidate"]["plain"]["read_f1"] == row["against"]["plain"]["read_f1"]
    assert row["dice"]["won"] == row["dice"]["lost"] == 0


def test_the_shipped_folder_against_itself_gains_nothing_and_knows_it(itself) -> None:
    gain = itself["sets"]["sample_images"]["gain"]
    assert gain == {"plain": [0.0, 0.0, 0.0], "count": [0.0, 0.0, 0.0]}


def test_a_reader_that_drops_most_dice_loses_read_f1_beyond_its_interval() -> None:
    from dicecam.vision.reader import DiceReader
    from dicecam.vision.settings import ReaderSettings

    shipped = DiceReader(MODELS)
    # Keeping only boxes the check is all but certain of drops most dice of a whole photo.
    strict = DiceReader(MODELS, settings=ReaderSettings(min_whole_die=0.9999, rescue_not_a_die=None))
    dice, gain = candidate.compare(shipped, strict, SAMPLES, "all")
    g, low, high = gain["plain"]
    assert g < 0 and low <= g <= high < 0
    assert dice["lost"] > 0 and dice["won"] == 0
