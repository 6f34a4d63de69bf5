"""How the reading holds up when photos change in ways other cameras, dice and rooms change them.

    python benchmarks/robustness.py [DATASET_DIR ...] [--split dev] [--models DIR] [--dice]
                                    [--option NAME=VALUE ...] [--change NAME ...] [--json]

dicecam is judged on photos from cameras, dice and tables it has never seen. The
labelled sets cannot show that directly, but each photo can be changed the way such
photos differ (other dice colours, darker or brighter rooms, lower or higher
resolution, harsher JPEG, a shaky hand, the phone held sideways) and read again,
against the same labels moved along. A model that learned the shared photos rather
than dice loses most under these changes. Reported per set and change: read F1 and
exact-roll rate, scored by the datasets' rule (`vision.metrics`), recall and value
accuracy, which tell a loss in finding the dice from one in reading them, and the
mistakes left silent (read wrong with a confidence players are not asked to check).
`--dice` tells the reader each photo's labelled count, as the page does for a throw.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np
from reader_options import reader_options, reader_settings

from dicecam.commands.eval import read_labelled_counted
from dicecam.vision.dataset import LabelledPhoto, read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detections import CountedDice, Dice
from dicecam.vision.metrics import score_photo, total, unsure_counts
from dicecam.vision.photo_changes import CHANGES, Change
from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[1]

AS_TAKEN = "as taken"  # the photo unchanged: the baseline, not one of the changes
DEFAULT_SETS = tuple(ROOT.parent / "shared" / "datasets" / name for name in ("byler_d6", "matteop65_wood"))


def mended_by_one_swap(truth: Dice, counted: CountedDice) -> bool:
    """Whether a throw read told its count, not exactly, is read exactly once a player counts one
    of the dice left out (drawn grey; a tap on the page) and removes one of the dice taken."""
    if not len(counted.left_out) or score_photo(truth, counted.dice).exact:
        return False
    taken, left = counted.dice, counted.left_out
    for i, j in itertools.product(range(len(taken)), range(len(left))):
        keep = np.arange(len(taken)) != i
        swapped = Dice(np.concatenate([taken.boxes[keep], left.boxes[j:j + 1]]),
                       np.concatenate([taken.values[keep], left.values[j:j + 1]]),
                       np.concatenate([taken.confidences[keep], left.confidences[j:j + 1]]))
        if score_photo(truth, swapped).exact:
            return True
    return False


def changed_photo(photo: LabelledPhoto, image: np.ndarray, change: Change) -> tuple[np.ndarray, Dice]:
    """`photo` (its pixels `image`) changed by `change`, and its labels moved along."""
    changed, boxes = change(image, photo.dice.boxes)
    return changed, Dice(boxes, photo.dice.values, photo.dice.confidences)


def measure(reader: DiceReader, folder: Path, split: str | None,
            changes: list[str] | None = None, *, told: bool = False) -> dict[str, dict[str, float]]:
    """Read F1, exact-roll rate, recall, value accuracy, mistakes and silent ones of each change
    (default: all) over one folder (`told`: each photo read told its labelled count;
    `left_out`: how many photos held more dice than that, which the page says, and `one_swap`:
    how many throws read wrong one tap on a grey die and one removal mend)."""
    photos = [(p, load_image(p.path)) for p in read_dataset(folder, split=split)]
    out = {}
    for name in changes or CHANGES:
        change = CHANGES[name]
        scores, marked, left_out, swaps = [], 0, 0, 0
        for photo, image in photos:
            changed, truth = changed_photo(photo, image, change)
            # A single-die crop (chase_dji) is read whole, as `dicecam eval` reads it: searched
            # for dice like a photo, a 60 px crop shows none.
            counted = read_labelled_counted(reader, photo, changed, count=len(photo.dice) if told else None)
            found, left_out = counted.dice, left_out + bool(len(counted.left_out))
            swaps += told and mended_by_one_swap(truth, counted)
            scores.append(score_photo(truth, found))
            marked += unsure_counts(truth, found, reader.low_confidence)[0]
        s = total(scores)
        out[name] = {key: round(getattr(s, key), 4)
                     for key in ("read_f1", "exact_roll_rate", "recall", "value_accuracy")}
        out[name].update(mistakes=s.mistakes, silent=s.mistakes - marked)
        if told:
            out[name].update(left_out=left_out, one_swap=swaps)
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", nargs="*", type=Path, default=list(DEFAULT_SETS))
    p.add_argument("--split", default="dev")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting, e.g. zoom_below=0 (no closer look at small dice)")
    p.add_argument("--change", action="append", choices=list(CHANGES), metavar="NAME",
                   help="measure only this change (repeatable; default: all of them)")
    p.add_argument("--dice", action="store_true", help="tell the reader each photo's labelled count")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    reader = DiceReader(args.models, settings=reader_settings(reader_options(args.option)))
    results = {folder.name: measure(reader, folder, args.split, args.change, told=args.dice)
               for folder in args.datasets}
    if args.json:
        print(json.dumps(results))
        return
    for name, rows in results.items():
        told = ", told the count" if args.dice else ""
        more = " / photos with dice left out / wrong throws one swap mends" if args.dice else ""
        print(f"{name} ({args.split}{told}):  read F1 / exact-roll rate / recall / value accuracy / mistakes (silent)"
              + more)
        for change, r in rows.items():
            print(f"  {change:32s} {r['read_f1']:.4f}  {r['exact_roll_rate']:.3f}  "
                  f"{r['recall']:.3f}  {r['value_accuracy']:.3f}  {r['mistakes']:3d} ({r['silent']})"
                  + (f"  {r['left_out']}  {r['one_swap']}" if "left_out" in r else ""))
        changed = [r["read_f1"] for change, r in rows.items() if change != AS_TAKEN]
        if changed:
            print(f"  {f'mean over the {len(changed)} changes':32s} {sum(changed) / len(changed):.4f}")


if __name__ == "__main__":
    main()
