"""ONNX export of the trained networks (fixed opset, dynamic image size / batch)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import torch

from dicecam.training.data.reader_crops import CROP_SCALE
from dicecam.training.learn.fold import fold_enlargement, twin_path
from dicecam.training.learn.nets import (
    NOT_A_DIE,
    READER_SIZE,
    STRIDE,
    DiceDetector,
    SearchDetector,
    detector_of,
    reader_of,
    search_of,
)
from dicecam.training.shapes import INPUT_SIDE, SEARCH_STRIDE

OPSET = 17
#: The detector's peak threshold, stored in its file for `vision.reader`. Chosen on the
#: train photos for the shipped (session-8) detector: of 0.3, 0.4 and 0.5 (with
#: max_not_a_die 0.05-0.2), 0.4 read byler_d6 + matteop65_wood train best
#: (session 8 in `git show d2b37d4:models/HISTORY.md`).
#: Choose it again for a detector trained another way.
MIN_SCORE = 0.4


@contextmanager
def _legacy_exporter() -> Iterator[None]:
    """The TorchScript exporter (`dynamo=False`), its deprecation notice kept out of the logs.

    Chosen on purpose: the recipe's averaged networks re-export to the shipped files byte
    for byte (models/README.md), and the torch.export-based exporter writes other graphs.
    Move with a retraining session, not silently.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="You are using the legacy TorchScript-based ONNX export",
                                category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="The feature will be removed", category=DeprecationWarning)
        yield


def _stamp(path: Path, **meta: object) -> None:
    """Write the preprocessing contract into the ONNX file's metadata."""
    import onnx

    model = onnx.load(str(path))
    del model.metadata_props[:]
    for key, value in meta.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, str(value)
    onnx.save(model, str(path))


def _export_maps(model: DiceDetector | SearchDetector, path: Path, stride: int) -> None:
    """A network that maps a photo (any size) to maps at `stride`, as ONNX (no metadata yet)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(1, 3, 384, 512)
    with _legacy_exporter():
        torch.onnx.export(model.eval(), (x,), str(path), input_names=["image"], output_names=["maps"],
                          dynamic_axes={"image": {2: "height", 3: "width"},
                                        "maps": {2: f"h{stride}", 3: f"w{stride}"}},
                          opset_version=OPSET, dynamo=False)


def export_detector(model: DiceDetector, path: Path, *, min_score: float = MIN_SCORE) -> None:
    _export_maps(model, path, STRIDE)
    whole = ""
    if model.whole_head is not None:
        whole = (",die_log_left,die_log_top,die_log_right,die_log_bottom" if model.whole_head[-1].out_channels == 4
                 else ",whole_heat_logit,whole_log_w,whole_log_h")
    _stamp(path, input_side=INPUT_SIDE, stride=STRIDE, min_score=min_score,
           outputs="heat_logit,log_w,log_h,offset_x_logit,offset_y_logit" + whole)


def export_search(model: SearchDetector, path: Path, *, min_score: float = MIN_SCORE) -> None:
    """The count's search network as ONNX: the detector's maps at `SEARCH_STRIDE`, which
    `vision` reads from the file as it reads the detector's stride; and beside it its twin
    (`fold.twin_path`), its 2x enlargement folded in, for the passes that enlarge that much."""
    _export_maps(model, path, SEARCH_STRIDE)
    _stamp(path, input_side=INPUT_SIDE, stride=SEARCH_STRIDE, min_score=min_score,
           outputs="heat_logit,log_w,log_h,offset_x_logit,offset_y_logit")
    fold_enlargement(path, twin_path(path))


def export_reader(model: torch.nn.Module, path: Path, *, upright: bool = False, crop_size: int = READER_SIZE) -> None:
    """The reader as ONNX; `upright` records that it was trained upright (`train reader --upright`),
    `crop_size` the side of the crops it reads (`train reader --crop-size`), which `vision` cuts them to.

    The upright record is for people: `vision` reads every reader the same way (models/HISTORY.md, session 16).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(1, 3, crop_size, crop_size)
    with _legacy_exporter():
        torch.onnx.export(model.eval(), (x,), str(path), input_names=["crops"], output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=OPSET, dynamo=False)
    _stamp(path, crop_size=crop_size, crop_scale=CROP_SCALE, not_a_die_class=NOT_A_DIE,
           classes="1,2,3,4,5,6,not a die", upright=int(upright))


def main(argv: list[str] | None = None) -> None:
    """Export checkpoints from a training run: `python -m dicecam.training.learn.export runs/ models/`
    (detector.pt, reader.pt and search.pt, those of them the folder holds)."""
    import argparse

    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("runs", type=Path, nargs="?", default=Path("runs"))
    p.add_argument("out", type=Path, nargs="?", default=Path("models"))
    p.add_argument("--upright", action="store_true", help="the reader was trained with --upright")
    p.add_argument("--search-min-score", type=float, default=MIN_SCORE,
                   help="the search network's peak threshold, chosen on train photos (shipped: 0.25, S272)")
    args = p.parse_args(argv)
    if (args.runs / "detector.pt").is_file():
        export_detector(detector_of(torch.load(args.runs / "detector.pt")), args.out / "detector.onnx")
    if (args.runs / "reader.pt").is_file():
        export_reader(reader_of(torch.load(args.runs / "reader.pt")), args.out / "reader.onnx", upright=args.upright)
    if (args.runs / "search.pt").is_file():
        export_search(search_of(torch.load(args.runs / "search.pt")), args.out / "search.onnx",
                      min_score=args.search_min_score)


if __name__ == "__main__":
    main()
