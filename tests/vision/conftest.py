"""Fixtures for the vision tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dicecam.vision.dataset import LabelledPhoto, read_dataset


@pytest.fixture(scope="session")
def reader():
    """The shipped model from `models/`, loaded once (fails, naming the file, until it is there)."""
    from dicecam.vision.reader import DiceReader

    return DiceReader()


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
