"""The photo-change benchmark (benchmarks/robustness.py) tells finding from reading."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("robustness", ROOT / "benchmarks" / "robustness.py")
robustness = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(robustness)


@pytest.fixture(scope="module")
def scores() -> dict[str, dict[str, float]]:
    return robustness.measure(DiceReader(), ROOT / "sample_images", None, [robustness.AS_TAKEN, "grey"])


def test_each_change_reports_finding_and_reading(scores) -> None:
    assert list(scores) == [robustness.AS_TAKEN, "grey"]
    for row in scores.values():
        assert set(row) == {"read_f1", "exact_roll_rate", "recall", "value_accuracy"}
        assert all(0.0 <= value <= 1.0 for value in row.values())


def test_read_f1_is_bounded_by_what_was_found_and_read(scores) -> None:
    # Right values are at most the found dice, each read right or not: F1 <= recall x value accuracy x 2/(1+r).
    for row in scores.values():
        assert row["read_f1"] <= row["recall"] * row["value_accuracy"] / (0.5 + 0.5 * row["recall"]) + 1e-3
