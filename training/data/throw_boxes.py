"""The boxes of train throws the top look's networks learn from (`training.learn.top_look`).

Every train photo of 1-6 dice of the sets named, its labelled boxes and the boxes the models
folder's reader keeps told the count and without it, each paired with a label by the
datasets' scoring rule and given that label's value: what the top look will be shown at run
time, beside what a labeller drew. Each photo has a fold (0-4) from its source photo's name,
so that a network can be checked on a fifth it never saw (models/HISTORY.md, R323h, V328h).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dicecam.training.data import caches
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes
from dicecam.vision.reader import THROW_AT_MOST, DiceReader

#: Photos of low views at a game table, and photos from above (models/HISTORY.md, C328).
LOW_VIEW_SETS = ("roboflow_dice",)
FROM_ABOVE_SETS = ("byler_d6", "matteop65_wood")
#: How many folds a set's photos fall into.
FOLDS = 5


#: Roboflow's export names each augmented copy of a source photo `<source>.rf.<hash>.<ext>`.
_COPY = re.compile(r"\.rf\.[0-9A-Za-z]+(?=\.[^./]+$)")


def fold_of(image: str) -> int:
    """The fold (0..FOLDS-1) of a photo, from its name as labels.jsonl writes it; the copies of
    one source photo (roboflow_dice's train photos come in threes) share a fold, or a fold
    "held out" would be seen through its copies (C363, models/HISTORY.md)."""
    return zlib.crc32(_COPY.sub("", image).encode()) % FOLDS


@dataclass(frozen=True)
class ThrowBox:
    """One box on a train throw's die: where it came from (`label`, `told`, `free`) and the label's value."""

    dataset: str
    path: Path
    fold: int
    box: tuple[float, float, float, float]
    value: int
    source: str


def throw_boxes(reader: DiceReader, sets: Sequence[str] = LOW_VIEW_SETS + FROM_ABOVE_SETS, *,
                root: Path = caches.DATASETS, split: str = "train",
                at_most: int | None = THROW_AT_MOST) -> Iterator[ThrowBox]:
    """Every labelled box of the `split` photos of 1 to `at_most` dice (None: any number) of
    `sets`, then the boxes `reader` keeps on them told the count and without it, paired with a label."""
    for name in sets:
        for photo in read_dataset(root / name, split=split):
            if photo.crop or not len(photo.dice) or (at_most is not None and len(photo.dice) > at_most):
                continue
            fold, labels = fold_of(photo.image), np.asarray(photo.dice.boxes, np.float64)
            values = [int(v) for v in photo.dice.values]
            for box, value in zip(labels, values):
                yield ThrowBox(name, photo.path, fold, _box(box), value, "label")
            image = load_image(photo.path)
            for source, count in (("told", len(photo.dice)), ("free", None)):
                read = reader.read(image, count=count)
                if not len(read):
                    continue
                for i, j in match_boxes(labels, np.asarray(read.boxes, np.float64)):
                    yield ThrowBox(name, photo.path, fold, _box(read.boxes[j]), values[i], source)


def _box(box: np.ndarray) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return x0, y0, x1, y1


def cut_boxes(boxes: Sequence[ThrowBox],
              cut: Callable[[np.ndarray, tuple[float, ...]], np.ndarray]) -> list[np.ndarray]:
    """`cut(image, box)` of every box, each photo loaded once (boxes come photo by photo)."""
    out: list[np.ndarray] = []
    image: np.ndarray = np.zeros((0, 0, 3), np.uint8)
    path = None
    for b in boxes:
        if b.path != path:
            path, image = b.path, load_image(b.path)
        out.append(cut(image, b.box))
    return out
