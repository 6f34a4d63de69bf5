"""Which labelled dice two models folders read differently: the dice a candidate wins and loses.

    python benchmarks/dice_diff.py ../shared/datasets/byler_d6 --against runs/candidate [--models DIR]
        [--split dev] [--dice] [--json]

Both readers read every photo of the split (told its labelled count with `--dice`, as the
page reads a throw). A labelled die is "right" for a reader when a box it keeps pairs with
it (the datasets' scoring rule, `vision.metrics.match_boxes`) and reads its value. Listed:
each die one reader reads right and the other does not, with both readings and how sure
each was, and how many of them each reader was sure of. A candidate that loses two dice
every reader reads at 0.3-0.45 differs from one that loses dice read surely, though both
cost the same read F1.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from missed_dice import dataset_parser
from paired import COUNTED, counts

from dicecam.commands.eval import read_labelled
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import match_boxes, score_photo
from dicecam.vision.reader import DiceReader


@dataclass(frozen=True)
class Reading:
    """What one reader made of one labelled die: its value and confidence, or None for both (no box)."""

    value: int | None
    confidence: float | None


@dataclass(frozen=True)
class Change:
    """A labelled die that one reader reads right and the other does not."""

    photo: str
    label: int
    value: int
    before: Reading
    after: Reading

    @property
    def won(self) -> bool:
        """Whether the candidate (after) is the one that reads it right."""
        return self.after.value == self.value


def readings(truth: Dice, read: Dice) -> list[Reading]:
    """For each labelled die of `truth`, what `read` made of it."""
    out = [Reading(None, None)] * len(truth)
    for t, p in match_boxes(truth.boxes, read.boxes):
        out[t] = Reading(int(read.values[p]), round(float(read.confidences[p]), 3))
    return out


def changes(photo: str, truth: Dice, before: Dice, after: Dice) -> list[Change]:
    """The labelled dice of one photo that exactly one of the two readings reads right."""
    out = []
    for t, (b, a) in enumerate(zip(readings(truth, before), readings(truth, after))):
        value = int(truth.values[t])
        if (b.value == value) != (a.value == value):
            out.append(Change(photo, t, value, b, a))
    return out


def diff(before: DiceReader, after: DiceReader, folder: Path, split: str, *, count: bool) -> list[Change]:
    """Every labelled die of `folder`'s `split` that the two readers do not both read right or both wrong."""
    return compared(before, after, folder, split, count=count)[0]


def compared(before: DiceReader, after: DiceReader, folder: Path, split: str, *,
             count: bool) -> tuple[list[Change], np.ndarray, np.ndarray]:
    """`diff`'s dice, and for each reader its counts per photo (photos, 3: labelled,
    predicted and right dice, `paired.COUNTED`), from one reading of each photo."""
    out: list[Change] = []
    rows: tuple[list[list[int]], list[list[int]]] = ([], [])
    for photo in read_dataset(folder, split=None if split == "all" else split):
        image = load_image(photo.path)
        n = len(photo.dice) if count else None
        # As `dicecam eval` reads it: a single-die crop whole, a photo told its count where asked.
        reads = read_labelled(before, photo, image, count=n), read_labelled(after, photo, image, count=n)
        out += changes(photo.image, photo.dice, *reads)
        for k, read in enumerate(reads):
            rows[k].append(counts(score_photo(photo.dice, read)))
    first, second = (np.array(r, np.int64).reshape(-1, len(COUNTED)) for r in rows)
    return out, first, second


def summary(found: list[Change], *, low_confidence: float) -> dict[str, int]:
    """How many dice the candidate wins and loses, and of those how many the reader that
    reads them right was sure of (a sure die lost weighs more than a coin flip)."""
    won = [c for c in found if c.won]
    lost = [c for c in found if not c.won]
    return {"won": len(won), "won_sure": sum((c.after.confidence or 0) >= low_confidence for c in won),
            "lost": len(lost), "lost_sure": sum((c.before.confidence or 0) >= low_confidence for c in lost)}


def main(argv: list[str] | None = None) -> None:
    p = dataset_parser(__doc__)
    p.add_argument("--against", type=Path, required=True, help="the candidate's models folder")
    p.add_argument("--dice", action="store_true", help="tell both readers each photo's labelled count")
    args = p.parse_args(argv)
    before, after = DiceReader(args.models), DiceReader(args.against)
    found = diff(before, after, args.dataset, args.split, count=args.dice)
    totals = summary(found, low_confidence=before.low_confidence)
    if args.json:
        print(json.dumps({"summary": totals, "dice": [asdict(c) | {"won": c.won} for c in found]}))
        return
    told = ", told the count" if args.dice else ""
    print(f"{args.dataset.name} ({args.split}{told}): {totals['won']} dice won ({totals['won_sure']} sure), "
          f"{totals['lost']} lost ({totals['lost_sure']} were sure)")
    for c in found:
        print(f"  {'won ' if c.won else 'lost'} {c.photo} die {c.label} ({c.value}): "
              f"{_said(c.before)} -> {_said(c.after)}")


def _said(r: Reading) -> str:
    return "no box" if r.value is None else f"{r.value} at {r.confidence:.2f}"


if __name__ == "__main__":
    main()
