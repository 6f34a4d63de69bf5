"""Quantizing the reader and the check (training.learn.quantize): calibrated on real crops, read as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="quantizing needs the `train` extra")

import onnxruntime as ort  # noqa: E402

from dicecam.training.learn.quantize import (  # noqa: E402
    KEEP,
    NETWORKS,
    calibration_inputs,
    calibration_photos,
    main,
    quantize,
)
from dicecam.vision.dataset import read_dataset  # noqa: E402
from dicecam.vision.reader import DEFAULT_MODELS, READER_FILE, WHOLE_DIE_FILE, DiceReader  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.fixture(scope="module")
def inputs() -> dict[str, np.ndarray]:
    """What the float networks are fed while three sample photos are read."""
    photos = [(p.path, len(p.dice)) for p in read_dataset(SAMPLES)][:3]
    return calibration_inputs(DEFAULT_MODELS, photos)


def _run(path: Path, crops: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: crops})[0]


def test_calibration_takes_what_the_pipeline_cuts_for_both_networks(inputs) -> None:
    assert set(inputs) == {READER_FILE, WHOLE_DIE_FILE}
    for crops in inputs.values():
        assert crops.dtype == np.float32 and crops.shape[1:] == (3, 48, 48)
        assert 10 <= len(crops) <= KEEP
        assert -1.0 <= crops.min() and crops.max() <= 1.0 and crops.std() > 0.05  # photo pixels, not blanks


@pytest.mark.parametrize(("name", "agree"), [(READER_FILE, 0.97), (WHOLE_DIE_FILE, 0.97)])
def test_a_quantized_network_keeps_the_float_ones_answers_and_metadata(tmp_path, inputs, name, agree) -> None:
    target = tmp_path / name.replace(".onnx", ".int8.onnx")
    quantize(DEFAULT_MODELS / name, target, inputs[name])
    graph = onnx.load(str(target))
    ops = {node.op_type for node in graph.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    source = onnx.load(str(DEFAULT_MODELS / name))
    kept = {p.key: p.value for p in graph.metadata_props}
    assert kept == {**{p.key: p.value for p in source.metadata_props}, "int8": "1"}
    assert target.stat().st_size < (DEFAULT_MODELS / name).stat().st_size / 2
    ours, theirs = _run(target, inputs[name]), _run(DEFAULT_MODELS / name, inputs[name])
    if name == READER_FILE:
        assert (ours.argmax(axis=1) == theirs.argmax(axis=1)).mean() >= agree
    else:  # one logit: the same side of zero
        assert ((ours > 0) == (theirs > 0)).mean() >= agree


def test_the_command_writes_the_twins_where_a_reader_runs_them(tmp_path, monkeypatch) -> None:
    for name in ("detector.onnx", READER_FILE, WHOLE_DIE_FILE, "confidence.json"):
        shutil.copy(DEFAULT_MODELS / name, tmp_path / name)
    photos = [(p.path, len(p.dice)) for p in read_dataset(SAMPLES)][:2]
    monkeypatch.setattr("dicecam.training.learn.quantize.calibration_photos", lambda *_a, **_k: photos)
    main([str(tmp_path)])
    for _source, target in NETWORKS:
        assert (tmp_path / target).is_file()
    reader = DiceReader(tmp_path, threads=1)
    assert reader.face.session.get_modelmeta().custom_metadata_map["int8"] == "1"


def test_calibration_without_any_shared_set_is_refused(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="no shared dataset"):
        calibration_photos(tmp_path, 10)
