"""Train photos read out of fold: each fold by a models folder whose second opinion never learned it.

    python benchmarks/fold_reads.py --fold 0=runs/dom0 --fold 1=runs/dom1 ... [DATASET_DIR ...]
        [--change NAME ...] [--option NAME=VALUE ...] [--json]

Dev is 132 roboflow throws: one throw moved by luck can decide a candidate (C382). A second
opinion trained with `--holdout-fold K` (`training.learn.domino_check`) has never seen fold K's
train photos (`throw_boxes.fold_of`: a source photo's copies share a fold), so those photos
judge it as dev does, and the five folds together are about ten times dev. Each `--fold
K=DIR` reads fold K's train photos (whole photos with dice) with DIR's networks, told the
labelled count and without, as taken and with each `--change` (`vision.photo_changes`,
default: white and dark dominoes beside the dice). Printed per set and over all, summed over
the folds: photos, exact throws, read F1, mistakes and the silent ones among them (read
wrong and not marked unsure). `--option` reads every fold with a reader setting changed, to choose
a second opinion's line on photos it never learned (C436).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from reader_options import reader_options, reader_settings
from robustness import AS_TAKEN, changed_photo

from dicecam.commands.eval import read_labelled_counted
from dicecam.training.data.throw_boxes import fold_of
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import Score, score_photo, unsure_counts
from dicecam.vision.photo_changes import CHANGES
from dicecam.vision.reader import DiceReader
from dicecam.vision.settings import ReaderSettings

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SETS = tuple(ROOT.parent / "shared" / "datasets" / name
                     for name in ("byler_d6", "matteop65_wood", "roboflow_dice"))
DEFAULT_CHANGES = ("dominoes beside the dice", "dark dominoes beside the dice")
MODES = ("told", "free")


@dataclasses.dataclass(frozen=True)
class Tally:
    """A part's score (`vision.metrics.Score` counts) and its mistakes not marked unsure."""

    score: Score = dataclasses.field(default_factory=Score)
    silent: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.score + other.score, self.silent + other.silent)

    def row(self) -> dict[str, float]:
        s = self.score
        return {"photos": s.photos, "exact": s.exact, "read_f1": round(s.read_f1, 4),
                "mistakes": s.mistakes, "silent": self.silent}


def parse_fold(spec: str) -> tuple[int, Path]:
    """`K=DIR` as (K, DIR); `ValueError` saying what is expected."""
    fold, sep, folder = spec.partition("=")
    if not sep or not fold.strip().isdigit() or not folder:
        raise ValueError(f"--fold wants K=DIR (a fold number and a models folder), not {spec!r}")
    return int(fold), Path(folder)


def read_fold(reader: DiceReader, folder: Path, fold: int, changes: tuple[str, ...]) -> dict[tuple[str, str], Tally]:
    """Fold `fold`'s train photos of one dataset, read by `reader` told and free, as taken and
    with each change: (condition, mode) -> tally."""
    photos = [p for p in read_dataset(folder, split="train")
              if not p.crop and len(p.dice) and fold_of(p.image) == fold]
    out: dict[tuple[str, str], Tally] = {}
    for photo in photos:
        image = load_image(photo.path)
        for condition in (AS_TAKEN, *changes):
            changed, truth = changed_photo(photo, image, CHANGES[condition])
            for mode in MODES:
                count = len(photo.dice) if mode == "told" else None
                found = read_labelled_counted(reader, photo, changed, count=count).dice
                score = score_photo(truth, found)
                marked = unsure_counts(truth, found, reader.low_confidence)[0]
                key = (condition, mode)
                out[key] = out.get(key, Tally()) + Tally(score, score.mistakes - marked)
    return out


def measure(folds: dict[int, Path], datasets: list[Path], changes: tuple[str, ...] = DEFAULT_CHANGES,
            settings: ReaderSettings | None = None) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
    """Set (and "all") -> condition -> mode -> summed counts, each fold read by its own models
    (with `settings`, default the reader's)."""
    sums: dict[tuple[str, str, str], Tally] = {}
    for fold, models in sorted(folds.items()):
        reader = DiceReader(models, settings=settings)
        for folder in datasets:
            for (condition, mode), tally in read_fold(reader, folder, fold, changes).items():
                for name in (folder.name, "all"):
                    key = (name, condition, mode)
                    sums[key] = sums.get(key, Tally()) + tally
    out: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for (name, condition, mode), tally in sums.items():
        out.setdefault(name, {}).setdefault(condition, {})[mode] = tally.row()
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", nargs="*", type=Path, default=list(DEFAULT_SETS))
    p.add_argument("--fold", action="append", required=True, metavar="K=DIR",
                   help="read fold K's train photos with the models in DIR (repeatable)")
    p.add_argument("--change", action="append", choices=list(CHANGES), metavar="NAME",
                   help=f"a photo change to read too (repeatable; default: {', '.join(DEFAULT_CHANGES)})")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting every fold is read with, e.g. chip_drops=0.9 (repeatable)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        folds = dict(parse_fold(spec) for spec in args.fold)
        settings = reader_settings(reader_options(args.option))
    except ValueError as err:
        p.error(str(err))
    results = measure(folds, args.datasets, tuple(args.change or DEFAULT_CHANGES), settings)
    if args.json:
        print(json.dumps(results))
        return
    print(f"train photos of folds {sorted(folds)}, each read by its own models: "
          "photos / exact / read F1 / mistakes (silent)")
    for name, conditions in results.items():
        print(name)
        for condition, modes in conditions.items():
            for mode, r in modes.items():
                print(f"  {condition:32s} {mode:5s} {r['photos']:5d} {r['exact']:5d}  {r['read_f1']:.4f}"
                      f"  {r['mistakes']:5d} ({r['silent']})")


if __name__ == "__main__":
    main()
