"""Doubtful crops are read again turned and mirrored; clear ones once."""

from __future__ import annotations

import numpy as np
import pytest

from vision.decode import load_image
from vision.reader import SAME_FACE, DiceReader

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
def test_second_look_is_the_mean_of_all_views(crops, turn_below, expect_second):
    reader = DiceReader(turn_below=turn_below)
    p = reader._second_look(crops, reader._classify(crops))
    once = DiceReader(turn_below=0.0)
    views = [once._classify(crops)] + [once._classify(np.ascontiguousarray(view(crops))) for view in SAME_FACE]
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(p, np.mean(views, axis=0) if expect_second else views[0], atol=1e-5)


def test_same_face_views_turn_or_mirror_without_repeating(crops):
    """Each view is a different turn or mirror of the crop, none of them the crop itself."""
    square = crops[:1]
    seen = [square.tobytes()]
    for view in SAME_FACE:
        shown = np.ascontiguousarray(view(square))
        assert shown.shape == square.shape
        np.testing.assert_allclose(np.sort(shown.ravel()), np.sort(square.ravel()))  # same pixels, moved
        assert shown.tobytes() not in seen
        seen.append(shown.tobytes())


def test_only_doubtful_crops_get_a_second_look(crops):
    reader = DiceReader(turn_below=0.9)
    sizes = _counting(reader)
    first = DiceReader(turn_below=0.0)._classify(crops)
    p = reader._second_look(crops, reader._classify(crops))
    doubtful = int((first.max(axis=1) < 0.9).sum())
    assert sizes == [len(crops)] + ([doubtful * len(SAME_FACE)] if doubtful else [])
    clear = first.max(axis=1) >= 0.9
    assert clear.any(), "the sample dice should mostly be read clearly"
    np.testing.assert_allclose(p[clear], first[clear], atol=1e-6)


def test_a_photo_gets_one_second_look_after_small_boxes_are_read_again():
    """Doubtful first readings of small boxes are replaced, so only the final crops get views."""
    photo = next(p for p in PHOTOS if not p.crop)
    looking = DiceReader(turn_below=1.01)  # every crop doubtful: the batch sizes tell the passes apart
    sizes = _counting(looking)
    dice = looking.read(load_image(photo.path))
    assert len(dice) >= 1
    assert sizes[-1] == sizes[0] * len(SAME_FACE), "every crop of the photo read again once, in one batch"
    assert len(sizes) in (2, 3), sizes  # first read, maybe small boxes again, one second look
