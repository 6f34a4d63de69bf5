"""The networks' onnxruntime sessions."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.vision import onnx
from dicecam.vision.reader import DEFAULT_MODELS, DETECTOR_FILE


def test_workers_spin_only_within_a_run() -> None:
    # Spinning between a network's layers is the C311 speed-up (models/HISTORY.md); spinning
    # on after a run would starve the next network on a 2-core phone server.
    opts = onnx.session(DEFAULT_MODELS / DETECTOR_FILE, 2).get_session_options()
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "1"
    assert opts.get_session_config_entry("session.force_spinning_stop") == "1"


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_any_thread_count_computes_the_same_maps(threads: int) -> None:
    one = onnx.session(DEFAULT_MODELS / DETECTOR_FILE, 1)
    many = onnx.session(DEFAULT_MODELS / DETECTOR_FILE, threads)
    photo = np.random.default_rng(7).random((1, 3, 96, 128), dtype=np.float32)
    np.testing.assert_allclose(many.run(None, {"image": photo})[0], one.run(None, {"image": photo})[0],
                               rtol=1e-5, atol=1e-5)


def test_a_missing_network_is_named(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="detector.onnx"):
        onnx.session(tmp_path / "detector.onnx", 2)
