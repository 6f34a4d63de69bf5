"""The train photos where a models folder leaves a labelled die with no box at all, or
(`--misread`) reads one it keeps as the wrong value, or (`--dropped`) boxes one and drops
it by the reader's rules.

    python -m dicecam.training.data.unboxed models/ --out runs/unboxed.txt [--sets roboflow_dice]
    python -m dicecam.training.data.unboxed models/ --misread --out runs/misread.txt
    python -m dicecam.training.data.unboxed models/ --dropped --out runs/dropped.txt

The unboxed dice (red and yellow ones on a printed board, models/HISTORY.md session 34)
are missed on the photos the detector learned too, and so are some values (translucent
red 6s read 4, session 36). `train detector|reader --focus FILE` draws the listed photos
more often (`--focus-weight`). One line per photo: `SET/IMAGE`, as the training streams
name them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dicecam.training.data.photos import Sample, load_split
from dicecam.training.data.sources import DETECTOR_SETS

if TYPE_CHECKING:  # the reader loads only when a list is made
    from dicecam.vision.reader import DiceReader


def unboxed_photos(models: Path, sets: tuple[str, ...] = DETECTOR_SETS) -> list[str]:
    """`SET/IMAGE` of each train photo with a labelled die that no box of `models` pairs
    with (the datasets' matching rule), in the sets' order."""
    from dicecam.vision.metrics import match_boxes

    return _photos_where(models, sets, lambda reader, sample, truth:
                         len(match_boxes(truth, reader.candidates(sample.image).boxes)) < len(truth))


def misread_photos(models: Path, sets: tuple[str, ...] = DETECTOR_SETS) -> list[str]:
    """`SET/IMAGE` of each train photo where a die `models` keeps (and pairs with a labelled
    one by the datasets' matching rule) is read as another value than its label, sure or not."""
    from dicecam.vision.metrics import match_boxes

    def misread(reader: DiceReader, sample: Sample, truth: np.ndarray) -> bool:
        dice = reader.read(sample.image)
        return any(int(sample.values[t]) != int(dice.values[p]) for t, p in match_boxes(truth, dice.boxes))

    return _photos_where(models, sets, misread)


def dropped_photos(models: Path, sets: tuple[str, ...] = DETECTOR_SETS) -> list[str]:
    """`SET/IMAGE` of each train photo with a labelled die that a box of `models` pairs with
    but the reader's rules drop ("not a die", the whole-die check, its size, a weak peak)."""
    from dicecam.vision.candidates import filled
    from dicecam.vision.metrics import paired

    def dropped(reader: DiceReader, sample: Sample, truth: np.ndarray) -> bool:
        found = reader.candidates(sample.image)
        kept = filled(found.kept, "kept")
        return bool(np.any((paired(truth, found.boxes) >= 0) & (paired(truth, found.boxes[kept]) < 0)))

    return _photos_where(models, sets, dropped)


def _photos_where(models: Path, sets: tuple[str, ...],
                  fails: Callable[[DiceReader, Sample, np.ndarray], bool]) -> list[str]:
    """`SET/IMAGE` of each labelled train photo of `sets` where `fails(reader, photo, its
    labelled boxes)` holds for `models`' reader, in the sets' order."""
    from dicecam.vision.reader import DiceReader

    reader = DiceReader(models)
    names = []
    for name in sets:
        for sample in load_split(name, "train"):
            if sample.boxes is None or not len(sample.boxes):
                continue
            # The labels as the dataset draws them (whole dice where it boxes whole dice).
            truth = sample.die_boxes if sample.die_boxes is not None else sample.boxes
            if fails(reader, sample, truth):
                names.append(f"{name}/{sample.name}")
    return names


def read_focus(path: Path) -> frozenset[str]:
    """The `SET/IMAGE` names of a focus file (blank lines and `#` comments ignored)."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, help="the models folder whose boxes are looked at")
    p.add_argument("--out", type=Path, required=True, help="the focus file to write")
    p.add_argument("--sets", default=",".join(DETECTOR_SETS), help="comma-separated photo sets")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--misread", action="store_true",
                       help="list the photos where a kept die is read as another value instead")
    which.add_argument("--dropped", action="store_true",
                       help="list the photos where a boxed die is dropped by the reader's rules instead")
    args = p.parse_args(argv)
    sets = tuple(s for s in args.sets.split(",") if s)
    lister, what = ((misread_photos, "a die read as another value") if args.misread else
                    (dropped_photos, "a boxed die dropped") if args.dropped else
                    (unboxed_photos, "a die left unboxed"))
    names = lister(args.models, sets)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(f"{n}\n" for n in names), encoding="utf-8")
    print(f"{len(names)} train photos with {what} by {args.models} -> {args.out}")


if __name__ == "__main__":
    main()
