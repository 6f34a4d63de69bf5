"""Doubtful crops are read a second time turned a quarter; clear ones once."""

from __future__ import annotations

import numpy as np
import pytest

from vision.decode import load_image
from vision.reader import DiceReader

from test_samples import PHOTOS


@pytest.fixture(scope="module")
def crops(reader):
    """Crops of every die of three real sample photos, cut the way `read` cuts them."""
    out = []
    for photo in [p for p in PHOTOS if not p.crop][:3]:
        out.append(reader._crops(load_image(photo.path), photo.dice.boxes))
    return np.concatenate(out)


def _counting(reader: DiceReader) -> list[int]:
    """Record the batch size of every run of `reader`'s face reader."""
    sizes: list[int] = []
    run = reader.reader.run

    class Counting:
        def run(self, names, feed):
            sizes.append(len(feed["crops"]))
            return run(names, feed)

    reader.reader = Counting()
    return sizes


@pytest.mark.parametrize("turn_below, expect_second", [(0.0, False), (1.01, True)])
def test_second_look_is_the_mean_of_both_views(crops, turn_below, expect_second):
    p = DiceReader(turn_below=turn_below)._classify(crops)
    once = DiceReader(turn_below=0.0)
    straight = once._classify(crops)
    turned = once._classify(np.ascontiguousarray(np.rot90(crops, 1, axes=(2, 3))))
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(p, (straight + turned) / 2 if expect_second else straight, atol=1e-5)


def test_only_doubtful_crops_get_a_second_look(crops):
    reader = DiceReader(turn_below=0.9)
    sizes = _counting(reader)
    p = reader._classify(crops)
    first = DiceReader(turn_below=0.0)._classify(crops)
    doubtful = int((first.max(axis=1) < 0.9).sum())
    assert sizes == [len(crops)] + ([doubtful] if doubtful else [])
    clear = first.max(axis=1) >= 0.9
    assert clear.any(), "the sample dice should mostly be read clearly"
    np.testing.assert_allclose(p[clear], first[clear], atol=1e-6)
