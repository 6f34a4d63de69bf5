"""Read a labelled photo folder in the shared format (`labels.jsonl` beside the images)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dicecam.vision.detections import Dice

LABELS_FILE = "labels.jsonl"


class DatasetError(ValueError):
    """A dataset folder or its labels file that cannot be used; the message names the line."""


@dataclass(frozen=True)
class LabelledPhoto:
    """One row of `labels.jsonl`.

    `dice` are the labels (confidence 1). For single-die crops the label's box is
    `null`; `crop` is then True and the die's box is the whole image, so that
    the scoring rule applies unchanged.
    """

    path: Path
    image: str  # as written in labels.jsonl, relative to the folder
    split: str
    size: tuple[int, int]  # (width, height) as stored
    dice: Dice
    crop: bool = False


def read_dataset(root: str | Path, *, split: str | None = None) -> list[LabelledPhoto]:
    """All photos of a dataset folder, in file order; only `split` ones when given.

    Raises `DatasetError` for a missing or malformed labels file, an image path
    outside the folder, or a split with no photos (naming the splits there are).
    """
    root = Path(root)
    labels = root / LABELS_FILE
    if not labels.is_file():
        raise DatasetError(f"{root} is not a dataset folder: {LABELS_FILE} is missing")
    try:
        lines = labels.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise DatasetError(f"{labels} is not UTF-8 text") from None
    photos = [
        _parse(root, line, f"{labels}, line {number}")
        for number, line in enumerate(lines, 1)
        if line.strip()
    ]
    if split is None:
        return photos
    chosen = [p for p in photos if p.split == split]
    if not chosen:
        present = ", ".join(sorted({p.split for p in photos})) or "none"
        raise DatasetError(f"no photos with split {split!r} in {root} (splits there: {present})")
    return chosen


def splits(photos: list[LabelledPhoto]) -> dict[str, int]:
    """How many photos each split has."""
    counts: dict[str, int] = {}
    for photo in photos:
        counts[photo.split] = counts.get(photo.split, 0) + 1
    return counts


def _parse(root: Path, line: str, where: str) -> LabelledPhoto:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{where}: not valid JSON ({exc.msg})") from None
    try:
        image = row["image"]
        split = row.get("split", "")
        width, height = (int(v) for v in row["size"])
        labels = row["dice"]
        if not isinstance(image, str) or not isinstance(split, str) or not isinstance(labels, list):
            raise TypeError
        boxes = [d["box"] for d in labels]
        values = [int(d["value"]) for d in labels]
    except (KeyError, TypeError, ValueError):
        raise DatasetError(f'{where}: expected {{"image", "split", "size": [w, h], "dice": [...]}}') from None
    path = (root / image).resolve()
    if not path.is_relative_to(root.resolve()):
        raise DatasetError(f"{where}: image path {image!r} leaves the dataset folder")
    crop = bool(boxes) and all(b is None for b in boxes)
    if crop:
        if len(boxes) != 1:
            raise DatasetError(f"{where}: a crop (box null) must hold exactly one die")
        boxes = [[0.0, 0.0, float(width), float(height)]]
    elif any(b is None for b in boxes):
        raise DatasetError(f"{where}: box null is only allowed for a single-die crop")
    try:
        dice = Dice(boxes=np.asarray(boxes, np.float32), values=np.asarray(values, np.int64),
                    confidences=np.ones(len(values), np.float32))
    except ValueError as exc:
        raise DatasetError(f"{where}: {exc}") from None
    return LabelledPhoto(path, image, split, (width, height), dice, crop)
