"""Reads at once (benchmarks/concurrent_reads.py)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest
from concurrent_reads import force, main, read_at_once

from dicecam.vision import onnx

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.fixture(autouse=True)
def _auto():
    yield
    force("auto")


class Reader:
    """Notes which thread read which photo."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int | None, str]] = []

    def read(self, image: np.ndarray, *, count: int | None = None) -> None:
        self.seen.append((int(image[0, 0, 0]), count, threading.current_thread().name))


def test_every_photo_is_read_once_shared_out_among_the_threads() -> None:
    reader = Reader()
    photos = [(np.full((4, 4, 3), k, np.uint8), k % 3 or None) for k in range(7)]
    got = read_at_once(reader, photos, 3)
    assert sorted((k, c) for k, c, _ in reader.seen) == sorted((k, k % 3 or None) for k in range(7))
    assert len({name for *_, name in reader.seen}) == 3
    assert got["reads"] == 7 and got["median_ms"] <= got["p90_ms"]


def test_at_least_one_thread_reads() -> None:
    with pytest.raises(ValueError, match="at least one reader"):
        read_at_once(Reader(), [], 0)


@pytest.mark.parametrize(("policy", "alone"), [("spin", True), ("sleep", False), ("auto", True)])
def test_the_policy_decides_which_session_runs_a_network_alone(policy, alone) -> None:
    force(policy)
    with onnx.busy():
        assert onnx._TRAFFIC.alone() is alone


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="one of auto, spin, sleep"):
        force("fast")


def test_json_output_counts_the_reads(capsys) -> None:
    main([str(SAMPLES), "--photos", "3", "--readers", "2", "--dice", "--json"])
    got = json.loads(capsys.readouterr().out)
    assert got["reads"] == 3 and got["readers"] == 2 and got["workers"] == "auto" and got["wall_s"] > 0
