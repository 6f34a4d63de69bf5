"""The face-gap benchmark (benchmarks/face_gaps.py): where on its whole die each kept face lies."""

from __future__ import annotations

import json
from pathlib import Path

import face_gaps  # benchmarks/ is on pytest's pythonpath
import numpy as np
import pytest

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[2]


def test_faces_are_counted_under_each_drop_by_kind_and_sureness():
    rows = [("right", 0.0, True), ("right", 0.3, True), ("misread", 0.3, False), ("misread", 0.5, True),
            ("extra", 0.22, True)]
    counts = face_gaps.tally(rows, [0.2, 0.25, 0.4])
    assert counts["0.2"] == {"right": {"faces": 1, "sure": 1}, "misread": {"faces": 2, "sure": 1},
                             "extra": {"faces": 1, "sure": 1}}
    assert counts["0.25"]["extra"] == {"faces": 0, "sure": 0}
    assert counts["0.4"] == {"right": {"faces": 0, "sure": 0}, "misread": {"faces": 1, "sure": 1},
                             "extra": {"faces": 0, "sure": 0}}


@pytest.fixture(scope="module")
def board_photo():
    return next(p for p in read_dataset(ROOT / "sample_images") if p.image.startswith("roboflow_dice/"))


def test_with_the_labels_as_the_dice_a_face_read_as_labelled_is_right(board_photo):
    reader = DiceReader()
    image = load_image(board_photo.path)
    found = reader.candidates(image)
    kept = found.take(np.asarray(found.kept, bool))
    # Label every kept face's own box (as its whole die) with the value it is read as.
    rows = face_gaps.photo_rows(reader, image, kept.boxes, np.asarray(kept.values), oracle=True)
    assert len(rows) == len(kept) > 0
    assert all(kind == "right" and gap == pytest.approx(0.0, abs=1e-6) for kind, gap, _ in rows)


def test_models_without_whole_dice_are_refused_without_the_oracle(board_photo):
    with pytest.raises(ValueError, match="no whole dice"):
        face_gaps.photo_rows(DiceReader(), load_image(board_photo.path), board_photo.dice.boxes,
                             board_photo.dice.values, oracle=False)


def test_the_script_prints_one_json_object(capsys):
    face_gaps.main([str(ROOT / "sample_images"), "--oracle", "--drops", "0.25", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert set(out["faces"]) == set(face_gaps.KINDS) and list(out["lower_than"]) == ["0.25"]
    assert sum(out["faces"].values()) > 0
