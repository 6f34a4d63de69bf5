"""A reader that reads larger crops of the same window (`train reader --crop-size`, R150)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from dicecam.training.data.reader_crops import reader_samples
from dicecam.training.shapes import NOT_A_DIE, READER_SIZE

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.learn.export import export_reader  # noqa: E402
from dicecam.training.learn.nets import FaceReader  # noqa: E402
from dicecam.vision.reader import DiceReader  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"


def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    img = np.full((200, 300, 3), 90, np.uint8)
    img[60:100, 100:140] = 230
    return img, np.array([[100, 60, 140, 100]], np.float32), np.array([4])


@pytest.mark.parametrize("size", [32, READER_SIZE, 64, 80])
def test_every_crop_of_a_photo_comes_at_the_asked_size(size: int) -> None:
    img, boxes, values = _table()
    decoys = np.array([[200, 120, 230, 150]], np.float32)
    whole = boxes + np.array([-4, 0, 4, 8], np.float32)
    for seed in range(20):
        pairs = reader_samples(img, boxes, values, np.random.default_rng(seed), die_boxes=whole,
                               side_below=True, decoys=decoys, size=size)
        assert pairs and all(crop.shape == (size, size, 3) for crop, _ in pairs)
        assert {label for _, label in pairs} <= {3, NOT_A_DIE}


def test_the_same_window_seen_sharper_holds_the_same_picture() -> None:
    """At 64 px a crop is the 48 px crop's window, not a wider one: shrunk, they agree."""
    import cv2

    img, boxes, values = _table()
    small = reader_samples(img, boxes, values, np.random.default_rng(3), negatives=0, exact_boxes=False)[0][0]
    large = reader_samples(img, boxes, values, np.random.default_rng(3), negatives=0, exact_boxes=False,
                           size=64)[0][0]
    shrunk = cv2.resize(large, (READER_SIZE, READER_SIZE), interpolation=cv2.INTER_AREA)
    assert np.abs(shrunk.astype(int) - small.astype(int)).mean() < 12


def test_a_reader_exported_at_a_size_is_read_at_that_size(tmp_path: Path) -> None:
    for name in ("detector.onnx", "whole_die.onnx", "confidence.json"):
        shutil.copy(MODELS / name, tmp_path / name)
    torch.manual_seed(0)
    export_reader(FaceReader(), tmp_path / "reader.onnx", upright=True, crop_size=64)
    reader = DiceReader(tmp_path)
    assert reader.face.crop_size == 64
    image = np.full((240, 320, 3), 120, np.uint8)
    crops = reader.face.crops(image, np.array([[100, 100, 140, 140]], np.float32))
    assert crops.shape == (1, 3, 64, 64)
    assert reader.face.classify(crops).shape == (1, 7)


def test_the_stream_gives_crops_at_its_size_and_refuses_a_tiny_one(monkeypatch) -> None:
    import dicecam.training.learn.train as train
    from dicecam.training.data import caches
    from dicecam.training.data.photos import Sample

    img, boxes, values = _table()
    photo = Sample(img, boxes, values, "t/0")
    monkeypatch.setattr(train, "real_samples", lambda sets, split="train", *, holdout=0.0: [photo])
    monkeypatch.setattr(caches, "HARD_NEGATIVES", Path("/nonexistent/none.npz"))
    monkeypatch.setattr(train, "synth_crop_source", lambda **_: None)
    monkeypatch.setattr(train, "synth_scene_source", lambda **_: None)
    stream = iter(train.ReaderStream(synth_fraction=0.0, seed=2, crop_size=64))
    assert all(next(stream)[0].shape == (3, 64, 64) for _ in range(30))
    with pytest.raises(ValueError, match="at least 16 pixels"):
        train.ReaderStream(synth_fraction=0.0, seed=2, crop_size=8)
    assert train.parser().parse_args(["reader", "--crop-size", "64"]).crop_size == 64
    assert train.parser().parse_args(["reader"]).crop_size == READER_SIZE
