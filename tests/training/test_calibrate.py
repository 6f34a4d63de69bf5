"""Fitting the confidence cap: the logistic fit and which readings count as right."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from dicecam.training.calibrate import collect_photos, fit_logistic, main, right_readings
from dicecam.vision.confidence import load_confidence_fit


def test_the_fit_finds_the_weights_the_readings_were_drawn_with():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(40000), rng.normal(size=(40000, 3))])
    truth = np.array([-0.3, 0.8, 1.1, 2.0])
    right = rng.random(40000) < 1 / (1 + np.exp(-(x @ truth)))
    np.testing.assert_allclose(fit_logistic(x, right), truth, atol=0.08)


def test_a_clean_split_stays_finite():
    x = np.column_stack([np.ones(6), [-3, -2, -1, 1, 2, 3]])
    w = fit_logistic(x, np.array([0, 0, 0, 1, 1, 1], bool))
    assert np.all(np.isfinite(w)) and w[1] > 0


BOX = [[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]]


@pytest.mark.parametrize("found_boxes, found_values, right, counts", [
    ([[1, 1, 11, 11]], [4], [True], [True]),               # on a die, read as it shows
    ([[1, 1, 11, 11]], [5], [False], [True]),              # on a die, misread
    ([[100, 100, 110, 110]], [4], [False], [True]),        # on no die: a side face, the table
    ([[41, 1, 51, 11]], [6], [True], [False]),             # on a die the renderer marks unreadable
    ([[0, 0, 10, 10], [2, 2, 9, 9]], [4, 4], [True, False], [True, True]),  # one die, two boxes
])
def test_which_readings_were_right(found_boxes, found_values, right, counts):
    got = right_readings(np.array(found_boxes, np.float32), np.array(found_values), np.array(BOX, np.float32),
                         np.array([4, 2, 6]), np.array([True, True, False]))
    assert got[0].tolist() == right and got[1].tolist() == counts


def test_the_command_writes_a_fit_the_reader_loads(tmp_path):
    out = tmp_path / "confidence.json"
    main(["models", "--scenes", "6", "--seeds", "1,2", "--out", str(out)])
    fit = load_confidence_fit(tmp_path)
    assert fit is not None and np.isfinite(fit.weights).all()


def test_the_command_wants_two_seeds(capsys):
    with pytest.raises(SystemExit):
        main(["models", "--seeds", "1"])
    assert "two integers" in capsys.readouterr().err


SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _photo_set(tmp_path: Path, values_of: dict[str, list[int]] | None = None) -> Path:
    """The sample photos as a train split (labels as shipped, or with the given values)."""
    rows = [json.loads(line) for line in (SAMPLES / "labels.jsonl").read_text().splitlines()]
    folder = tmp_path / "set"
    shutil.copytree(SAMPLES, folder, ignore=shutil.ignore_patterns("LICENSES", "*.md", "labels.jsonl"))
    out = []
    for row in rows:
        if row["dice"][0]["box"] is None:
            continue  # a crop
        row["split"] = "train"
        if values_of and Path(row["image"]).name in values_of:
            for die, value in zip(row["dice"], values_of[Path(row["image"]).name]):
                die["value"] = value
        out.append(json.dumps(row))
    (folder / "labels.jsonl").write_text("\n".join(out) + "\n")
    return folder


def test_real_photos_give_one_reading_each_right_where_the_label_agrees(tmp_path):
    x, right = collect_photos(Path("models"), [_photo_set(tmp_path)])
    assert x.shape[1] == 5 and len(x) == len(right) and len(right) > 100
    assert right.mean() > 0.95  # the sample photos are read nearly exactly


def test_a_label_the_reading_disagrees_with_counts_as_a_mistake(tmp_path):
    name = "valid_70.jpg"  # five dice, read exactly
    rows = [json.loads(line) for line in (SAMPLES / "labels.jsonl").read_text().splitlines()]
    shown = next(row for row in rows if row["image"].endswith(name))
    wrong = [value % 6 + 1 for value in (d["value"] for d in shown["dice"])]
    _, right_as_labelled = collect_photos(Path("models"), [_photo_set(tmp_path / "a")])
    _, right_relabelled = collect_photos(Path("models"), [_photo_set(tmp_path / "b", {name: wrong})])
    assert right_as_labelled.sum() - right_relabelled.sum() == len(wrong)
