"""Quantize the face reader to int8, calibrated on the crops the pipeline cuts.

    python -m dicecam.training.learn.quantize models [--data DIR] [--photos 100] [--seed 5]

The reader reads a batch of 48 px crops, up to a hundred of them on a cluttered photo told
its count; with 8-bit weights and activations onnxruntime reads them about twice as fast
on a CPU with VNNI (100 crops 25 -> 12 ms). The detector and the search network stay float
(their depthwise layers run slower in int8), and so does the whole-die check (1-5 crops a
photo: little to gain). C308, C308b in models/HISTORY.md.

Static quantization fixes each activation's range beforehand, so it is calibrated on the
inputs the reader really gets: the crops the float pipeline cuts while it reads train
photos of every shared set, without a count and told it (the search's weak boxes and the
doubt views among them). Writes `reader.int8.onnx` beside the float file, with its
metadata; the float file stays what tunes restore from (`from_onnx`) and what
`DiceReader(int8=False)` runs.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from dicecam.vision.reader import INT8_SUFFIX, READER_FILE, WHOLE_DIE_FILE

#: The float networks quantized, each with its int8 file's name: the reader only, since the
#: check's 1-5 crops a photo gain little (C308b, models/HISTORY.md).
NETWORKS = ((READER_FILE, READER_FILE.replace(".onnx", INT8_SUFFIX)),)
#: Train photos read for calibration from each shared set, by its share of the photos a game table shows.
SETS = (("roboflow_dice", 0.6), ("byler_d6", 0.15), ("matteop65_wood", 0.15), ("chase_dji", 0.1))
#: Inputs kept per network (a random sample of all that were read): enough for stable ranges.
KEEP = 3000


class _Recording:
    """An inference session that keeps a copy of every input batch it runs."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.batches: list[np.ndarray] = []

    def run(self, outputs: Any, feed: dict[str, np.ndarray]) -> Any:
        self.batches.extend(np.array(value) for value in feed.values())
        return self.inner.run(outputs, feed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def calibration_photos(data: Path, photos: int, *, seed: int = 5) -> list[tuple[Path, int]]:
    """`photos` train photos of the shared sets (`SETS`' shares), each with its labelled count."""
    from dicecam.vision.dataset import read_dataset

    rng = random.Random(seed)
    chosen: list[tuple[Path, int]] = []
    for name, share in SETS:
        folder = data / name
        if not folder.is_dir():
            continue
        found = list(read_dataset(folder, split="train"))
        rng.shuffle(found)
        chosen += [(p.path, len(p.dice)) for p in found[: max(1, round(photos * share))]]
    if not chosen:
        raise FileNotFoundError(f"no shared dataset under {data}")
    return chosen


def calibration_inputs(models: Path, photos: Iterable[tuple[Path, int]], *, seed: int = 0) -> dict[str, np.ndarray]:
    """What the float reader and check are fed while `photos` (path, count) are read without
    a count and told it: at most `KEEP` inputs each, keyed by the float file's name."""
    from dicecam.vision.decode import load_image
    from dicecam.vision.reader import DiceReader

    reader = DiceReader(models, threads=2, int8=False)
    face = _Recording(reader.face.session)
    reader.face.session = face
    whole = None
    if reader.whole_die is not None:
        whole = _Recording(reader.whole_die.session)
        reader.whole_die.session = whole
    for path, count in photos:
        image = load_image(path)
        reader.read(image)
        reader.read(image, count=max(1, count))
    rng = np.random.default_rng(seed)
    inputs = {}
    for name, recording in ((READER_FILE, face), (WHOLE_DIE_FILE, whole)):
        if recording is not None and recording.batches:
            every = np.concatenate(recording.batches)
            inputs[name] = every[rng.permutation(len(every))[:KEEP]]
    return inputs


def quantize(source: Path, target: Path, inputs: np.ndarray, *, batch: int = 100) -> None:
    """`source` (a float ONNX network of one input) as int8 at `target`: weights per channel,
    activations over the ranges `inputs` reach; the source's metadata carried over."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    float_model = onnx.load(str(source))
    name = float_model.graph.input[0].name
    # The first layer (three colour channels in, the crop's full size) and the classifying
    # head stay float: 8 bits there moved the most probabilities and saved the least time.
    layers = [node for node in float_model.graph.node if node.op_type in ("Conv", "Gemm")]
    keep_float = [layers[0].name, layers[-1].name] if len(layers) > 1 else []

    batch = min(batch, len(inputs))

    class Batches(CalibrationDataReader):
        def __init__(self) -> None:
            self.left: Iterator[dict[str, np.ndarray]] = iter(
                [{name: inputs[i: i + batch]} for i in range(0, len(inputs) - batch + 1, batch)])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.left, None)

    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        # Folding and shape inference first, as onnxruntime advises; the symbolic pass
        # cannot follow a dynamic batch through Flatten, and plain shapes are enough here.
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(target), Batches(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        nodes_to_exclude=keep_float, calibrate_method=CalibrationMethod.Percentile)
    quantized = onnx.load(str(target))
    onnx.helper.set_model_props(quantized, {**{p.key: p.value for p in float_model.metadata_props}, "int8": "1"})
    onnx.save(quantized, str(target))


def main(argv: list[str] | None = None) -> None:
    from dicecam.training.data.caches import DATASETS

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, help="the models folder: its float networks are read, int8 ones written")
    p.add_argument("--data", type=Path, default=DATASETS,
                   help="the shared photo sets, whose train photos are read (default: DICECAM_DATASETS)")
    p.add_argument("--photos", type=int, default=100, help="train photos to read, over the sets")
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args(argv)
    inputs = calibration_inputs(args.models, calibration_photos(args.data, args.photos, seed=args.seed))
    for source, target in NETWORKS:
        if source not in inputs:
            continue
        quantize(args.models / source, args.models / target, inputs[source])
        print(f"{target}: calibrated on {len(inputs[source])} inputs")


if __name__ == "__main__":
    main()
