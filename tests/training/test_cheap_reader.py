"""The cheaper reader's distillation (C343): the crops the pipeline reads, a student that keeps
the reader's contract at fewer multiply-adds, and two stages that each bring it nearer its teacher."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.data.pipeline_crops import pipeline_crops  # noqa: E402
from dicecam.training.learn.cheap_reader import (  # noqa: E402
    Agreement,
    SeparableReader,
    agreement,
    distil,
    layer_loss,
    probabilities,
    reading_loss,
    teacher_features,
)
from dicecam.training.learn.export import export_reader  # noqa: E402
from dicecam.training.learn.from_onnx import load_folded  # noqa: E402
from dicecam.training.shapes import NOT_A_DIE, READER_SIZE  # noqa: E402
from dicecam.vision.decode import load_image  # noqa: E402
from dicecam.vision.face_reader import FaceReader as RunReader  # noqa: E402
from dicecam.vision.onnx import session  # noqa: E402
from dicecam.vision.reader import DiceReader  # noqa: E402
from dicecam.vision.settings import ReaderSettings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = sorted((ROOT / "sample_images" / "roboflow_dice").glob("*.jpg"))[:2]


@pytest.fixture(scope="module")
def teacher():
    return load_folded(ROOT / "models" / "reader.onnx").eval()


@pytest.fixture(scope="module")
def read_crops():
    reader = DiceReader()
    photos = [(load_image(path), 2) for path in PHOTOS]
    crops, first = pipeline_crops(reader, photos)
    assert "classify" not in vars(reader.face)  # the reader reads as before afterwards
    return crops, first


def test_pipeline_crops_are_the_reader_inputs_once_each(read_crops) -> None:
    crops, first = read_crops
    assert crops.dtype == np.uint8 and crops.shape[1:] == (3, READER_SIZE, READER_SIZE)
    assert len(crops) == len(first) > 10
    assert len({c.tobytes() for c in crops}) == len(crops)
    assert set(first.tolist()) == {0, 1} and np.all(np.diff(first) >= 0)  # photo by photo


def test_pipeline_crops_read_by_the_reader_as_at_run_time(read_crops) -> None:
    crops, _ = read_crops
    reader = DiceReader()
    stored = reader.face.classify(crops.astype(np.float32) / 255)
    # The crops were cut from 8-bit photos: stored as uint8, they are what the reader read.
    assert (stored[:, :NOT_A_DIE].max(axis=1) >= 0.9).any() and (stored[:, NOT_A_DIE] >= 0.9).any()


def _multiply_adds(net) -> int:
    total = 0

    def count(module, _inputs, output) -> None:
        nonlocal total
        k = module.kernel_size[0] * module.kernel_size[1]
        total += output.numel() * (module.in_channels // module.groups) * k

    hooks = [m.register_forward_hook(count) for m in net.modules() if isinstance(m, torch.nn.Conv2d)]
    with torch.no_grad():
        net(torch.zeros(1, 3, READER_SIZE, READER_SIZE))
    for hook in hooks:
        hook.remove()
    return total


def test_the_student_keeps_the_contract_at_under_half_the_work(teacher, tmp_path) -> None:
    student = SeparableReader(teacher).eval()
    assert _multiply_adds(student) < 0.5 * _multiply_adds(teacher)
    first = dict(student.named_parameters())["features.0.0.weight"]
    assert torch.equal(teacher.state_dict()["features.0.0.weight"], first)  # the teacher's own first look
    assert not first.requires_grad
    path = tmp_path / "reader.onnx"
    export_reader(student, path, upright=True)
    run = RunReader(session(path, 1), ReaderSettings())
    assert run.not_a_die == NOT_A_DIE and run.crop_size == READER_SIZE
    probs = run.classify(np.full((3, 3, READER_SIZE, READER_SIZE), 0.5, np.float32))
    assert probs.shape == (3, 7) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)


def test_each_stage_brings_the_student_nearer_its_teacher(teacher, read_crops) -> None:
    crops, _ = read_crops
    x = torch.from_numpy(crops[:64].astype(np.float32) / 255)
    with torch.no_grad():
        features = teacher_features(teacher, x)
        taught = teacher(x)
    fresh = SeparableReader(teacher).eval()
    layers = distil(teacher, crops, layer_minutes=5, minutes=0, batch=32, max_steps=40, log_every=0)
    whole = distil(teacher, crops, layer_minutes=5, minutes=5, batch=32, max_steps=40, log_every=0)
    with torch.no_grad():
        assert float(layer_loss(layers, features)) < 0.8 * float(layer_loss(fresh, features))
        assert float(reading_loss(whole(x), taught)) < float(reading_loss(layers(x), taught))
    assert probabilities(whole, crops[:5], "cpu").shape == (5, 7)


def _probs(*rows: list[float]) -> np.ndarray:
    return np.array([row + [0.0] * (7 - len(row)) for row in rows], np.float32)


@pytest.mark.parametrize(("teacher_rows", "student_rows", "crops", "same", "crossed"), [
    # Read alike, on the same side of the sure line.
    ([[0.9, 0.1], [0, 0.8, 0.2]], [[0.95, 0.05], [0, 0.75, 0.25]], 2, 1.0, 0.0),
    # The same value, but the student is no longer sure of the first.
    ([[0.9, 0.1], [0, 0.8, 0.2]], [[0.6, 0.4], [0, 0.75, 0.25]], 2, 1.0, 0.5),
    # Another value for the second die.
    ([[0.9, 0.1], [0, 0.8, 0.2]], [[0.9, 0.1], [0, 0.3, 0.7]], 2, 0.5, 0.0),
    # Crops the teacher does not read as a die are not judged.
    ([[0.3, 0.1, 0, 0, 0, 0, 0.6], [0.9, 0.1]], [[0.9, 0.1], [0.9, 0.1]], 1, 1.0, 0.0),
    ([[0, 0, 0, 0, 0, 0, 1.0]], [[1.0]], 0, 1.0, 0.0),
])
def test_agreement_is_judged_on_the_teachers_dice(teacher_rows, student_rows, crops, same, crossed) -> None:
    judged = agreement(_probs(*teacher_rows), _probs(*student_rows))
    assert judged == Agreement(crops, same, crossed)
