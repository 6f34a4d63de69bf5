"""Why throws read with their count are not read exactly: a wrong value, a die whose box
the count passed over, or a die with no box at all.

    python benchmarks/counted_throws.py ../shared/datasets/roboflow_dice [--split dev] [--models DIR] [--json]

Each photo is read as the page reads a throw, told its labelled count
(`DiceReader.counted`, then `select`). A throw not read exactly (the datasets' scoring
rule, `vision.metrics.score_photo`) goes under the first reason that holds: "no box" (a
labelled die that no candidate, searched ones included, pairs with), "passed over" (a
labelled die missed though a candidate pairs with it: the count chose another box), else
"wrong value" (every die found, some read wrong). Printed per reason: how many throws,
and the first few photos, which says whether the detector, the count's ranking or the
reader is the way on.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from missed_dice import dataset_parser, paired

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DiceReader

REASONS = ("no box", "passed over", "wrong value")


def reason(truth: np.ndarray, chosen: np.ndarray, candidates: np.ndarray) -> str:
    """Why a throw with labelled boxes `truth` was not read exactly, given the boxes the
    count `chosen` and all its `candidates`: the first of `REASONS` that holds."""
    missed = paired(truth, chosen) < 0
    if (missed & (paired(truth, candidates) < 0)).any():
        return "no box"
    return "passed over" if missed.any() else "wrong value"


def counted_misses(reader: DiceReader, folder: Path, split: str) -> tuple[dict[str, list[str]], int]:
    """The photos of `folder`'s `split` (whole photos, not crops) whose throw, read with its
    count, is not exact, by reason; and how many throws were read."""
    out: dict[str, list[str]] = defaultdict(list)
    throws = 0
    for photo in read_dataset(folder, split=None if split == "all" else split):
        if photo.crop:
            continue
        throws += 1
        count = len(photo.dice)
        image = load_image(photo.path)
        found = reader.counted(image, count)
        dice = reader.select(found, count=count, image=image)
        if score_photo(photo.dice, dice).exact:
            continue
        out[reason(photo.dice.boxes, dice.boxes, found.boxes)].append(photo.image)
    return out, throws


def main(argv: list[str] | None = None) -> None:
    args = dataset_parser(__doc__).parse_args(argv)
    by_reason, throws = counted_misses(DiceReader(args.models), args.dataset, args.split)
    if args.json:
        print(json.dumps({"throws": throws, **{why: len(by_reason[why]) for why in REASONS}}))
        return
    print(f"{args.dataset.name} ({args.split}): {sum(map(len, by_reason.values()))} of {throws} throws "
          "not read exactly with their count")
    for why in REASONS:
        photos = by_reason[why]
        print(f"  {why:12s} {len(photos):4d}  {', '.join(photos[:3])}{' ...' if len(photos) > 3 else ''}")


if __name__ == "__main__":
    main()
