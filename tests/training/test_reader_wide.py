"""A reader grown wider in its 12 px and 6 px layers (`train reader --reader-wide`)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

import torch
from helpers_nets import trained_looking

from dicecam.training.learn.export import export_reader
from dicecam.training.learn.nets import READER_HEAD, FaceReader, reader_grid, reader_of, reader_wide
from dicecam.training.learn.train import _fitted


def _crops(n: int = 6, seed: int = 7) -> torch.Tensor:
    return torch.from_numpy(np.random.default_rng(seed).random((n, 3, 48, 48), np.float32))


@pytest.mark.parametrize(("wide", "grid"), [(2, 1), (3, 1), (2, 3)])
def test_a_reader_grown_wider_reads_as_the_narrow_one_did(wide: int, grid: int) -> None:
    narrow = trained_looking(FaceReader(grid=grid), seed=wide + grid)
    grown = FaceReader(grid=grid, wide=wide).eval()
    grown.load_state_dict(_fitted(narrow.state_dict(), grown.state_dict()))
    x = _crops()
    np.testing.assert_allclose(grown(x).detach().numpy(), narrow(x).detach().numpy(), atol=1e-4)
    # The grown channels are no twins: the head's shares of one old channel differ.
    head = grown.state_dict()[READER_HEAD]
    block = 128 * grid * grid  # the old channels' features; the next block holds their first copies
    assert not torch.allclose(head[:, :block], head[:, block:2 * block])


def test_the_one_average_reader_grown_onto_a_layout_and_wider_still_reads_the_same() -> None:
    narrow = trained_looking(FaceReader(), seed=11)
    grown = FaceReader(grid=3, wide=2).eval()
    grown.load_state_dict(_fitted(narrow.state_dict(), grown.state_dict()))
    x = _crops()
    np.testing.assert_allclose(grown(x).detach().numpy(), narrow(x).detach().numpy(), atol=1e-4)


@pytest.mark.parametrize(("wide", "grid"), [(1, 1), (2, 1), (2, 3), (4, 1), (1, 2)])
def test_width_and_grid_are_read_back_from_the_weights_and_the_onnx_file(tmp_path, wide: int, grid: int) -> None:
    import onnx
    import onnxruntime as ort

    from dicecam.training.learn.from_onnx import _blank_network

    model = trained_looking(FaceReader(grid=grid, wide=wide), seed=5)
    assert (reader_wide(model.state_dict()), reader_grid(model.state_dict())) == (wide, grid)
    x = _crops()
    np.testing.assert_allclose(reader_of(model.state_dict()).eval()(x).detach().numpy(),
                               model(x).detach().numpy(), atol=1e-5)
    export_reader(model, tmp_path / "reader.onnx")
    out = ort.InferenceSession(str(tmp_path / "reader.onnx")).run(None, {"crops": x.numpy()})[0]
    np.testing.assert_allclose(out, model(x).detach().numpy(), atol=1e-4)
    blank = _blank_network(onnx.load(str(tmp_path / "reader.onnx")))
    assert (reader_wide(blank.state_dict()), reader_grid(blank.state_dict())) == (wide, grid)


def test_a_reader_of_no_width_is_refused() -> None:
    with pytest.raises(ValueError, match="width must be at least 1"):
        FaceReader(wide=0)


def test_the_command_line_builds_the_wider_reader() -> None:
    from dicecam.training.learn.train import parser

    assert parser().parse_args(["reader", "--reader-wide", "2"]).reader_wide == 2
    assert parser().parse_args(["reader"]).reader_wide == 1
