"""A trainable checkpoint restored from an exported ONNX file (training.learn.from_onnx)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")
onnx = pytest.importorskip("onnx", reason="training needs the `train` extra")

import torch  # noqa: E402
from helpers_nets import trained_looking  # noqa: E402
from torch import nn  # noqa: E402

from dicecam.training.learn.export import export_detector, export_reader  # noqa: E402
from dicecam.training.learn.from_onnx import (  # noqa: E402
    RestoreError,
    check_against_file,
    load_folded,
    recalibrate,
    train_mode_drift,
)
from dicecam.training.learn.nets import READER_SIZE, DiceDetector, FaceReader  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"



def _batches(shape: tuple[int, ...], count: int = 3) -> list[torch.Tensor]:
    return [torch.rand(*shape) for _ in range(count)]


@pytest.mark.parametrize(("make", "export", "shape"), [
    (lambda: FaceReader(), export_reader, (16, 3, READER_SIZE, READER_SIZE)),
    (lambda: FaceReader(contrast=True), export_reader, (16, 3, READER_SIZE, READER_SIZE)),
    (lambda: DiceDetector(), export_detector, (1, 3, 128, 160)),
    (lambda: DiceDetector(deep=2), export_detector, (1, 3, 128, 160)),
])
def test_the_restored_network_computes_what_the_original_did(tmp_path, make, export, shape) -> None:
    original = trained_looking(make(), seed=3)
    path = tmp_path / "net.onnx"
    export(original, path)
    restored = recalibrate(load_folded(path), _batches(shape))
    assert type(restored) is type(original)
    x = torch.rand(*shape)
    with torch.no_grad():
        torch.testing.assert_close(restored(x), original(x), atol=2e-4, rtol=1e-4)
    check_against_file(restored, path, x)
    # Its norms carry measured statistics: a fine-tune in train mode starts near eval output.
    assert train_mode_drift(restored, x) < 0.1 * train_mode_drift(load_folded(path), x)


def test_recalibration_leaves_unit_variance_convolutions(tmp_path) -> None:
    path = tmp_path / "reader.onnx"
    export_reader(trained_looking(FaceReader(), seed=5), path)
    restored = recalibrate(load_folded(path), _batches((32, 3, READER_SIZE, READER_SIZE)))
    for module in restored.modules():
        if isinstance(module, nn.BatchNorm2d):
            # The running variance is that of the rescaled convolution's output: var / (var + eps).
            assert module.running_var is not None
            assert torch.all(module.running_var <= 1.0 + 1e-6)
            assert float(module.running_var.median()) > 0.99


def test_the_shipped_files_restore_exactly() -> None:
    for name, shape in (("reader.onnx", (8, 3, READER_SIZE, READER_SIZE)), ("detector.onnx", (1, 3, 256, 320))):
        restored = recalibrate(load_folded(MODELS / name), _batches(shape, 2))
        assert check_against_file(restored, MODELS / name, torch.rand(*shape)) < 1e-3


def test_a_file_of_another_network_is_refused(tmp_path) -> None:
    path = tmp_path / "reader.onnx"
    export_reader(FaceReader(), path)
    model = onnx.load(str(path))
    del model.metadata_props[:]
    onnx.save(model, str(path))
    with pytest.raises(RestoreError, match="neither a dicecam detector nor a reader"):
        load_folded(path)


def test_no_calibration_batches_is_an_error(tmp_path) -> None:
    path = tmp_path / "reader.onnx"
    export_reader(FaceReader(), path)
    with pytest.raises(RestoreError, match="no calibration batches"):
        recalibrate(load_folded(path), [])


def test_a_reader_of_larger_crops_restores_at_its_size(tmp_path) -> None:
    """A reader trained with `--crop-size 64` is measured on 64 px batches (`crop_size_of`)."""
    from dicecam.training.learn.from_onnx import crop_size_of

    path = tmp_path / "reader.onnx"
    original = trained_looking(FaceReader(), seed=4)
    export_reader(original, path, crop_size=64)
    assert crop_size_of(path) == 64
    assert crop_size_of(MODELS / "reader.onnx") == READER_SIZE
    shape = (16, 3, 64, 64)
    restored = recalibrate(load_folded(path), _batches(shape))
    assert check_against_file(restored, path, torch.rand(*shape)) < 1e-3
