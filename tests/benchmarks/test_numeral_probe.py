"""The numeral probe (benchmarks/numeral_probe.py): its counts add up; the figures are never asserted here."""

from __future__ import annotations

from pathlib import Path

import numeral_probe  # benchmarks/ is on pytest's pythonpath
import pytest

from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


@pytest.fixture(scope="module")
def probed(reader) -> dict[str, dict[str, float]]:
    return numeral_probe.probe(reader, SAMPLES, "dev", share=0.4, seed=7)


def test_the_counts_add_up(probed) -> None:
    for r in probed.values():
        assert 0 <= r["sure"] <= r["reported"] <= r["painted"] and r["photos"] > 0


def test_nothing_painted_nothing_probed(reader) -> None:
    for r in numeral_probe.probe(reader, SAMPLES, "dev", share=0.0).values():
        assert r["photos"] == r["painted"] == r["reported"] == 0
