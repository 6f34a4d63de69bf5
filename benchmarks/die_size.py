"""How well throws are read by how big their dice came out in the photo: the measurement
behind `vision.sizes.READABLE_SIDE` (the page's "move closer" hint).

    python benchmarks/die_size.py ../shared/datasets/roboflow_dice [--split train] [--sides 24,28,32]
        [--models DIR] [--json]

Every throw of 1-6 labelled dice (whole photos, not crops) is read twice, as the page reads
a photo throw (told its labelled count) and without the count. Each reading's typical die
is the median longer side of the boxes it reports (`vision.sizes.typical_side`), in the
photo's pixels. For each side in `--sides`, the throws whose dice came out under it and
the others: how many, and the share read exactly (the datasets' rule,
`vision.metrics.score_photo`). A side that splits the throws into ones read far worse and
ones read about as well as all the plain-table sets is one worth telling the player about.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DiceReader
from dicecam.vision.sizes import READABLE_SIDE, typical_side

#: A throw at the table shows at most six dice; heaps of dice are not throws.
MAX_DICE = 6


@dataclass(frozen=True)
class Throw:
    """One throw as read: its typical die (photo pixels; None where nothing was reported,
    which the page says otherwise) and whether the reading was exact."""

    side: float | None
    exact: bool


def split_by_side(throws: list[Throw], side: float) -> dict[str, dict[str, float]]:
    """The throws whose dice came out under `side` and the others (throws read as no dice
    at all in neither): how many, and the share read exactly (NaN for none)."""
    sides = [(t.side, t) for t in throws if t.side is not None]
    out = {}
    for name, part in (("under", [t for s, t in sides if s < side]),
                       ("at_or_over", [t for s, t in sides if s >= side])):
        out[name] = {"throws": len(part),
                     "exact": round(sum(t.exact for t in part) / len(part), 3) if part else float("nan")}
    return out


def read_throws(reader: DiceReader, folder: Path, split: str) -> dict[str, list[Throw]]:
    """Every throw of `folder`'s `split` read told its count ("told") and without ("none")."""
    out: dict[str, list[Throw]] = {"told": [], "none": []}
    for photo in read_dataset(folder, split=None if split == "all" else split):
        if photo.crop or not 0 < len(photo.dice) <= MAX_DICE:
            continue
        image = load_image(photo.path)
        for mode, count in (("told", len(photo.dice)), ("none", None)):
            dice = reader.read(image, count=count)
            side = typical_side(dice.boxes) if len(dice) else None
            out[mode].append(Throw(side, bool(score_photo(photo.dice, dice).exact)))
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", default="dev", help="which split (default: dev; 'all' for every photo)")
    p.add_argument("--sides", default=f"24,{READABLE_SIDE:g},32", help="typical die sides (px) to split at")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    sides = [float(v) for v in args.sides.split(",")]
    throws = read_throws(DiceReader(args.models), args.dataset, args.split)
    nothing = {mode: sum(t.side is None for t in rows) for mode, rows in throws.items()}
    table = {mode: {f"{side:g}": split_by_side(rows, side) for side in sides} for mode, rows in throws.items()}
    if args.json:
        print(json.dumps({"throws": len(throws["told"]), "read_as_none": nothing, **table}))
        return
    print(f"{args.dataset.name} ({args.split}): {len(throws['told'])} throws of 1-{MAX_DICE} dice; "
          "exact-roll rate by the typical die read (px); read as no dice at all: "
          f"{nothing['told']} told the count, {nothing['none']} without")
    for mode, label in (("told", "told the count"), ("none", "without a count")):
        for side, parts in table[mode].items():
            under, over = parts["under"], parts["at_or_over"]
            print(f"  {label:16s} under {side:>4s}: {under['throws']:4d} throws, exact {under['exact']:.3f}"
                  f"   at or over: {over['throws']:4d}, exact {over['exact']:.3f}")


if __name__ == "__main__":
    main()
