"""Reading dataset folders in the shared labels.jsonl format."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dicecam.vision.dataset import DatasetError, read_dataset, splits

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def write_labels(root: Path, rows: list) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    text = "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n"
    (root / "labels.jsonl").write_text(text, encoding="utf-8")
    return root


PHOTO = {"image": "images/a.jpg", "split": "dev", "size": [640, 480],
         "dice": [{"value": 6, "box": [10, 20, 50, 60]}, {"value": 2, "box": [100, 100, 140, 150.5]}]}
CROP = {"image": "crops/3/c.jpg", "split": "train", "size": [60, 61], "dice": [{"value": 3, "box": None}]}
EMPTY = {"image": "images/none.jpg", "split": "dev", "size": [640, 480], "dice": []}


def test_rows_become_labelled_photos(tmp_path):
    root = write_labels(tmp_path / "set", [PHOTO, CROP, EMPTY])
    photos = read_dataset(root)
    assert [p.image for p in photos] == ["images/a.jpg", "crops/3/c.jpg", "images/none.jpg"]
    first = photos[0]
    assert first.path == (root / "images/a.jpg").resolve()
    assert (first.split, first.size, first.crop) == ("dev", (640, 480), False)
    assert first.dice.values.tolist() == [6, 2]
    assert first.dice.boxes.tolist() == [[10, 20, 50, 60], [100, 100, 140, 150.5]]
    assert first.dice.confidences.tolist() == [1.0, 1.0]
    assert len(photos[2].dice) == 0 and not photos[2].crop


def test_a_crop_label_covers_the_whole_image(tmp_path):
    (crop,) = read_dataset(write_labels(tmp_path, [CROP]))
    assert crop.crop and crop.size == (60, 61)
    assert crop.dice.boxes.tolist() == [[0, 0, 60, 61]] and crop.dice.values.tolist() == [3]


def test_split_filter(tmp_path):
    root = write_labels(tmp_path, [PHOTO, CROP, EMPTY])
    assert [p.image for p in read_dataset(root, split="dev")] == ["images/a.jpg", "images/none.jpg"]
    assert splits(read_dataset(root)) == {"dev": 2, "train": 1}
    with pytest.raises(DatasetError, match=r"no photos with split 'test'.*dev, train"):
        read_dataset(root, split="test")


def test_blank_lines_are_skipped(tmp_path):
    assert len(read_dataset(write_labels(tmp_path, [PHOTO, "", "   ", EMPTY]))) == 2


def test_labels_that_are_not_text(tmp_path):
    (tmp_path / "labels.jsonl").write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(DatasetError, match="not UTF-8"):
        read_dataset(tmp_path)


def test_missing_labels_file(tmp_path):
    with pytest.raises(DatasetError, match=r"labels\.jsonl is missing"):
        read_dataset(tmp_path)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "line 2: not valid JSON"),
        ({"image": "x.jpg", "split": "dev"}, "line 2: expected"),
        ({"image": "x.jpg", "split": "dev", "size": [1], "dice": []}, "line 2: expected"),
        ({"image": 3, "split": "dev", "size": [1, 1], "dice": []}, "line 2: expected"),
        ({"image": "x.jpg", "split": "dev", "size": [9, 9], "dice": [{"value": 7, "box": [0, 0, 1, 1]}]},
         "line 2: die values must be 1-6"),
        ({"image": "x.jpg", "split": "dev", "size": [9, 9], "dice": [{"value": 2, "box": [0, 0, 1]}]},
         "line 2: boxes must have shape"),
        ({"image": "../../etc/passwd", "split": "dev", "size": [9, 9], "dice": []}, "leaves the dataset folder"),
        ({"image": "x.jpg", "split": "dev", "size": [9, 9],
          "dice": [{"value": 2, "box": None}, {"value": 3, "box": [0, 0, 1, 1]}]},
         "only allowed for a single-die crop"),
        ({"image": "x.jpg", "split": "dev", "size": [9, 9],
          "dice": [{"value": 2, "box": None}, {"value": 3, "box": None}]}, "exactly one die"),
    ],
)
def test_malformed_rows_name_their_line(tmp_path, bad, message):
    with pytest.raises(DatasetError, match=message):
        read_dataset(write_labels(tmp_path, [PHOTO, bad]))


def test_sample_images_are_a_dataset_in_the_shared_format():
    photos = read_dataset(SAMPLES)
    assert 12 <= len(photos) <= 20
    assert all(p.path.is_file() for p in photos)
    assert any(p.crop for p in photos) and any(len(p.dice) >= 10 for p in photos)
    for photo in photos:
        assert photo.path.is_relative_to(SAMPLES)
        if not photo.crop:
            w, h = photo.size
            boxes = photo.dice.boxes
            assert np.all(boxes[:, :2] >= 0) and np.all(boxes[:, 2] <= w) and np.all(boxes[:, 3] <= h)
