"""A reader whose head sees where on the crop its features lie (`train reader --reader-grid`)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

import torch
from helpers_nets import trained_looking

from dicecam.training.learn.export import export_reader
from dicecam.training.learn.nets import FaceReader, reader_grid, reader_of, spread_head
from dicecam.training.learn.train import _fitted


def _crops(n: int = 6, seed: int = 3) -> torch.Tensor:
    return torch.from_numpy(np.random.default_rng(seed).random((n, 3, 48, 48), np.float32))


@pytest.mark.parametrize("grid", [2, 3, 6])
def test_a_spread_head_gives_the_one_average_readers_logits(grid):
    one = trained_looking(FaceReader(), seed=grid)
    laid_out = FaceReader(grid=grid).eval()
    laid_out.load_state_dict(spread_head(one.state_dict(), grid))
    x = _crops()
    np.testing.assert_allclose(laid_out(x).detach().numpy(), one(x).detach().numpy(), atol=1e-4)


def test_the_head_reads_each_cell_of_the_layout():
    x = _crops(2)
    assert FaceReader().features(x).shape == (2, 128, 1, 1)
    assert FaceReader(grid=3).features(x).shape == (2, 128, 3, 3)
    assert FaceReader(grid=3).classify[-1].in_features == 128 * 9


def test_the_grid_is_read_back_from_the_weights_and_the_onnx_file(tmp_path):
    import onnx
    import onnxruntime as ort

    from dicecam.training.learn.from_onnx import _blank_network

    model = trained_looking(FaceReader(grid=3), seed=4)
    assert reader_grid(model.state_dict()) == 3
    again = reader_of(model.state_dict()).eval()
    x = _crops()
    np.testing.assert_allclose(again(x).detach().numpy(), model(x).detach().numpy(), atol=1e-5)
    export_reader(model, tmp_path / "reader.onnx")
    out = ort.InferenceSession(str(tmp_path / "reader.onnx")).run(None, {"crops": x.numpy()})[0]
    np.testing.assert_allclose(out, model(x).detach().numpy(), atol=1e-4)
    blank = _blank_network(onnx.load(str(tmp_path / "reader.onnx")))
    assert reader_grid(blank.state_dict()) == 3


def test_a_tune_on_a_layout_starts_from_a_one_average_checkpoint():
    one = trained_looking(FaceReader(), seed=5)
    laid_out = FaceReader(grid=3).eval()
    laid_out.load_state_dict(_fitted(one.state_dict(), laid_out.state_dict()))
    x = _crops()
    np.testing.assert_allclose(laid_out(x).detach().numpy(), one(x).detach().numpy(), atol=1e-4)


def test_a_layout_head_is_not_spread_again_or_shrunk():
    laid_out = FaceReader(grid=3).state_dict()
    assert spread_head(laid_out, 3) is laid_out
    with pytest.raises(ValueError, match="one-average"):
        spread_head(laid_out, 6)
    with pytest.raises(ValueError, match="at least 1"):
        FaceReader(grid=0)
