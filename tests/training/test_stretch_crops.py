"""Training cuts dice the way a reader with `max_stretch` reads them, and the reader file says so."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from training.crop_cache import CACHE, cache_path  # noqa: E402
from training.export import export_reader  # noqa: E402
from training.models import FaceReader  # noqa: E402
from training.reader_data import crop_square, positive_crop  # noqa: E402
from vision.reader import DEFAULT_MODELS, DETECTOR_FILE, DiceReader  # noqa: E402


def _rectangle(w: int, h: int) -> np.ndarray:
    img = np.zeros((200, 200, 3), np.uint8)
    cv2.rectangle(img, (100 - w // 2, 100 - h // 2), (100 + w // 2 - 1, 100 + h // 2 - 1), (255, 255, 255), -1)
    return img


def _white_extent(crop: np.ndarray) -> tuple[int, int]:
    ys, xs = np.nonzero(crop[..., 0] > 127)
    return int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


def _aspect(crop: np.ndarray) -> float:
    """Shorter over longer axis of the white shape, whichever way it is turned (from its second moments)."""
    m = cv2.moments((crop[..., 0] > 127).astype(np.uint8), binaryImage=True)
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / m["m00"]
    small, big = np.linalg.eigvalsh(cov)
    return float(np.sqrt(small / big))


def test_an_unsquashed_crop_is_the_plain_turned_square():
    img = np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    m = cv2.getRotationMatrix2D((70.0, 50.0), 30.0, 48 / 60)
    m[:, 2] += (24 - 70.0, 24 - 50.0)
    plain = cv2.warpAffine(img, m, (48, 48), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    np.testing.assert_array_equal(crop_square(img, 70.0, 50.0, 60.0, 30.0, 48), plain)


@pytest.mark.parametrize("angle", [0.0, 90.0])
def test_a_squashed_window_comes_out_square_whichever_way_it_is_turned(angle):
    wide = _rectangle(60, 30)
    w, h = _white_extent(crop_square(wide, 100, 100, 80.0, angle, 48, squash=(1.0, 0.5)))
    assert abs(w - h) <= 2 and w > 30
    w, h = _white_extent(crop_square(wide, 100, 100, 80.0, angle, 48))
    assert abs(w - h) > 10  # the plain crop keeps the squash


def test_positive_crops_of_an_oblique_box_are_stretched_only_when_asked():
    wide, box = _rectangle(60, 36), np.array([70, 82, 130, 118], np.float32)
    shapes = []
    for stretch in (1.0, 1.5):
        rng = np.random.default_rng(4)
        shapes.append(_aspect(positive_crop(wide, box, rng, max_stretch=stretch)))
    assert shapes[0] == pytest.approx(0.6, abs=0.05) and shapes[1] == pytest.approx(0.9, abs=0.05)


def test_caches_for_stretched_crops_lie_apart():
    assert cache_path(1.0) == CACHE
    assert cache_path(1.5) == CACHE.with_name("synth_crops_stretch1.5.npz")
    assert cache_path(1.5, Path("data/hard_negatives.npz")).name == "hard_negatives_stretch1.5.npz"


def test_the_reader_file_tells_the_runtime_how_its_crops_were_cut(tmp_path):
    from training.export import main as export_main

    shutil.copy(DEFAULT_MODELS / DETECTOR_FILE, tmp_path / DETECTOR_FILE)
    torch.manual_seed(0)
    torch.save(FaceReader(max_stretch=1.5).state_dict(), tmp_path / "reader.pt")
    export_main([str(tmp_path), str(tmp_path)])  # from the checkpoint, as after a training run
    assert DiceReader(tmp_path).max_stretch == 1.5
    assert DiceReader(tmp_path, max_stretch=1.0).max_stretch == 1.0  # a setting still overrides it
    export_reader(FaceReader().eval(), tmp_path / "reader.onnx")
    assert DiceReader(tmp_path).max_stretch == 1.0  # a reader of square crops keeps them square
