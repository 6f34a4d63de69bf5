"""A set's photos enlarged to a phone photo's size: how they read, and how long each takes.

    python benchmarks/phone_sized.py ../shared/datasets/roboflow_dice [--split dev] [--side 1600]
        [--dice] [--reads 0] [--models DIR] [--option NAME=VALUE ...] [--vs-option NAME=VALUE ...] [--json]

The shared sets' photos are 640 px or less; the page uploads photos of about 2,000 px, which
the reader looks at in part at their own size (its first look is at most `max_side` wide, but
a photo over `free_look_side` gets no look at its own size, and a Catan pair's small dice are
smaller still at the first look). This enlarges each photo of the split (bicubic) so its long
side is `--side` px, scales its labels alike, and reads it as the page would (told its labelled
count with `--dice`). Printed: read F1, exact throws, dice reported sure and wrong, dice
marked unsure. With `--vs-option` a second reader (the same networks, that setting changed)
reads each enlarged photo too; with `--reads N` both readers are timed on each photo (the
fastest of N reads, the two in turn, as `photo_times.py` does): median, slowest, photos over
50 ms, and the median of the paired differences.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import cv2
import numpy as np
from photo_times import BUDGET_MS, fastest_each
from reader_options import reader_options, reader_settings

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detections import UNSURE_BELOW, Dice
from dicecam.vision.metrics import Score, score_photo, unsure_counts
from dicecam.vision.reader import DiceReader


def enlarged(image: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """`image` scaled so its long side is `side` px (bicubic up, area down), and the factor."""
    factor = side / max(image.shape[:2])
    interpolation = cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=interpolation), factor


class Tally:
    """One reader's figures over the enlarged photos."""

    def __init__(self) -> None:
        self.score, self.sure_wrong, self.unsure = Score(), 0, 0
        self.ms: list[float] = []

    def add(self, truth: Dice, read: Dice) -> None:
        score = score_photo(truth, read)
        marked_wrong, marked_right = unsure_counts(truth, read, UNSURE_BELOW)
        self.score += score
        self.sure_wrong += score.mistakes - marked_wrong
        self.unsure += marked_wrong + marked_right

    def to_dict(self) -> dict:
        s = self.score
        out = {"photos": s.photos, "read_f1": round(s.read_f1, 4), "exact": s.exact, "predicted": s.predicted,
               "sure_wrong": self.sure_wrong, "unsure": self.unsure}
        if self.ms:
            ms = np.array(self.ms)
            out |= {"median_ms": round(float(np.median(ms)), 1), "max_ms": round(float(ms.max()), 1),
                    "over_budget": int((ms > BUDGET_MS).sum())}
        return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", default="dev", help="which split (default: dev; 'all' for every photo)")
    p.add_argument("--side", type=int, default=1600, help="the enlarged photo's long side in px (default 1600)")
    p.add_argument("--dice", action="store_true", help="tell the reader each photo's labelled count")
    p.add_argument("--reads", type=int, default=0, help="time each photo: the fastest of N reads (0: no timing)")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--vs-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a candidate setting, read (and timed) in turn with the reader without it")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.side < 16 or args.reads < 0:
        p.error("--side is a photo's long side (16 px or more) and --reads 0 or more")
    try:
        settings = reader_settings(reader_options(args.option))
        vs_settings = settings.but(**reader_options(args.vs_option)) if args.vs_option else None
    except ValueError as err:
        p.error(str(err))
    readers = [DiceReader(args.models, threads=2, settings=settings)]
    if vs_settings is not None:
        readers.append(DiceReader(args.models, threads=2, settings=vs_settings))
    tallies = [Tally() for _ in readers]
    for photo in read_dataset(args.dataset, split=None if args.split == "all" else args.split):
        if photo.crop:
            continue
        image, factor = enlarged(load_image(photo.path), args.side)
        truth = Dice(photo.dice.boxes * factor, photo.dice.values, photo.dice.confidences)
        count = len(truth) if args.dice else None
        for reader, tally in zip(readers, tallies):
            tally.add(truth, reader.read(image, count=count))
        if args.reads:
            for tally, ms in zip(tallies, fastest_each([partial(r.read, image, count=count) for r in readers],
                                                       args.reads)):
                tally.ms.append(ms)
    rows: dict[str, object] = {"as set": tallies[0].to_dict()}
    if len(tallies) > 1:
        rows[" ".join(args.vs_option)] = tallies[1].to_dict()
        if args.reads:
            rows["median_diff_ms"] = round(float(np.median(np.subtract(tallies[1].ms, tallies[0].ms))), 2)
    if args.json:
        print(json.dumps({"dataset": str(args.dataset), "split": args.split, "side": args.side,
                          "dice": args.dice, **rows}))
        return
    told = "told each photo's count" if args.dice else "without a count"
    print(f"{args.dataset.name} ({args.split}) enlarged to {args.side} px, {told}:")
    for name, row in rows.items():
        print(f"  {name}: {row}")


if __name__ == "__main__":
    main()
