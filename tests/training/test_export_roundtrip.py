"""An exported (untrained) model loads in the torch-free runtime with its preprocessing contract."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.data.reader_crops import CROP_SCALE  # noqa: E402
from dicecam.training.learn.export import INPUT_SIDE, MIN_SCORE, _stamp, export_detector, export_reader  # noqa: E402
from dicecam.training.learn.nets import READER_SIZE, DiceDetector, FaceReader  # noqa: E402
from dicecam.vision.reader import DiceReader  # noqa: E402


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    torch.manual_seed(0)
    export_detector(DiceDetector(), folder / "detector.onnx")
    export_reader(FaceReader(), folder / "reader.onnx")
    return folder


def test_runtime_reads_the_contract_from_the_files(exported):
    reader = DiceReader(exported)
    assert reader.detector.input_side == INPUT_SIDE
    assert reader.min_score == pytest.approx(MIN_SCORE)
    assert reader.face.crop_size == READER_SIZE
    assert reader.face.crop_scale == pytest.approx(CROP_SCALE)


def test_peak_threshold_travels_with_the_detector(tmp_path):
    torch.manual_seed(0)
    export_detector(DiceDetector(), tmp_path / "detector.onnx", min_score=0.55)
    export_reader(FaceReader(), tmp_path / "reader.onnx")
    assert DiceReader(tmp_path).min_score == pytest.approx(0.55)
    assert DiceReader(tmp_path, min_score=0.2).min_score == pytest.approx(0.2)  # a setting given wins
    # A detector file from before the threshold was stored keeps the old default.
    _stamp(tmp_path / "detector.onnx", input_side=INPUT_SIDE, stride=4)
    assert DiceReader(tmp_path).min_score == pytest.approx(0.3)


def test_a_reader_trained_upright_says_so_in_its_file(tmp_path):
    """`upright` metadata records how the reader was trained (models/HISTORY.md, session 16)."""
    for upright in (False, True):
        export_reader(FaceReader(), tmp_path / "reader.onnx", upright=upright)
        meta = ort.InferenceSession(str(tmp_path / "reader.onnx")).get_modelmeta().custom_metadata_map
        assert meta["upright"] == str(int(upright))


@pytest.mark.parametrize("shape", [(480, 640, 3), (1080, 1920, 3), (37, 300, 3), (640, 640)])
def test_any_photo_size_gives_a_well_formed_result(exported, shape):
    reader = DiceReader(exported)
    image = np.random.default_rng(1).integers(0, 255, shape, dtype=np.uint8)
    dice = reader.read(image)
    h, w = shape[:2]
    assert dice.boxes.shape == (len(dice), 4)
    assert np.all(dice.boxes[:, [0, 2]] <= w) and np.all(dice.boxes[:, [1, 3]] <= h)
    assert np.all((dice.confidences >= 0) & (dice.confidences <= 1))


def test_onnx_detector_matches_torch(exported):
    import onnxruntime as ort

    torch.manual_seed(0)
    model = DiceDetector().eval()
    x = np.random.default_rng(2).random((1, 3, 64, 96), dtype=np.float32)
    with torch.no_grad():
        expected = model(torch.from_numpy(x)).numpy()
    got = ort.InferenceSession(str(exported / "detector.onnx")).run(None, {"image": x})[0]
    np.testing.assert_allclose(got, expected, atol=1e-4)


def test_missing_model_is_named():
    with pytest.raises(FileNotFoundError, match=r"detector\.onnx"):
        DiceReader("/nonexistent/models")
