"""Photos the training tests share."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from bench_vision import table_photo  # benchmarks/ is on pytest's pythonpath

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import decode_image

ROOT = Path(__file__).resolve().parents[2]


def board_on_table(width: int = 640, height: int = 480) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two small dice (a 4 and a 2) at the shore of a Catan board, the sample photo shrunk onto
    a table as `bench_vision.py` does: the image, the dice's boxes moved along, their values.
    At 640 x 480 the first look boxes tokens, not them; told "two dice", the closer look finds both."""
    board = next(p for p in read_dataset(ROOT / "sample_images") if p.path.name.startswith("dice_309"))
    image = decode_image(table_photo(width, height, source=board.path))
    h, w = board.size[1], board.size[0]
    fit = min(height / h, width / w)
    x0, y0 = (width - round(w * fit)) // 2, (height - round(h * fit)) // 2
    return image, board.dice.boxes * fit + np.array([x0, y0, x0, y0], np.float32), board.dice.values


def one_photo_reader_stream(monkeypatch, photo: np.ndarray, box: list[float], value: int, **options):
    """A `ReaderStream` (seed 5) that draws only `photo`, one die of `value` at `box`: no
    rendered crops or scenes, no mined negatives, crops as cut (no photometric changes)."""
    import dicecam.training.learn.train as train
    from dicecam.training.data import caches
    from dicecam.training.data.photos import Sample

    monkeypatch.setattr(caches, "HARD_NEGATIVES", Path("/nonexistent/hard_negatives.npz"))
    sample = Sample(photo, np.array([box], np.float32), np.array([value]), "table/0")
    monkeypatch.setattr(train, "real_samples", lambda sets, split="train", *, holdout=0.0: [sample])
    monkeypatch.setattr(train, "synth_crop_source", lambda **_: None)
    monkeypatch.setattr(train, "synth_scene_source", lambda **_: None)
    monkeypatch.setattr(train, "photometric", lambda img, rng, harsh=False: img)
    return train.ReaderStream(synth_fraction=0.0, seed=5, **options)
