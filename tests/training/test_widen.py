"""A trained detector grown wider keeps computing what it did (training.learn.widen, `--deep`)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")

import cv2
import numpy as np
import torch
from helpers_nets import trained_looking
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.training.learn.export import export_detector
from dicecam.training.learn.from_onnx import load_folded
from dicecam.training.learn.nets import DiceDetector, deep_of, detector_of
from dicecam.training.learn.train import _fitted, main
from dicecam.training.learn.widen import widen_state, widened

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("deep", "whole"), [(2, False), (3, False), (2, True)])
def test_the_wider_detector_computes_what_the_narrow_one_did(deep: int, whole: bool) -> None:
    narrow = trained_looking(DiceDetector(whole=whole), seed=deep)
    wide = DiceDetector(deep=deep, whole=whole)
    wide.load_state_dict(widen_state(narrow.state_dict(), wide.state_dict(), seed=1))
    wide.eval()
    x = torch.rand(2, 3, 96, 128)
    with torch.no_grad():
        assert torch.allclose(wide(x), narrow(x), atol=1e-4, rtol=1e-4)
    assert deep_of(wide.state_dict()) == deep and deep_of(narrow.state_dict()) == 1
    assert isinstance(detector_of(wide.state_dict()), DiceDetector)


def test_training_from_a_narrow_checkpoint_grows_it() -> None:
    narrow = trained_looking(DiceDetector(), seed=5)
    wide = DiceDetector(deep=2)
    wide.load_state_dict(_fitted(narrow.state_dict(), wide.state_dict()))
    x = torch.rand(1, 3, 64, 64)
    with torch.no_grad():
        assert torch.allclose(wide.eval()(x), narrow(x), atol=1e-4, rtol=1e-4)


def test_the_copies_of_a_channel_are_not_twins() -> None:
    # Equal halves would give both copies the same gradients: they would never learn apart.
    old = torch.randn(8, 4, 1, 1)
    new = widened(old, (16, 8, 1, 1), generator=torch.Generator().manual_seed(0), reads_channels=True)
    first, second = new[:, :4], new[:, 4:]
    assert torch.allclose(first + second, torch.cat([old, old]), atol=1e-6)
    assert not torch.allclose(first, second)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 3), st.integers(1, 3), st.integers(0, 2**31 - 1))
def test_widening_tiles_outputs_and_splits_inputs(rows: int, cols: int, grow_out: int, grow_in: int,
                                                  seed: int) -> None:
    old = torch.randn(rows, cols, 3, 3, generator=torch.Generator().manual_seed(seed))
    new = widened(old, (rows * grow_out, cols * grow_in, 3, 3), generator=torch.Generator().manual_seed(seed),
                  reads_channels=True)
    for block in range(grow_out):  # every block of output rows reads like the old rows
        rows_of = new[block * rows:(block + 1) * rows]
        assert torch.allclose(rows_of.reshape(rows, grow_in, cols, 3, 3).sum(1), old, atol=1e-5)


@pytest.mark.parametrize("shape", [(12, 4, 1, 1), (8, 6, 1, 1), (8, 4)])
def test_a_shape_that_is_no_whole_multiple_is_refused(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        widened(torch.zeros(8, 4, 1, 1), shape, generator=torch.Generator(), reads_channels=True)


def test_the_shipped_detector_grown_wider_finds_the_same_dice(tmp_path: Path) -> None:
    shipped = load_folded(ROOT / "models" / "detector.onnx")
    wide = DiceDetector(deep=2)
    wide.load_state_dict(widen_state(shipped.state_dict(), wide.state_dict()))
    export_detector(wide.eval(), tmp_path / "detector.onnx")
    photo = cv2.imread(str(ROOT / "sample_images" / "matteop65_wood" / "valid_70.jpg"))
    assert photo is not None
    small = cv2.resize(photo, (512, 384)).transpose(2, 0, 1)[None].astype(np.float32) / 255
    import onnxruntime as ort

    maps = [ort.InferenceSession(str(path)).run(None, {"image": small})[0]
            for path in (ROOT / "models" / "detector.onnx", tmp_path / "detector.onnx")]
    assert maps[0].shape == maps[1].shape
    np.testing.assert_allclose(maps[1], maps[0], atol=2e-3)


def test_deep_is_for_the_detector() -> None:
    with pytest.raises(SystemExit):
        main(["reader", "--deep", "2"])
