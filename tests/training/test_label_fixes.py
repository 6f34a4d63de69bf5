"""Known wrong train labels are fixed for training; dev labels are never touched."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dicecam.training.data.photos import DEFAULT_ROOT, LABEL_FIXES, fix_labels, load_split

pytestmark = pytest.mark.datasets("byler_d6")


def _raw_rows(dataset: str) -> dict[str, dict]:
    with open(DEFAULT_ROOT / dataset / "labels.jsonl", encoding="utf-8") as fh:
        return {row["image"]: row for row in map(json.loads, fh)}


@pytest.fixture(scope="module")
def byler_train():
    return {s.name: s for s in load_split("byler_d6", "train")}


@pytest.mark.parametrize("key", sorted(LABEL_FIXES), ids=lambda k: k[1])
def test_each_fix_changes_exactly_its_die(byler_train, key):
    dataset, image = key
    raw = _raw_rows(dataset)[image]
    sample = byler_train[image]
    expected = np.array([d["value"] for d in raw["dice"]])
    for box, labelled, shown in LABEL_FIXES[key]:
        i = next(i for i, d in enumerate(raw["dice"]) if np.allclose(d["box"], box))
        assert expected[i] == labelled
        expected[i] = shown
    np.testing.assert_array_equal(sample.values, expected)


def test_dev_labels_are_loaded_as_given():
    raw = _raw_rows("byler_d6")
    for sample in load_split("byler_d6", "dev"):
        assert sample.values.tolist() == [d["value"] for d in raw[sample.name]["dice"]]


def test_a_fix_that_no_longer_finds_its_die_is_refused(monkeypatch):
    boxes = np.array([[10, 10, 50, 50], [60, 10, 100, 50]], np.float32)
    values = np.array([2, 5])
    monkeypatch.setitem(LABEL_FIXES, ("set", "photo.jpg"), (((10.0, 10.0, 50.0, 50.0), 4, 3),))
    with pytest.raises(ValueError, match="matches no die labelled 4"):
        fix_labels("set", "photo.jpg", boxes, values)
    monkeypatch.setitem(LABEL_FIXES, ("set", "photo.jpg"), (((11.0, 10.0, 50.0, 50.0), 2, 3),))
    with pytest.raises(ValueError, match="matches no die"):
        fix_labels("set", "photo.jpg", boxes, values)


def test_photos_without_fixes_keep_their_values():
    boxes = np.array([[10, 10, 50, 50]], np.float32)
    values = np.array([2])
    fixed = fix_labels("byler_d6", "images/train/not-listed.jpg", boxes, values)
    assert fixed.tolist() == [2] and fixed is not values
