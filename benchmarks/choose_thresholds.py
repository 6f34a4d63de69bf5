"""Choose reader settings on the train photos: read F1 for every combination of a grid.

    python benchmarks/choose_thresholds.py [DATASET_DIR ...] [--grid NAME=V1,V2,... ...]
        [--models DIR] [--split train] [--json]

`vision.reader.DiceReader`'s thresholds are chosen for one detector and reader; a new
network needs them chosen again, on the train photos and never on dev (which is for the
final figures). Every combination of the `--grid` values (default: the size prior,
`min_relative_size` x `keep_small_above`) reads every photo of the split once; reported:
read F1 per set and their sum, the criterion the model card fixes before looking, and
how many mistakes and right dice each set marks unsure (for `check_below`, which changes
confidences only). Ties
go to the combination listed first, so list the shipped values first. When the grid holds
only settings of the reader's rules (`JUDGING`: which read boxes are dice), every photo is
read by the networks once and only the rules run again per combination. `--dice` tells the
reader each photo's labelled count. `--held-out F` scores only the train photos a trainer
run with `--holdout F` left out (`training.data.photos.held_out`, by source photo), for a
setting that belongs to a network trained without them.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
from reader_options import reader_settings

from dicecam.commands.eval import read_labelled
from dicecam.vision.dataset import LabelledPhoto, read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import score_photo, total, unsure_counts
from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_SETS = tuple(ROOT.parent / "shared" / "datasets" / name for name in ("byler_d6", "matteop65_wood"))
DEFAULT_GRID = ("min_relative_size=0.65,0,0.5", "keep_small_above=0.7,0.8,0.9")
#: Settings of `DiceReader.judge` alone: the networks' readings do not depend on them.
#: (The whole-die check looks only at the boxes the first reading's rules keep, so a grid
#: of `min_whole_die` is exact; other rules beside it leave newly kept boxes unchecked.
#: `max_face_drop` is one where every value of the grid is a number: the die each face lies
#: on is read then, whatever the number.)
JUDGING = {"max_not_a_die", "min_relative_size", "keep_small_above", "weak_sure", "max_relative_size", "lone_sure",
           "min_whole_die", "rescue_whole", "off_die_sure", "max_face_drop"}


def sources(folder: Path) -> dict[str, str]:
    """Each photo's source photo (augmented copies share one), by its `image` in labels.jsonl."""
    with open(folder / "labels.jsonl", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return {row["image"]: row.get("source_photo", row["image"]) for row in rows}


def parse_grid(specs: list[str]) -> dict[str, list[float]]:
    """`NAME=V1,V2` strings as {name: values}; a malformed one raises ValueError."""
    grid = {}
    for spec in specs:
        name, sep, values = spec.partition("=")
        if not sep or not name or not values:
            raise ValueError(f"a grid entry looks like NAME=V1,V2 (got {spec!r})")
        grid[name] = [float(v) for v in values.split(",")]
    return grid


def chosen(folder: Path, split: str, held: float) -> list[LabelledPhoto]:
    """The photos of `split`; with `held`, only those a trainer holding out that fraction left out."""
    photos = read_dataset(folder, split=split)
    if not held:
        return photos
    from dicecam.training.data.photos import held_out  # the trainer's own rule, not a copy

    source = sources(folder)
    return [photo for photo in photos if held_out(source[photo.image], held)]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", nargs="*", type=Path, default=list(DEFAULT_SETS), metavar="DATASET_DIR")
    p.add_argument("--grid", action="append", help="NAME=V1,V2,... (a DiceReader setting and its values)")
    p.add_argument("--split", default="train")
    p.add_argument("--models", type=Path, help="folder with the ONNX models (default: the shipped ones)")
    p.add_argument("--dice", action="store_true", help="tell the reader each photo's labelled count")
    p.add_argument("--json", action="store_true", help="print one JSON object per combination")
    p.add_argument("--held-out", type=float, default=0.0, metavar="F",
                   help="only the photos a trainer run with --holdout F left out")
    args = p.parse_args(argv)
    grid = parse_grid(args.grid or list(DEFAULT_GRID))
    # Decoded once: every combination reads the same pixels.
    photos = {folder.name: [(photo, load_image(photo.path)) for photo in chosen(folder, args.split, args.held_out)]
              for folder in args.datasets}
    rows: list[dict[str, Any]] = []
    read_once = set(grid) <= JUDGING
    if read_once:  # the networks' readings, once: only the rules change per combination
        first = DiceReader(args.models)
        seen = {name: [None if photo.crop else first.candidates(image) for photo, image in items]
                for name, items in photos.items()}
    for combo in itertools.product(*grid.values()):
        options = dict(zip(grid, combo))
        reader = DiceReader(args.models, settings=reader_settings(options))
        f1, marked = {}, {}
        for name, items in photos.items():
            scores, unsure = [], np.zeros(2, np.int64)
            for k, (photo, image) in enumerate(items):
                count = len(photo.dice) if args.dice else None
                candidates = seen[name][k] if read_once else None  # None for a crop
                if candidates is not None:
                    found = reader.select(reader.judge(candidates), count=count, image=image)
                else:
                    found = read_labelled(reader, photo, image, count=count)
                scores.append(score_photo(photo.dice, found))
                unsure += unsure_counts(photo.dice, found, reader.low_confidence)
            result = total(scores)
            f1[name] = result.read_f1
            marked[name] = {"mistakes": int(unsure[0]), "of_mistakes": result.mistakes,
                            "right": int(unsure[1]), "of_right": result.right}
        rows.append({"options": options, "read_f1": f1, "sum": sum(f1.values()), "marked_unsure": marked})
        if args.json:
            print(json.dumps(rows[-1]))
        else:
            print("  ".join(f"{k}={v:g}" for k, v in options.items()), " ".join(
                f"{name} {v:.4f} (unsure: {m['mistakes']}/{m['of_mistakes']} mistakes, "
                f"{m['right']}/{m['of_right']} right)"
                for (name, v), m in zip(f1.items(), marked.values())), f"sum {rows[-1]['sum']:.4f}", flush=True)
    best = max(rows, key=lambda row: row["sum"])  # max keeps the first of equals
    if not args.json:
        print("best:", "  ".join(f"{k}={v:g}" for k, v in best["options"].items()), f"sum {best['sum']:.4f}")


if __name__ == "__main__":
    main()
