"""Where a set's missed dice go: no box at all, or a box that one of the reader's rules dropped.

    python benchmarks/missed_dice.py ../shared/datasets/roboflow_dice [--split dev] [--models DIR] [--json]

Each labelled die that no kept box pairs with (the datasets' scoring rule,
`vision.metrics.match_boxes`) is put under the first reason that holds for the box of all
candidates that pairs with it: "no box" (the detector found none), "whole-die check"
(under `min_whole_die`), "not a die" (the reader's `max_not_a_die`), "small" or "big"
against the photo's typical die, else "other rule" (a weak or lone peak not read surely
enough, one face of a whole die). Printed per reason: how many, and their median side in
pixels, which says whether a better detector or a better reader is the way on. Single-die
crops (a label without a box) are left out: `dicecam eval` reads them as one die, unboxed.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from dicecam.vision.candidates import Candidates
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import paired
from dicecam.vision.reader import DiceReader
from dicecam.vision.settings import ReaderSettings
from dicecam.vision.sizes import longer_sides


def reason(found: Candidates, i: int, s: ReaderSettings) -> str:
    """Why candidate `i` of `found` (judged, not kept) was dropped: the first rule that holds."""
    if found.whole is not None and found.whole[i] < s.min_whole_die:  # NaN: not looked at
        return "whole-die check"
    if found.not_a_die is not None and found.not_a_die[i] >= s.max_not_a_die:
        return "not a die"
    if found.relative is not None and found.relative[i] < s.min_relative_size:
        return "small"
    if found.relative is not None and found.relative[i] > s.max_relative_size:
        return "big"
    return "other rule"


def missed(reader: DiceReader, folder: Path, split: str) -> dict[str, list[float]]:
    """The longer sides of the missed dice of `folder`'s `split`, by reason (crops left out)."""
    out: dict[str, list[float]] = defaultdict(list)
    for photo in read_dataset(folder, split=None if split == "all" else split):
        if photo.crop:
            continue
        found = reader.uncounted(load_image(photo.path))  # as `read` judges a photo without a count
        kept = np.zeros(len(found), bool) if found.kept is None else found.kept.astype(bool)
        to_kept, to_any = paired(photo.dice.boxes, found.boxes[kept]), paired(photo.dice.boxes, found.boxes)
        sides = longer_sides(photo.dice.boxes)
        for t in np.flatnonzero(to_kept < 0):
            why = "no box" if to_any[t] < 0 else reason(found, int(to_any[t]), reader.settings)
            out[why].append(float(sides[t]))
    return out


def dataset_parser(description: str | None) -> argparse.ArgumentParser:
    """The command line of a tool that reads one labelled set: DATASET_DIR [--split] [--models] [--json]."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", default="dev", help="which split (default: dev; 'all' for every photo)")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--json", action="store_true")
    return p


def main(argv: list[str] | None = None) -> None:
    args = dataset_parser(__doc__).parse_args(argv)
    by_reason = missed(DiceReader(args.models), args.dataset, args.split)
    rows = {why: {"dice": len(sides), "median_side_px": round(float(np.median(sides)), 1)}
            for why, sides in sorted(by_reason.items(), key=lambda kv: -len(kv[1]))}
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{args.dataset.name} ({args.split}): {sum(r['dice'] for r in rows.values())} dice missed")
    for why, r in rows.items():
        print(f"  {why:16s} {r['dice']:4d}   median side {r['median_side_px']:.0f} px")


if __name__ == "__main__":
    main()
