"""How a throw of large dice reads when it comes out as a far one does: small, and soft.

    python benchmarks/far_dice.py ../shared/datasets/roboflow_dice [--split dev] [--side 20]
        [--blur 0,0.4,0.8] [--jpeg 70] [--models DIR] [--json]

Real dice under 28 px read far worse than larger ones (`benchmarks/die_size.py`), yet large
dice shrunk to that size read about as well as taken: pixels alone do not explain it. This
takes every throw of 1-6 dice whose labelled dice measure at least `--min-side` px (median
longer side), shrinks the photo until they measure `--side`, softens it with a Gaussian
blur of each sigma in `--blur` (in the shrunk photo's pixels; 0: none), stores it as a JPEG
of quality `--jpeg` (0: not at all), and reads it told its count, as the page reads a throw.
Printed per sigma: the share of throws read exactly and of dice read right (the datasets'
rule, `vision.metrics`), beside the throws as taken. Session 53, roboflow dev (42 throws), the
shipped reader, defaults: as taken 0.952 exact / 0.968 of dice right; sigma 0 0.929 / 0.952,
0.4 0.905 / 0.935, 0.8 0.762 / 0.806 (without the JPEG: 0.952 / 0.968 up to 0.4, 0.786 / 0.839 at 0.8).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from dicecam.vision.dataset import LabelledPhoto, read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import Score, score_photo
from dicecam.vision.photo_changes import recode_jpeg
from dicecam.vision.reader import DiceReader

#: A throw at the table shows at most six dice; heaps of dice are not throws.
MAX_DICE = 6


def shares(score: Score) -> dict[str, float]:
    """The exact-roll rate and the share of labelled dice read right (NaN for no throws)."""
    if not score.photos:
        return {"throws": 0, "exact": float("nan"), "right": float("nan")}
    return {"throws": score.photos, "exact": round(score.exact / score.photos, 3),
            "right": round(score.right / score.labelled, 3)}


def far(image: np.ndarray, factor: float, *, blur: float = 0.0, jpeg: int = 0) -> np.ndarray:
    """`image` shrunk by `factor`, softened by a Gaussian of `blur` (its own pixels), JPEG'd at `jpeg`."""
    out = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    return recode_jpeg(out, jpeg) if jpeg else out


def large_throws(photos: list[LabelledPhoto], min_side: float) -> Iterator[tuple[LabelledPhoto, float]]:
    """Each photo of 1-6 labelled dice whose median die measures `min_side` px or more, with that median."""
    for photo in photos:
        if photo.crop or not 0 < len(photo.dice) <= MAX_DICE:
            continue
        boxes = photo.dice.boxes
        side = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        if side >= min_side:
            yield photo, side


def read_told(reader: DiceReader, photo: LabelledPhoto, image: np.ndarray, factor: float) -> Score:
    """One throw read told its count from `image` (the photo scaled by `factor`), scored."""
    truth = Dice(photo.dice.boxes * factor, photo.dice.values, photo.dice.confidences)
    return score_photo(truth, reader.read(image, count=len(truth)))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", default="dev", help="which split (default: dev; 'all' for every photo)")
    p.add_argument("--side", type=float, default=20.0, help="the dice's side once shrunk (px, default 20)")
    p.add_argument("--min-side", type=float, default=44.0, help="throws whose dice measure this or more (px)")
    p.add_argument("--blur", default="0,0.4,0.8", help="Gaussian sigmas, in the shrunk photo's pixels")
    p.add_argument("--jpeg", type=int, default=70, help="JPEG quality of the shrunk photo (0: none)")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.side <= 0 or args.min_side < args.side:
        p.error("--side must be positive and no more than --min-side: the throws are shrunk to it")
    sigmas = [float(v) for v in args.blur.split(",")]
    reader = DiceReader(args.models)
    rows = {"as taken": Score(), **{f"sigma {s:g}": Score() for s in sigmas}}
    for photo, side in large_throws(read_dataset(args.dataset, split=None if args.split == "all" else args.split),
                                    args.min_side):
        image = load_image(photo.path)
        rows["as taken"] += read_told(reader, photo, image, 1.0)
        factor = args.side / side
        for s in sigmas:
            rows[f"sigma {s:g}"] += read_told(reader, photo, far(image, factor, blur=s, jpeg=args.jpeg), factor)
    table = {name: shares(score) for name, score in rows.items()}
    if args.json:
        print(json.dumps({"side": args.side, "jpeg": args.jpeg, **table}))
        return
    print(f"{args.dataset.name} ({args.split}): {rows['as taken'].photos} throws of 1-{MAX_DICE} dice of "
          f"{args.min_side:g} px or more, told their count; shrunk to {args.side:g} px, JPEG {args.jpeg or 'none'}")
    for name, row in table.items():
        print(f"  {name:10s} exact {row['exact']:.3f}   dice right {row['right']:.3f}")


if __name__ == "__main__":
    main()
