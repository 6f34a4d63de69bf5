"""Scores on the held-out part of each train split, the rest of train and dev.

    python benchmarks/held_out.py [DATASET_DIR ...] [--fraction 0.2] [--models DIR] [--json]

`python -m dicecam.training.learn.train ... --holdout F` leaves out of training the photos that
`training.data.photos.held_out(name, F)` picks by a hash of their names, so every run and this
script hold out the same ones. Scoring models trained that way on them compares them
without looking at the dev splits (which are for the final figures only); the shipped
reader is trained on every train photo, held-out ones included. Reported per set, for the
held-out photos, the rest of train and dev: photos, read F1, value accuracy and
exact-roll rate, by the datasets' rule (`vision.metrics`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dicecam.commands.eval import read_labelled
from dicecam.training.data.photos import held_out
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import Score, score_photo, total
from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_SETS = tuple(ROOT.parent / "shared" / "datasets" / name
                     for name in ("byler_d6", "matteop65_wood", "chase_dji"))
PARTS = ("held out", "rest of train", "dev")


def measure(reader: DiceReader, folder: Path, fraction: float) -> dict[str, dict[str, float]]:
    """Scores of each part of one dataset folder (parts without photos left out)."""
    parts: dict[str, list[Score]] = {part: [] for part in PARTS}
    for photo in read_dataset(folder):
        if photo.split == "dev":
            part = "dev"
        elif photo.split == "train":
            part = "held out" if held_out(photo.image, fraction) else "rest of train"
        else:
            continue
        parts[part].append(score_photo(photo.dice, read_labelled(reader, photo, load_image(photo.path))))
    out = {}
    for part, scores in parts.items():
        if scores:
            s = total(scores)
            out[part] = {"photos": s.photos, "read_f1": round(s.read_f1, 4),
                         "value_accuracy": round(s.value_accuracy, 4), "exact_roll_rate": round(s.exact_roll_rate, 4)}
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", nargs="*", type=Path, default=list(DEFAULT_SETS), metavar="DATASET_DIR")
    p.add_argument("--fraction", type=float, default=0.2, help="the --holdout the models were trained with")
    p.add_argument("--models", type=Path, help="folder with the ONNX models (default: the shipped ones)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    reader = DiceReader(args.models)
    results = {folder.name: measure(reader, folder, args.fraction) for folder in args.datasets}
    if args.json:
        print(json.dumps(results))
        return
    for name, parts in results.items():
        for part, s in parts.items():
            print(f"{name:<16}{part:<15}{s['photos']:>4} photos  read F1 {s['read_f1']:.4f}  "
                  f"value accuracy {s['value_accuracy']:.4f}  exact {s['exact_roll_rate']:.3f}")


if __name__ == "__main__":
    main()
