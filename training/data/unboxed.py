"""The train photos where a models folder leaves a labelled die with no box at all.

    python -m dicecam.training.data.unboxed models/ --out runs/unboxed.txt [--sets roboflow_dice]

Those dice (red and yellow ones on a printed board, models/HISTORY.md session 34) are
missed on the photos the detector learned too. `train detector --focus FILE` draws the
listed photos more often (`--focus-weight`). One line per photo: `SET/IMAGE`, as the
training streams name them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dicecam.training.data.photos import load_split
from dicecam.training.data.sources import DETECTOR_SETS


def unboxed_photos(models: Path, sets: tuple[str, ...] = DETECTOR_SETS) -> list[str]:
    """`SET/IMAGE` of each train photo with a labelled die that no box of `models` pairs
    with (the datasets' matching rule), in the sets' order."""
    from dicecam.vision.metrics import match_boxes
    from dicecam.vision.reader import DiceReader

    reader = DiceReader(models)
    names = []
    for name in sets:
        for sample in load_split(name, "train"):
            if sample.boxes is None or not len(sample.boxes):
                continue
            # The labels as the dataset draws them (whole dice where it boxes whole dice).
            truth = sample.die_boxes if sample.die_boxes is not None else sample.boxes
            found = reader.candidates(sample.image)
            if len(match_boxes(truth, found.boxes)) < len(truth):
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
    args = p.parse_args(argv)
    names = unboxed_photos(args.models, tuple(s for s in args.sets.split(",") if s))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(f"{n}\n" for n in names), encoding="utf-8")
    print(f"{len(names)} train photos with a die {args.models} leaves unboxed -> {args.out}")


if __name__ == "__main__":
    main()
