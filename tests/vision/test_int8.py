"""The int8 twins of the reader and the whole-die check: run where present, read as the float ones."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import (
    DEFAULT_MODELS,
    DETECTOR_FILE,
    INT8_SUFFIX,
    READER_FILE,
    SEARCH_FILE,
    WHOLE_DIE_FILE,
    DiceReader,
)
from dicecam.vision.settings import parse_options

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
PHOTOS = read_dataset(SAMPLES)


def _is_int8(session) -> bool:
    return session.get_modelmeta().custom_metadata_map.get("int8") == "1"


@pytest.fixture(scope="module")
def readers() -> tuple[DiceReader, DiceReader]:
    """The shipped models as they run (int8) and in float."""
    return DiceReader(threads=2), DiceReader(threads=2, int8=False)


def test_the_shipped_folder_holds_the_readers_twin_and_a_reader_runs_it(readers) -> None:
    assert (DEFAULT_MODELS / READER_FILE.replace(".onnx", INT8_SUFFIX)).is_file()
    quantized, plain = readers
    assert _is_int8(quantized.face.session) and not _is_int8(plain.face.session)
    # Only the reader: the detector, the search network and the check stay float (C308b).
    assert not _is_int8(quantized.detector.session) and not _is_int8(quantized.whole_die.session)


def test_int8_is_a_reader_option_like_any_other() -> None:
    assert parse_options(["int8=false"]) == {"int8": False}


def test_a_folder_without_twins_reads_with_its_float_networks(tmp_path) -> None:
    for name in (DETECTOR_FILE, READER_FILE, WHOLE_DIE_FILE, SEARCH_FILE, "confidence.json"):
        shutil.copy(DEFAULT_MODELS / name, tmp_path / name)
    reader = DiceReader(tmp_path, threads=1)
    assert not _is_int8(reader.face.session) and not _is_int8(reader.whole_die.session)
    photo = next(p for p in PHOTOS if len(p.dice) == 5)
    assert len(reader.read(load_image(photo.path), count=5)) == 5


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.image)
def test_int8_reads_every_sample_die_as_the_float_networks_do(readers, photo) -> None:
    image = load_image(photo.path)
    quantized, plain = readers
    for count in (None, len(photo.dice) or None):
        ours, theirs = quantized.read(image, count=count), plain.read(image, count=count)
        assert ours.values.tolist() == theirs.values.tolist()
        np.testing.assert_allclose(ours.boxes, theirs.boxes, atol=0.5)
        # Sure stays sure: no die crosses the line between sure and unsure.
        line = plain.low_confidence
        assert (ours.confidences >= line).tolist() == (theirs.confidences >= line).tolist()
