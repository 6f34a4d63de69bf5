"""The reader's first step evens out each crop's contrast, inside the network (so inside its ONNX file)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

import torch

from dicecam.training.learn.export import export_reader
from dicecam.training.learn.nets import CropContrast, FaceReader


def _spread(x: torch.Tensor) -> np.ndarray:
    return x.flatten(1).std(dim=1).numpy()


def test_a_brighter_or_darker_crop_comes_out_the_same():
    x = torch.rand(4, 3, 48, 48) * 0.5
    np.testing.assert_allclose(CropContrast()(x + 0.3), CropContrast()(x), atol=1e-5)
    # A colour cast (one channel brighter) is taken out too.
    cast = x.clone()
    cast[:, 2] += 0.2
    np.testing.assert_allclose(CropContrast()(cast), CropContrast()(x), atol=1e-5)


def test_contrast_is_evened_out_but_a_flat_crop_is_not_blown_up():
    pattern = (torch.rand(1, 1, 48, 48) > 0.5).float().expand(1, 3, 48, 48)
    strong, faint = CropContrast()(0.5 * pattern), CropContrast()(0.1 * pattern)
    assert _spread(strong)[0] > 0.8 and _spread(faint)[0] > 0.45  # faint pips stand out nearly as well
    flat = torch.full((1, 3, 48, 48), 0.4) + 0.002 * torch.randn(1, 3, 48, 48)
    assert _spread(CropContrast()(flat))[0] < 0.05  # sensor noise on a plain table stays noise


def test_the_step_travels_in_the_onnx_file(tmp_path):
    import onnxruntime as ort

    torch.manual_seed(0)
    model = FaceReader(contrast=True).eval()
    export_reader(model, tmp_path / "reader.onnx")
    x = np.random.default_rng(2).random((5, 3, 48, 48), np.float32) * 0.7
    onnx_out = ort.InferenceSession(str(tmp_path / "reader.onnx")).run(None, {"crops": x})[0]
    np.testing.assert_allclose(onnx_out, model(torch.from_numpy(x)).detach().numpy(), atol=1e-4)
    # The same crop brightened reads the same: the step is in the file, the runtime needs nothing new.
    brighter = ort.InferenceSession(str(tmp_path / "reader.onnx")).run(None, {"crops": x + 0.2})[0]
    np.testing.assert_allclose(brighter, onnx_out, atol=1e-5)


def test_a_checkpoint_knows_it_was_trained_with_the_step(tmp_path):
    from dicecam.training.learn.export import main as export_main

    torch.manual_seed(0)
    model = FaceReader(contrast=True).eval()
    torch.save(model.state_dict(), tmp_path / "reader.pt")
    export_main([str(tmp_path), str(tmp_path)])
    import onnxruntime as ort

    x = np.random.default_rng(3).random((2, 3, 48, 48), np.float32) * 0.7
    out = ort.InferenceSession(str(tmp_path / "reader.onnx")).run(None, {"crops": x})[0]
    np.testing.assert_allclose(out, model(torch.from_numpy(x)).detach().numpy(), atol=1e-4)
    # A reader without the step refuses such a checkpoint instead of dropping the step unnoticed.
    with pytest.raises(RuntimeError, match=r"contrast\.on"):
        FaceReader().load_state_dict(torch.load(tmp_path / "reader.pt"))
