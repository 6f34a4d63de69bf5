"""`dicecam eval DATASET_DIR [--split dev] [--dice] [--misses DIR] [--json]`: score the model on labelled photos.

Scores by the shared datasets' rule (see `vision.metrics`). For single-die crops
(labels with `box: null`) the whole crop is the die: the reader classifies the
whole image, and its die is placed over the whole crop, so only the value counts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from dicecam.commands._dice import dice_number

if TYPE_CHECKING:  # the models load only when a command runs
    import numpy as np

    from dicecam.vision.dataset import LabelledPhoto
    from dicecam.vision.detections import CountedDice, Dice
    from dicecam.vision.reader import DiceReader


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="score the dice reader on a labelled photo folder",
        description=(
            "Read every photo of a folder in the shared dataset format (labels.jsonl) and "
            "print recall, precision, value accuracy, read F1 and exact-roll rate."
        ),
    )
    parser.add_argument("dataset", metavar="DATASET_DIR", type=Path, help="folder holding labels.jsonl")
    parser.add_argument("--split", default="dev", help="which split to score (default: dev; 'all' for every row)")
    parser.add_argument("--dice", action="store_true",
                        help="tell the reader how many dice each photo shows (its labelled count), "
                             "as the page does for a throw")
    parser.add_argument("--max-dice", metavar="N", type=dice_number(1),
                        help="score only the photos of at most N labelled dice (a throw at the table "
                             "shows at most six; heaps of dice are not throws)")
    parser.add_argument("--misses", metavar="DIR", type=Path,
                        help="write each photo not read exactly, with its mistakes drawn on, into DIR")
    parser.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    parser.add_argument("--models", metavar="DIR", type=Path,
                        help="folder with the ONNX models (default: $DICECAM_MODELS, else the shipped ones)")
    parser.add_argument("--corrections", metavar="FILE", type=Path,
                        help="score against labels corrected where the photo shows otherwise (JSON Lines, "
                             "e.g. benchmarks/label_faults.jsonl; see vision.corrections)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="read with this reader setting changed (repeatable; vision.settings.ReaderSettings), "
                             "e.g. --option zoom_margin=inf")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dicecam.commands._model import load_reader
    from dicecam.vision.corrections import corrected, read_corrections
    from dicecam.vision.dataset import DatasetError, read_dataset
    from dicecam.vision.decode import ImageError, load_image
    from dicecam.vision.detections import Dice
    from dicecam.vision.metrics import match_boxes, score_photo, silent_throw, total, unsure_counts

    try:
        photos = read_dataset(args.dataset, split=None if args.split == "all" else args.split)
        applied = 0
        if args.corrections is not None:
            # A folder is known by its name, as the shared sets are (byler_d6, ...).
            photos, applied = corrected(photos, read_corrections(args.corrections), args.dataset.resolve().name)
    except DatasetError as exc:
        print(f"dicecam: {exc}", file=sys.stderr)
        return 2
    if args.max_dice is not None:
        photos = [p for p in photos if len(p.dice) <= args.max_dice]
        if not photos:
            print(f"dicecam: no photo of {args.dataset} (split {args.split}) shows at most "
                  f"{args.max_dice} labelled dice", file=sys.stderr)
            return 2
    if args.misses is not None:
        try:
            args.misses.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"dicecam: cannot create {args.misses}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    from dicecam.vision.settings import SettingError, parse_options

    try:
        changes = parse_options(args.option)
    except SettingError as exc:
        print(f"dicecam: {exc}", file=sys.stderr)
        return 2
    reader = load_reader(args.models, **changes)
    if reader is None:
        return 1

    from dicecam.commands._progress import for_command

    progress = for_command(args.json)
    scores, unreadable, misses, seconds = [], 0, [], 0.0
    unsure = [0, 0]  # mistakes, right dice marked unsure
    silent_throws = 0  # photos read wrong with no die marked unsure
    left_out = [0, 0]  # told the count: photos with dice seen beyond it; of the silent throws, those among them
    for i, photo in enumerate(photos):
        progress.update(f"reading {photo.image}", i, len(photos))
        image: np.ndarray | None
        try:
            image = load_image(photo.path)
        except ImageError as exc:
            progress.clear()
            print(f"dicecam: {photo.image}: {exc}", file=sys.stderr)
            unreadable += 1
            image, predicted, beyond = None, Dice.empty(), 0
        else:
            start = time.perf_counter()
            counted = read_labelled_counted(reader, photo, image, count=len(photo.dice) if args.dice else None)
            predicted, beyond = counted.dice, len(counted.left_out)
            seconds += time.perf_counter() - start
        score = score_photo(photo.dice, predicted)
        scores.append(score)
        unsure = [a + b for a, b in zip(unsure, unsure_counts(photo.dice, predicted, reader.low_confidence))]
        silent = silent_throw(photo.dice, predicted, reader.low_confidence,
                              count=len(photo.dice) if args.dice else None)
        silent_throws += silent
        # The page says when a photo holds more dice than its throw: such a throw is asked about.
        left_out = [left_out[0] + (beyond > 0), left_out[1] + (silent and beyond > 0)]
        if not score.exact:
            misses.append(_miss_record(photo, predicted))
            if args.misses is not None and image is not None:
                pairs = match_boxes(photo.dice.boxes, predicted.boxes)
                _write_miss(args.misses, photo, image, predicted, pairs, reader.low_confidence)

    progress.clear()
    result = total(scores)
    read_ms = 1000 * seconds / max(1, len(photos) - unreadable)
    if args.json:
        print(json.dumps({"dataset": str(args.dataset), "split": args.split, "count_given": args.dice,
                          "max_dice": args.max_dice,
                          **result.to_dict(),
                          "mistakes_unsure": unsure[0], "right_unsure": unsure[1],
                          "silent_mistakes": result.mistakes - unsure[0],
                          "silent_per_sure_die": round((result.mistakes - unsure[0])
                                                       / max(1, result.predicted - unsure[0] - unsure[1]), 4),
                          "unsure_share": round((unsure[0] + unsure[1]) / max(1, result.predicted), 4),
                          "silent_throws": silent_throws,
                          "silent_throw_rate": round(silent_throws / max(1, result.photos), 4),
                          **({"throws_with_dice_left_out": left_out[0], "silent_throws_left_out": left_out[1]}
                             if args.dice else {}),
                          "labels_corrected": applied,
                          "unreadable": unreadable, "ms_per_photo": round(read_ms, 1)}))
    else:
        _print_table(args, result, unsure, silent_throws, reader.low_confidence, unreadable, read_ms, left_out)
        if args.corrections is not None:
            print(f"  scored against {applied} label(s) corrected by {args.corrections}")
    if args.misses is not None:
        _write_miss_list(args.misses, misses)
    return 2 if unreadable else 0


def read_labelled(reader: DiceReader, photo: LabelledPhoto, image: np.ndarray, *, count: int | None = None) -> Dice:
    """The reader's dice for one labelled photo (told `count` when given); a single-die crop
    is read whole (see above)."""
    from dicecam.vision.detections import Dice

    if not photo.crop:
        return reader.read(image, count=count)
    import numpy as np

    die = reader.read_crop(image)
    h, w = image.shape[:2]
    return Dice(np.array([[0, 0, w, h]], np.float32), np.array([die.value]), np.array([die.confidence], np.float32))


def read_labelled_counted(reader: DiceReader, photo: LabelledPhoto, image: np.ndarray, *,
                          count: int | None = None) -> CountedDice:
    """`read_labelled` and, told a `count`, the dice a photo showed beyond it (none for a crop)."""
    from dicecam.vision.detections import CountedDice

    if count is not None and not photo.crop:
        return reader.read_counted(image, count)
    return CountedDice(read_labelled(reader, photo, image, count=count))


def _print_table(args: argparse.Namespace, s, unsure, silent_throws: int, low_confidence: float,
                 unreadable: int, read_ms: float, left_out: list[int]) -> None:
    told = ", told each photo's count of dice" if args.dice else ""
    told += f", photos of at most {args.max_dice} dice" if args.max_dice is not None else ""
    print(f"{args.dataset} (split {args.split}{told}): {s.photos} photos, "
          f"{s.labelled} dice labelled, {s.predicted} found, {s.matched} matched, {s.right} read right")
    rows = [
        ("recall", s.recall, f"{s.matched}/{s.labelled}"),
        ("precision", s.precision, f"{s.matched}/{s.predicted}"),
        ("value accuracy", s.value_accuracy, f"{s.right}/{s.matched}"),
        ("read F1", s.read_f1, ""),
        ("exact-roll rate", s.exact_roll_rate, f"{s.exact}/{s.photos}"),
    ]
    for name, value, detail in rows:
        print(f"  {name:<16}{value:.4f}  {detail}".rstrip())
    # Players check dice marked unsure: what matters is how many mistakes stay silent.
    print(f"  {'marked unsure':<16}{unsure[0]}/{s.mistakes} mistakes, "
          f"{unsure[1]}/{s.right} right dice (confidence under {low_confidence}); "
          f"{(unsure[0] + unsure[1]) / max(1, s.predicted):.1%} of the dice found")
    silent, sure = s.mistakes - unsure[0], s.predicted - unsure[0] - unsure[1]
    print(f"  {'silent mistakes':<16}{silent} of the {sure} dice reported sure are wrong ({silent / max(1, sure):.2%})")
    # Per throw: a wrong reading with no die marked unsure goes on the sheet unchecked.
    print(f"  {'silent throws':<16}{silent_throws} of the {s.photos - s.exact} photos read wrong have "
          f"no die marked unsure ({silent_throws / max(1, s.photos):.1%} of all photos)")
    if args.dice:
        print(f"  {'dice left out':<16}{left_out[0]} photos hold more dice than their count (the page says so); "
              f"{left_out[1]} of the silent throws among them")
    print(f"  {'time per photo':<16}{read_ms:.1f} ms (recognition only)")
    if unreadable:
        print(f"  {unreadable} photo(s) could not be read and count as read wrong")


def _miss_record(photo, predicted) -> dict:
    return {
        "image": photo.image,
        "labelled": photo.dice.to_list() if not photo.crop else [{"value": int(photo.dice.values[0]), "box": None}],
        "predicted": predicted.to_list(),
    }


def _annotated_name(image: str) -> str:
    # Keep the dataset's sub-folders in the name so that files never collide.
    return image.replace("/", "__").rsplit(".", 1)[0] + ".miss.jpg"


def _write_miss(folder: Path, photo, image, predicted, pairs, low_confidence: float) -> None:
    import cv2

    from dicecam.vision.annotate import annotate_misses

    if photo.crop:
        # Crops are tiny (about 60 px): enlarge so the label can be read.
        factor = max(1, 240 // max(1, min(image.shape[:2])))
        image = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_NEAREST)
        predicted, labelled = predicted.scaled(factor), photo.dice.scaled(factor)
    else:
        labelled = photo.dice
    drawn = annotate_misses(image, predicted, labelled, pairs, low_confidence=low_confidence)
    cv2.imwrite(str(folder / _annotated_name(photo.image)), drawn, [cv2.IMWRITE_JPEG_QUALITY, 90])


def _write_miss_list(folder: Path, misses: list[dict]) -> None:
    with (folder / "misses.jsonl").open("w", encoding="utf-8") as out:
        for record in misses:
            out.write(json.dumps(record) + "\n")
