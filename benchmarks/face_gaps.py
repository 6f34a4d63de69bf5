"""How far down its whole die each kept face lies, for dice read right, misread, and extra.

    python benchmarks/face_gaps.py [DATASET_DIR] [--split dev] [--models DIR] [--oracle]
                                   [--drops 0.2,0.25,0.3,0.35] [--json]

A die seen low shows its top face as a band at the top of the die and its front face
under it; a face found far down its die is that front face, whose pips are not the
throw. A face's gap is (its top - its die's top) / the die's height
(`vision.boxes.drops_on_die`). With `--oracle` the die is the labelled whole die (as
`roboflow_dice` boxes them) nearest the face's centre among those holding it, and the
faces are matched to labels the same way; without it the die is the one the detector
gives (a detector with the whole-die edge branch, read with `max_face_drop` set so it
reports them) and faces are matched by the datasets' scoring rule. For each drop, the
kept faces lying lower than that are counted by kind (and how many were sure): a rule
that drops them is worth having only where they are mostly misreads. models/HISTORY.md
(session 29) holds the figures.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from dicecam.vision.boxes import drops_on_die, holding_die, whole_die_of
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes
from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SET = ROOT.parent / "shared" / "datasets" / "roboflow_dice"
KINDS = ("right", "misread", "extra")


def tally(rows: Iterable[tuple[str, float, bool]], drops: Iterable[float]) -> dict[str, dict[str, dict[str, int]]]:
    """For each drop, the faces (kind, gap, sure) lying lower than it, by kind: all and sure."""
    rows = list(rows)
    return {f"{d:g}": {kind: {"faces": sum(1 for k, g, _ in rows if k == kind and g > d),
                              "sure": sum(1 for k, g, s in rows if k == kind and g > d and s)}
                       for kind in KINDS}
            for d in drops}


def photo_rows(reader: DiceReader, image: np.ndarray, boxes: np.ndarray, values: np.ndarray, *,
               oracle: bool) -> list[tuple[str, float, bool]]:
    """(kind, gap, sure) of each kept face of one labelled photo; faces on no die are left out."""
    found = reader.candidates(image)
    kept = found.take(np.asarray(found.kept, bool)) if len(found) else found
    if not len(kept):
        return []
    sure = reader.confidence(kept) >= reader.low_confidence
    read = np.asarray(kept.values)
    if oracle:
        at = holding_die(kept.boxes, boxes)
        dies = whole_die_of(kept.boxes, boxes)
        label = {i: int(j) for i, j in enumerate(at) if j >= 0}
    else:
        if kept.die_boxes is None:
            raise ValueError("these models give no whole dice: use a detector with the edge branch, or --oracle")
        dies = kept.die_boxes
        label = {int(b): int(a) for a, b in match_boxes(boxes, kept.boxes)} if len(boxes) else {}
    gaps = drops_on_die(kept.boxes, dies)
    rows = []
    for i, gap in enumerate(gaps):
        if np.isnan(gap):
            continue
        kind = "extra" if i not in label else ("right" if int(read[i]) == int(values[label[i]]) else "misread")
        rows.append((kind, float(gap), bool(sure[i])))
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_SET, metavar="DATASET_DIR")
    p.add_argument("--split", default="dev", help="train or dev (default: dev)")
    p.add_argument("--models", type=Path, help="folder with the ONNX models (default: the shipped ones)")
    p.add_argument("--oracle", action="store_true", help="the labelled boxes are the whole dice")
    p.add_argument("--drops", default="0.2,0.25,0.3,0.35", help="gaps to count faces under (comma-separated)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    drops = [float(d) for d in args.drops.split(",")]
    # The setting only makes an edge detector report each face's die; nothing is dropped at 99.
    reader = DiceReader(args.models, max_face_drop=None if args.oracle else 99.0)
    rows: list[tuple[str, float, bool]] = []
    for photo in read_dataset(args.dataset, split=args.split):
        if photo.dice.boxes is None:
            continue
        rows += photo_rows(reader, load_image(photo.path), photo.dice.boxes, photo.dice.values, oracle=args.oracle)
    counts = {kind: sum(1 for k, _, _ in rows if k == kind) for kind in KINDS}
    lower = tally(rows, drops)
    if args.json:
        print(json.dumps({"faces": counts, "lower_than": lower}))
        return
    print(f"kept faces on a die: {counts}")
    print("| gap over | " + " | ".join(f"{k} (sure)" for k in KINDS) + " |")
    print("|---|" + "---|" * len(KINDS))
    for d, row in lower.items():
        print(f"| {d} | " + " | ".join(f"{row[k]['faces']} ({row[k]['sure']})" for k in KINDS) + " |")


if __name__ == "__main__":
    main()
