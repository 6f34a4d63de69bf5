"""Real labelled photos from `../shared/datasets/` as plain numpy samples."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

DEFAULT_ROOT = Path(os.environ.get("DICECAM_DATASETS", Path(__file__).resolve().parents[2] / "shared" / "datasets"))


@dataclass(frozen=True)
class Sample:
    """One labelled photo: BGR image, boxes (N, 4) and values (N,); boxes may be None for crops."""

    image: np.ndarray
    boxes: np.ndarray | None
    values: np.ndarray
    name: str


def load_split(dataset: str, split: str, *, root: Path = DEFAULT_ROOT) -> list[Sample]:
    """All photos of `dataset` whose split is `split` ("train" or "dev")."""
    folder = Path(root) / dataset
    samples = []
    with open(folder / "labels.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["split"] != split:
                continue
            image = cv2.imread(str(folder / row["image"]), cv2.IMREAD_COLOR)
            if image is None:
                raise FileNotFoundError(folder / row["image"])
            values = np.array([d["value"] for d in row["dice"]], np.int64)
            if any(d["box"] is None for d in row["dice"]):
                boxes = None
            else:
                boxes = np.array([d["box"] for d in row["dice"]], np.float32).reshape(-1, 4)
            samples.append(Sample(image, boxes, values, row["image"]))
    return samples
