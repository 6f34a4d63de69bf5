"""A cheaper detector taught what a trained one computes (training.learn.distil)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

import torch
from helpers_nets import trained_looking
from torch.utils.data import DataLoader

from dicecam.training.learn.distil import (
    Crops,
    DistilError,
    distil,
    distil_loss,
    photo_changes,
    scaled_crop,
    without_stem_block,
)
from dicecam.training.learn.export import export_detector
from dicecam.training.learn.from_onnx import check_against_file, load_folded, recalibrate
from dicecam.training.learn.nets import DiceDetector, detector_of
from dicecam.vision.dataset import read_dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _maps(n: int = 2, side: int = 16, *, heat: float = -6.0) -> torch.Tensor:
    torch.manual_seed(0)
    maps = torch.randn(n, 5, side, side)
    maps[:, 0] = heat
    return maps


def test_a_detector_without_its_stem_block_keeps_every_other_weight_and_its_output_shape() -> None:
    teacher = trained_looking(DiceDetector(), seed=1)
    student = detector_of(without_stem_block(teacher.state_dict()))
    assert len(student.stem) == 1 and len(teacher.stem) == 2
    for name, weights in student.state_dict().items():
        torch.testing.assert_close(weights, teacher.state_dict()[name])
    x = torch.rand(1, 3, 128, 160)
    with torch.no_grad():
        assert student(x).shape == teacher(x).shape == (1, 5, 32, 40)
    # The stem's block did work: without it the maps differ until the student learns.
    with torch.no_grad():
        assert not torch.allclose(student(x), teacher(x), atol=1e-3)


def test_a_detector_file_without_the_stem_block_restores_as_one(tmp_path) -> None:
    original = trained_looking(DiceDetector(stem_block=False), seed=2)
    path = tmp_path / "detector.onnx"
    export_detector(original, path)
    x = torch.rand(1, 3, 128, 160)
    restored = recalibrate(load_folded(path), [torch.rand(1, 3, 128, 160) for _ in range(3)])
    assert isinstance(restored, DiceDetector) and len(restored.stem) == 1
    assert check_against_file(restored, path, x) < 1e-3


def test_maps_that_match_cost_nothing() -> None:
    maps = _maps()
    assert float(distil_loss(maps.clone(), maps)) == 0.0


def test_the_same_heat_error_costs_more_at_a_peak_than_on_the_background() -> None:
    teacher = _maps()
    teacher[:, 0, 4, 4] = 3.0  # one die
    at_peak, on_background = teacher.clone(), teacher.clone()
    at_peak[:, 0, 4, 4] -= 1.0
    on_background[:, 0, 10, 10] -= 1.0
    assert float(distil_loss(at_peak, teacher)) > 5 * float(distil_loss(on_background, teacher))
    # Unweighted, both are one logit off in one cell.
    assert float(distil_loss(at_peak, teacher, peak_weight=0)) == pytest.approx(
        float(distil_loss(on_background, teacher, peak_weight=0)))


def test_the_background_deeper_than_the_clamp_is_not_chased() -> None:
    teacher = _maps(heat=-30.0)
    student = teacher.clone()
    student[:, 0] = -9.0
    assert float(distil_loss(student, teacher)) == 0.0


@pytest.mark.parametrize("shape", [(2, 8, 16, 16), (2, 5, 8, 8)])
def test_maps_of_another_shape_are_refused(shape) -> None:
    with pytest.raises(DistilError, match="five maps"):
        distil_loss(torch.zeros(*shape), _maps())


@pytest.mark.parametrize(("h", "w"), [(480, 640), (60, 60), (2000, 900)])
def test_a_scaled_crop_is_the_crop_size_and_padded_with_black(h, w) -> None:
    rng = np.random.default_rng(3)
    image = np.full((h, w, 3), 200, np.uint8)
    crops = [scaled_crop(image, rng, crop=256, sides=(100.0, 400.0)) for _ in range(20)]
    assert all(c.shape == (256, 256, 3) and c.dtype == np.uint8 for c in crops)
    # A long side under the crop's leaves black right or below, never on the top left.
    assert all(c[0, 0].tolist() == [200, 200, 200] for c in crops)
    assert any((c == 0).all(axis=2).any() for c in crops)


def test_photo_changes_keep_the_padding_black_and_the_input_in_range() -> None:
    batch = torch.full((4, 3, 32, 32), 128, dtype=torch.uint8)
    batch[:, :, 16:] = 0
    x = photo_changes(batch, torch.Generator().manual_seed(0))
    assert x.dtype == torch.float32 and float(x.min()) >= 0.0 and float(x.max()) <= 1.0
    assert torch.all(x[:, :, 16:] == 0) and torch.all(x[:, :, :16] > 0)


def test_crops_come_from_photos_and_rendered_throws() -> None:
    photos = [p.path for p in read_dataset(SAMPLES) if not p.crop][:3]
    for rendered in (0.0, 1.0):
        crop = next(iter(Crops(photos, rendered=rendered, crop=96)))
        assert crop.shape == (3, 96, 96) and crop.dtype == torch.uint8
    with pytest.raises(DistilError, match="no photos"):
        Crops([], rendered=0.5)


def test_distilling_brings_the_student_closer_to_the_teacher() -> None:
    torch.manual_seed(4)
    teacher = trained_looking(DiceDetector(), seed=4)
    # A student far from the teacher (its own weights): what it learns is the teacher's, not luck.
    student = trained_looking(DiceDetector(stem_block=False), seed=104)
    photos = [p.path for p in read_dataset(SAMPLES) if not p.crop]
    held = photo_changes(torch.stack([c for c, _ in zip(Crops(photos, rendered=0.0, crop=64, seed=9), range(8))]),
                         torch.Generator().manual_seed(1))

    def gap(net: DiceDetector) -> float:
        with torch.no_grad():
            return float(distil_loss(net.eval()(held), teacher.eval()(held)))

    before = gap(student)
    crops = DataLoader(Crops(photos, rendered=0.0, crop=64, seed=5), batch_size=4, num_workers=0)
    student = distil(teacher, student, crops, steps=60, lr=2e-3, log_every=1000)
    assert gap(student) < 0.1 * before
    with pytest.raises(DistilError, match="how long"):
        distil(teacher, student, crops)
