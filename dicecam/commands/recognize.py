"""`dicecam recognize IMAGE... [--dice N] [--json] [--annotate DIR] [--crop]`: read the dice in photos."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from dicecam.commands._dice import dice_number


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "recognize",
        help="read the dice in one or more photos",
        description=(
            "Find every die in each photo and read its top face. A photo that cannot be "
            "read is reported and skipped; the exit status is then 2."
        ),
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="JPEG, PNG or WebP photo")
    parser.add_argument("--json", action="store_true", help="print one JSON object per photo")
    parser.add_argument("--annotate", metavar="DIR", type=Path, help="write each photo with its dice drawn on into DIR")
    parser.add_argument("--models", metavar="DIR", type=Path,
                        help="folder with the ONNX models (default: $DICECAM_MODELS, else the shipped ones)")
    parser.add_argument("--dice", metavar="N", type=dice_number(0, 100),
                        help="each photo shows N dice (a throw of N): read the N likeliest, and mark "
                             "with ? any the reader had to add or was torn between")
    parser.add_argument("--crop", action="store_true",
                        help="each photo is one die filling the frame (a close crop): read it as that die")
    parser.set_defaults(run=run)


# A photo this small and this square that shows at most one die is most likely a close
# crop of one die (as in the shared datasets' crop sets): the detector looks for dice
# *in* a scene and can miss a die that is the whole picture.
CROP_MAX_SIDE = 256
CROP_MAX_ASPECT = 1.5
# Under this many pixels a side no die's pips can be told apart: such a picture is no crop of one.
CROP_MIN_SIDE = 16


def looks_like_one_die(width: int, height: int, found: int) -> bool:
    """Whether a photo of this size, with `found` dice read, is probably a one-die crop."""
    side, other = max(width, height), min(width, height)
    return found <= 1 and CROP_MIN_SIDE <= other and side <= CROP_MAX_SIDE and side / other <= CROP_MAX_ASPECT


def run(args: argparse.Namespace) -> int:
    from dicecam.commands._model import load_reader
    from dicecam.commands._progress import for_command
    from dicecam.vision.decode import ImageError, load_image

    reader = None  # loaded on the first readable photo, then reused for all
    failed = False
    written: set[Path] = set()
    progress = for_command(args.json)
    total = len(args.images)
    for i, name in enumerate(args.images):
        if total > 1:
            progress.update(f"reading {Path(name).name}", i, total, force=True)
        start = time.perf_counter()
        try:
            image = load_image(name)
        except ImageError as exc:
            failed = True
            progress.clear()
            _report_error(args, name, str(exc))
            continue
        decode_s = time.perf_counter() - start
        if reader is None:
            reader = load_reader(args.models)
            if reader is None:
                progress.clear()
                return 1
        # A photo's time is reading, decoding and recognising it; loading the
        # model once and writing the annotated copy are not counted.
        start = time.perf_counter()
        left_out = None
        if args.crop:
            dice = _read_crop(reader, image)
        elif args.dice is not None:
            counted = reader.read_counted(image, args.dice)
            dice, left_out = counted.dice, counted.left_out
        else:
            dice = reader.read(image)
        ms = (decode_s + time.perf_counter() - start) * 1000
        hint = None
        height, width = image.shape[:2]
        if not args.crop and looks_like_one_die(width, height, len(dice)):
            hint = _crop_hint(reader, image, width, height)
        progress.clear()
        _report(args, name, dice, ms, reader.low_confidence, hint, left_out)
        if args.annotate is not None and not _write_annotated(args.annotate, name, image, dice, reader, written,
                                                              left_out):
            failed = True
    progress.clear()
    return 2 if failed else 0


def _read_crop(reader, image):
    """The photo read as one die filling the frame, as the reader's `Dice`."""
    import numpy as np

    from dicecam.vision.detections import Dice

    die = reader.read_crop(image)
    return Dice(np.array([die.box], np.float32), np.array([die.value]), np.array([die.confidence], np.float32))


def _crop_hint(reader, image, width: int, height: int) -> dict:
    die = reader.read_crop(image)
    return {
        "kind": "one_die_crop",
        "whole_photo": {"value": die.value, "confidence": round(die.confidence, 3)},
        "message": (f"this {width}x{height} photo looks like a close crop of one die; read as "
                    f"one die it shows {die.value}{'' if die.confidence >= reader.low_confidence else '?'} "
                    "(use --crop to read photos like this as one die)"),
    }


def _report_error(args: argparse.Namespace, name: str, reason: str) -> None:
    if args.json:
        print(json.dumps({"image": name, "error": reason}, ensure_ascii=False), flush=True)
    else:
        print(f"dicecam: {name}: {reason}", file=sys.stderr, flush=True)


def _report(args: argparse.Namespace, name: str, dice, ms: float, low_confidence: float,
            hint: dict | None = None, left_out=None) -> None:
    if args.json:
        line = {"image": name, "dice": dice.to_list(), "ms": round(ms, 1)}
        if left_out is not None:
            line["left_out"] = left_out.to_list()
        if hint is not None:
            line["hint"] = hint
        print(json.dumps(line, ensure_ascii=False), flush=True)
        return
    values = " ".join(f"{d.value}?" if d.confidence < low_confidence else str(d.value) for d in dice)
    count = f"{len(dice)} {'die' if len(dice) == 1 else 'dice'}"
    summary = f"{count}: {values}  (sum {int(dice.values.sum())})" if len(dice) else "no dice found"
    more = ""
    if left_out is not None and len(left_out):
        more = f"  (+{len(left_out)} more {'die' if len(left_out) == 1 else 'dice'} seen, not counted)"
    print(f"{name}: {summary}{more}  [{ms:.0f} ms]", flush=True)
    if hint is not None:
        print(f"dicecam: {name}: hint: {hint['message']}", file=sys.stderr, flush=True)


def _write_annotated(folder: Path, name: str, image, dice, reader, written: set[Path], left_out=None) -> bool:
    import cv2

    from dicecam.vision.annotate import annotate

    target = folder / f"{Path(name).stem}.annotated.jpg"
    n = 2
    while target in written:  # two photos with the same name from different folders
        target = folder / f"{Path(name).stem}.{n}.annotated.jpg"
        n += 1
    written.add(target)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        ok = cv2.imwrite(str(target), annotate(image, dice, low_confidence=reader.low_confidence, left_out=left_out),
                         [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:
            raise OSError("the image could not be written")
    except (OSError, cv2.error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).strip().splitlines()[-1]
        print(f"dicecam: {name}: cannot write {target}: {reason}", file=sys.stderr)
        return False
    return True
