"""The decoy reader's training (C341): crops framed as run time frames them, taught crops that
keep what a die shows, batches drawn as the mix says, and a tuned reader with the reader's contract."""

from __future__ import annotations

from itertools import islice

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.data.throw_boxes import ThrowBox, throw_boxes  # noqa: E402
from dicecam.training.learn.decoy_reader import (  # noqa: E402
    NOT_A_DIE,
    STORED,
    Mix,
    real_crops,
    rendered_dice,
    taught_crop,
    tune_decoy_reader,
)
from dicecam.training.learn.export import export_reader  # noqa: E402
from dicecam.training.learn.nets import FaceReader  # noqa: E402
from dicecam.training.shapes import READER_SIZE  # noqa: E402
from dicecam.vision.dataset import read_dataset  # noqa: E402
from dicecam.vision.face_reader import FaceReader as RunReader  # noqa: E402
from dicecam.vision.onnx import session  # noqa: E402
from dicecam.vision.reader import THROW_AT_MOST, DiceReader  # noqa: E402
from dicecam.vision.settings import ReaderSettings  # noqa: E402


def test_real_crops_frame_a_box_as_the_reader_does(tmp_path) -> None:
    image = np.zeros((300, 300, 3), np.uint8)
    image[100:200, 100:200] = 255  # a white 100 px square: the box
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), image)
    boxes = [ThrowBox("byler_d6", path, 0, (100.0, 100.0, 200.0, 200.0), 3, "label"),
             ThrowBox("byler_d6", path, 0, (0.0, 0.0, 40.0, 40.0), 5, "told")]
    crops, values = real_crops(boxes)
    assert crops.shape == (2, STORED, STORED, 3) and values.tolist() == [3, 5]
    # grown 1.35x: 135 px around the box's centre, the white square the middle 100 / 135 of it
    middle = crops[0, 32, :, 0]
    white = np.flatnonzero(middle > 127)
    assert abs(len(white) - STORED * 100 / 135) <= 2 and abs(white.mean() - (STORED - 1) / 2) <= 1


def test_taught_crops_are_reader_sized_and_keep_a_centred_face() -> None:
    crop = np.zeros((STORED, STORED, 3), np.uint8)
    cv2.circle(crop, (32, 32), 6, (255, 255, 255), -1)  # one pip in the middle
    rng = np.random.default_rng(3)
    for _ in range(20):
        out = taught_crop(crop, rng)
        assert out.shape == (READER_SIZE, READER_SIZE, 3) and out.dtype == np.float32
        assert 0 <= out.min() and out.max() <= 255
        # moved 3 px at most and zoomed 0.87-1.15x: the pip stays the brightest part of the middle
        assert out[20:28, 20:28].mean() > out[:6, :6].mean() + 60


def test_rendered_dice_are_stored_crops() -> None:
    crops = rendered_dice(np.random.default_rng(0), [1, 6])
    assert crops.shape == (2, STORED, STORED, 3) and crops.dtype == np.uint8
    assert crops.std() > 5  # a die drawn, not a blank


def _crops(n: int, level: int) -> np.ndarray:
    return np.full((n, STORED, STORED, 3), level, np.uint8)


def test_a_tune_learns_decoys_as_no_die_and_keeps_the_contract(tmp_path) -> None:
    init = FaceReader().state_dict()
    real = (np.concatenate([_crops(4, 200), _crops(4, 60)]), np.array([1] * 4 + [4] * 4))
    rendered = (np.concatenate([_crops(4, 210), _crops(4, 70)]), np.array([1] * 4 + [2] * 4))
    decoys = _crops(6, 128)
    tuned = tune_decoy_reader(init, real, rendered, decoys, steps=30, lr=3e-3, mix=Mix(4, 4, 4, 8, 4))
    x = torch.from_numpy(np.full((1, 3, READER_SIZE, READER_SIZE), 128 / 255, np.float32))
    with torch.no_grad():
        no_die = torch.softmax(tuned(x), 1)[0, NOT_A_DIE].item()
    assert no_die > 0.5  # grey decoys: no die, after 30 steps
    path = tmp_path / "decoy_reader.onnx"
    export_reader(tuned, path, upright=True)
    run = RunReader(session(path, 1), ReaderSettings())
    assert run.not_a_die == NOT_A_DIE and run.crop_size == READER_SIZE
    probs = run.classify(np.full((2, 3, READER_SIZE, READER_SIZE), 128 / 255, np.float32))
    assert probs.shape == (2, 7) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)


def test_a_tune_without_decoys_is_refused() -> None:
    real = (_crops(2, 200), np.array([1, 2]))
    with pytest.raises(ValueError, match="decoys"):
        tune_decoy_reader(FaceReader().state_dict(), real, real, _crops(0, 0), steps=1)


@pytest.mark.parametrize(("at_most", "heaps"), [(THROW_AT_MOST, False), (None, True)])
def test_throw_boxes_take_heaps_only_where_asked(shared_datasets, at_most, heaps) -> None:
    # byler_d6's dev photos are mostly heaps of 9-22 dice: the decoy reader learns from them too.
    dice = {p.path: len(p.dice) for p in read_dataset(shared_datasets / "byler_d6", split="dev")}
    boxes = islice(throw_boxes(DiceReader(), ("byler_d6",), root=shared_datasets, split="dev", at_most=at_most), 60)
    counts = {dice[b.path] for b in boxes}
    assert counts and (max(counts) > THROW_AT_MOST) == heaps
