"""The networks' onnxruntime sessions: workers spin within a run alone, sleep beside another."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from dicecam.vision import onnx
from dicecam.vision.reader import DEFAULT_MODELS, DETECTOR_FILE

PHOTO = np.random.default_rng(7).random((1, 3, 96, 128), dtype=np.float32)


@pytest.fixture(scope="module")
def detector() -> onnx.Network:
    return onnx.session(DEFAULT_MODELS / DETECTOR_FILE, 2)


@pytest.mark.parametrize(("which", "spins"), [("alone", "1"), ("beside", "0")])
def test_workers_spin_only_in_a_run_alone_and_only_while_it_lasts(detector, which, spins) -> None:
    # Spinning between a network's layers is C311's speed-up (models/HISTORY.md); beside
    # another run, or after a run, spinning threads take the cores the other run needs.
    opts = getattr(detector, which).get_session_options()
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == spins
    assert opts.get_session_config_entry("session.force_spinning_stop") == "1"


def test_a_run_alone_takes_the_spinning_session_and_one_beside_another_the_sleeping(detector, monkeypatch) -> None:
    used: list[str] = []
    started, release = threading.Event(), threading.Event()

    class Spy:
        def __init__(self, name: str, session, block: bool) -> None:
            self.name, self.session, self.block = name, session, block

        def run(self, outputs, feeds):
            used.append(self.name)
            if self.block:
                started.set()
                assert release.wait(10)
            return self.session.run(outputs, feeds)

    network = onnx.Network.__new__(onnx.Network)
    network.alone, network.beside = Spy("alone", detector.alone, True), Spy("beside", detector.beside, False)
    first = threading.Thread(target=network.run, args=(None, {"image": PHOTO}))
    first.start()
    assert started.wait(10)
    network.run(None, {"image": PHOTO})  # while the first run lasts
    release.set()
    first.join(10)
    network.alone.block = False
    network.run(None, {"image": PHOTO})  # alone again
    assert used == ["alone", "beside", "alone"]


def test_both_sessions_compute_the_same_maps(detector) -> None:
    a = detector.alone.run(None, {"image": PHOTO})[0]
    b = detector.beside.run(None, {"image": PHOTO})[0]
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(detector.run(None, {"image": PHOTO})[0], a)


@pytest.mark.parametrize("threads", [1, 3])
def test_any_thread_count_computes_the_same_maps(detector, threads: int) -> None:
    other = onnx.session(DEFAULT_MODELS / DETECTOR_FILE, threads)
    np.testing.assert_allclose(other.run(None, {"image": PHOTO})[0], detector.run(None, {"image": PHOTO})[0],
                               rtol=1e-5, atol=1e-5)


def test_a_missing_network_is_named(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match=r"detector\.onnx"):
        onnx.session(tmp_path / "detector.onnx", 2)


def test_runs_within_one_read_are_alone_and_beside_another_thread_s_read_are_not() -> None:
    # A read marks itself busy once: its own runs, however nested, leave it alone; another
    # thread's read in flight, even between its runs, does not.
    with onnx.busy():
        with onnx.busy():
            assert onnx._TRAFFIC.alone()
        other_started, other_done = threading.Event(), threading.Event()

        def other_read() -> None:
            with onnx.busy():
                other_started.set()
                assert other_done.wait(10)

        thread = threading.Thread(target=other_read)
        thread.start()
        assert other_started.wait(10)
        assert not onnx._TRAFFIC.alone()
        other_done.set()
        thread.join(10)
        assert onnx._TRAFFIC.alone()
    assert onnx._TRAFFIC.alone()


def test_a_process_that_shares_its_cores_never_spins() -> None:
    try:
        onnx.share_cores()
        with onnx.busy():
            assert not onnx._TRAFFIC.alone()
    finally:
        onnx.share_cores(False)
    with onnx.busy():
        assert onnx._TRAFFIC.alone()
