"""The networks' onnxruntime sessions."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.vision import onnx
from dicecam.vision.reader import DEFAULT_MODELS, DETECTOR_FILE

PHOTO = np.random.default_rng(7).random((1, 3, 96, 128), dtype=np.float32)


def test_workers_never_spin() -> None:
    # Spinning workers read a lone photo about 10% faster, but beside anything else on the
    # cores (another read, another process, a busy browser) 1.3-1.7x slower: C311, withdrawn
    # (models/HISTORY.md).
    opts = onnx.session(DEFAULT_MODELS / DETECTOR_FILE, 2).get_session_options()
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"


@pytest.mark.parametrize("threads", [1, 3])
def test_any_thread_count_computes_the_same_maps(threads: int) -> None:
    two = onnx.session(DEFAULT_MODELS / DETECTOR_FILE, 2)
    other = onnx.session(DEFAULT_MODELS / DETECTOR_FILE, threads)
    np.testing.assert_allclose(other.run(None, {"image": PHOTO})[0], two.run(None, {"image": PHOTO})[0],
                               rtol=1e-5, atol=1e-5)


def test_a_missing_network_is_named(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match=r"detector\.onnx"):
        onnx.session(tmp_path / "detector.onnx", 2)
