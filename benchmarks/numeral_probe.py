"""Real dice painted as numeral dice: does a numeral die among pip dice come back as a sure pip die?

    python benchmarks/numeral_probe.py ../shared/datasets/byler_d6 [MORE_SETS ...] [--split dev]
        [--share 0.4] [--seed 7] [--models DIR] [--option NAME=VALUE ...] [--json]

The issue asks that numeral dice (digits, d8, d10) lying among pip dice are not read as pip
dice. No shared photo shows one, and rendered numeral dice teach and judge the renderer's
look, not a real die's (C373, C385: models/HISTORY.md). Here the numeral dice are the set's
own: in each photo a `--share` of the dice the reader boxes get their pips painted out and
a digit drawn in their colour (`training.data.numeral_faces.painted_photo`), so colour,
light, blur and JPEG stay the photo's. The painted photo is read without a count and told
its count of pip dice (the unpainted ones: a player counts the pip dice of a throw).
Printed per set and mode: the painted faces, how many come back as dice and how many of
those sure, and the pip dice's read F1 and exact-roll rate (whether a numeral die took a
pip die's place).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from dicecam.training.data.numeral_faces import painted_photo
from dicecam.vision.boxes import centres, inside
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import Score, score_photo, total
from dicecam.vision.reader import DiceReader
from dicecam.vision.settings import parse_options

MODES = ("no count", "told")


def probe(reader: DiceReader, folder: Path, split: str | None, *, share: float = 0.4,
          seed: int = 7) -> dict[str, dict[str, float]]:
    """Per mode (`MODES`): painted faces, those reported as dice and as sure dice, and the pip
    dice's read F1 and exact-roll rate, over the photos of `folder`'s `split` with a face painted."""
    rng = np.random.default_rng(seed)
    counts = {mode: [0, 0, 0] for mode in MODES}  # painted, reported, sure
    scores: dict[str, list[Score]] = {mode: [] for mode in MODES}
    for photo in read_dataset(folder, split=split):
        if photo.crop or not len(photo.dice):
            continue
        image, faces, pips = painted_photo(reader, load_image(photo.path), photo.dice, rng, share=share)
        if not len(faces):
            continue
        for mode, count in zip(MODES, (None, len(pips))):
            if count == 0:
                continue  # every die painted: no throw of pip dice to tell
            read = reader.read(image, count=count)
            on_face = inside(centres(read.boxes), faces).any(axis=1) if len(read) else np.zeros(0, bool)
            certain = read.confidences >= reader.low_confidence
            counts[mode] = [counts[mode][0] + len(faces), counts[mode][1] + int(on_face.sum()),
                            counts[mode][2] + int((on_face & certain).sum())]
            scores[mode].append(score_photo(pips, read[~on_face]))
    out: dict[str, dict[str, float]] = {}
    for mode in MODES:
        s = total(scores[mode])
        painted, reported, sure = counts[mode]
        out[mode] = {"photos": s.photos, "painted": painted, "reported": reported, "sure": sure,
                     "pip_read_f1": round(s.read_f1, 4), "pip_exact": round(s.exact_roll_rate, 4)}
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", type=Path, nargs="+")
    p.add_argument("--split", default="dev", help="which split (default: dev; 'all' for every photo)")
    p.add_argument("--share", type=float, default=0.4, help="share of each photo's dice painted (default 0.4)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    reader = DiceReader(args.models, **parse_options(args.option))
    split = None if args.split == "all" else args.split
    results = {folder.name: probe(reader, folder, split, share=args.share, seed=args.seed) for folder in args.datasets}
    if args.json:
        print(json.dumps(results))
        return
    for name, modes in results.items():
        for mode, r in modes.items():
            print(f"{name} ({args.split}, {mode}): {r['painted']} numeral faces painted in {r['photos']} photos, "
                  f"{r['reported']} reported as dice, {r['sure']} of them sure; pip dice read F1 "
                  f"{r['pip_read_f1']:.4f}, exact {r['pip_exact']:.3f}")


if __name__ == "__main__":
    main()
