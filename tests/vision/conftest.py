"""Fixtures for the vision tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dicecam.vision.dataset import LabelledPhoto, read_dataset


@pytest.fixture(scope="session")
def reader():
    """The shipped model from `models/`, loaded once (fails, naming the file, until it is there)."""
    from dicecam.vision.reader import DiceReader

    return DiceReader()


@pytest.fixture
def models_without(tmp_path) -> Callable[[str], Path]:
    """`models_without(name)`: a copy of the shipped models folder lacking the optional file `name`."""
    from dicecam.vision.reader import DEFAULT_MODELS

    def copy(name: str) -> Path:
        for model in DEFAULT_MODELS.iterdir():
            if model.suffix in (".onnx", ".json") and model.name != name:
                shutil.copy(model, tmp_path / model.name)
        return tmp_path

    return copy


@pytest.fixture(scope="session")
def roboflow_photos(shared_datasets) -> Callable[..., list[LabelledPhoto]]:
    """`roboflow_photos(split, *names)`: the roboflow_dice photos of `split` whose file names
    start with each of `names`, in that order; each name must match exactly one photo."""
    splits: dict[str, list[LabelledPhoto]] = {}

    def photos(split: str, *names: str) -> list[LabelledPhoto]:
        if split not in splits:
            splits[split] = read_dataset(shared_datasets / "roboflow_dice", split=split)
        found = []
        for name in names:
            hits = [p for p in splits[split] if p.path.name.startswith(name)]
            assert len(hits) == 1, f"{len(hits)} roboflow_dice {split} photos named {name}*"
            found += hits
        return found

    return photos
