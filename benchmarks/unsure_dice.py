"""Why dice read with their throw's count are marked unsure, right ones and mistakes apart.

    python benchmarks/unsure_dice.py ../shared/datasets/roboflow_dice [--split train] [--max-dice N]
        [--models DIR] [--json]

Each photo is read as the page reads a throw, told its labelled count
(`DiceReader.counted`, then `select_counted`). Each die reported under the reader's
`low_confidence` goes under the first cause that holds (`CAUSES`): "fill" (a box the rules
dropped, taken to fill the count: at most 0.5 by design), "doubt" (the face reader's own
probability of its value, after its extra views), "weak peak" (that probability tempered by
a weak detector peak the whole-die check did not lift), "fit" (the confidence fit's cap),
else "ask" (a kept die left out was nearly as likely). Printed per cause: how many right
dice and how many mistakes (the datasets' scoring rule) it marks. The issue asks at most one
die in ten unsure, and fewer than one sure die in 200 wrong: a cause that marks three or four
right dice per mistake cannot simply be lifted.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
from missed_dice import dataset_parser

from dicecam.commands._dice import dice_number
from dicecam.training.calibrate import right_readings
from dicecam.vision.candidates import filled
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DiceReader

CAUSES = ("fill", "doubt", "weak peak", "fit", "ask")


def cause(*, kept: bool, held: float, tempered: float, capped: float, low: float) -> str:
    """Why a die reported under `low` is unsure: the first of `CAUSES` that holds, given
    whether the rules `kept` its box, the reader's `held` probability, that `tempered` by
    its peak, and that `capped` by the confidence fit."""
    if not kept:
        return "fill"
    for name, value in (("doubt", held), ("weak peak", tempered), ("fit", capped)):
        if value < low:
            return name
    return "ask"


def unsure_causes(reader: DiceReader, folder: Path, split: str, *,
                  max_dice: int | None = None) -> tuple[Counter[tuple[str, bool]], int]:
    """How many dice each cause marks unsure, by (cause, read right), over the whole photos
    of `folder`'s `split` (of at most `max_dice` labelled dice, None: any) read with their
    labelled count; and how many dice were reported."""
    marked: Counter[tuple[str, bool]] = Counter()
    reported = 0
    lift = reader.settings.whole_lifts_peak
    for photo in read_dataset(folder, split=None if split == "all" else split):
        if photo.crop or (max_dice is not None and len(photo.dice) > max_dice):
            continue
        image = load_image(photo.path)
        found = reader.counted(image, len(photo.dice))
        dice = reader.select_counted(found, len(photo.dice), image=image).dice
        reported += len(dice)
        if not len(dice):
            continue
        right, _ = right_readings(dice.boxes, dice.values, photo.dice.boxes, photo.dice.values,
                                  np.ones(len(photo.dice), bool))
        tempered = found.confidence(None, whole_lifts_peak=lift)
        capped = reader.confidence(found)
        kept, held = filled(found.kept, "kept"), filled(found.held, "held")
        for d in np.flatnonzero(dice.confidences < reader.low_confidence):
            row = int(np.flatnonzero((found.boxes == dice.boxes[d]).all(axis=1))[0])  # the die's own box
            why = cause(kept=bool(kept[row]), held=float(held[row]), tempered=float(tempered[row]),
                        capped=float(capped[row]), low=reader.low_confidence)
            marked[why, bool(right[d])] += 1
    return marked, reported


def main(argv: list[str] | None = None) -> None:
    parser = dataset_parser(__doc__)
    parser.add_argument("--max-dice", type=dice_number(1), default=None, metavar="N",
                        help="only the photos of at most N labelled dice (a throw shows at most six)")
    args = parser.parse_args(argv)
    marked, reported = unsure_causes(DiceReader(args.models), args.dataset, args.split, max_dice=args.max_dice)
    rows = {why: {"right": marked[why, True], "mistakes": marked[why, False]} for why in CAUSES}
    unsure = sum(marked.values())
    if args.json:
        print(json.dumps({"dice": reported, "unsure": unsure, "causes": rows}))
        return
    only = f", photos of at most {args.max_dice} dice" if args.max_dice is not None else ""
    print(f"{args.dataset.name} ({args.split}{only}), told the count: {unsure} of {reported} dice unsure")
    print(f"  {'cause':10s} {'right':>6s} {'mistakes':>9s}")
    for why, row in rows.items():
        print(f"  {why:10s} {row['right']:6d} {row['mistakes']:9d}")


if __name__ == "__main__":
    main()
