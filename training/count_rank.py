"""Fit how a known count ranks its boxes (`vision.count_rank`) for the networks in a models folder.

    python -m dicecam.training.count_rank models/ [--dataset ../shared/datasets/roboflow_dice] [--split train]

Writes count_rank.json into the folder. Reads every photo of the split told its labelled
count, as a throw at the table is read, with the folder's networks and without a ranking
fit (photos with dice nobody labelled left out: those dice would count as boxes read
wrong), and fits by logistic regression whether each box the count chooses from is a labelled
die read right (paired by the datasets' scoring rule). Run it again whenever a network or
the reader's rules change: the fit belongs to them. Never fit it on a split it is judged on.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import numpy as np

from dicecam.training.calibrate import fit_logistic
from dicecam.training.data.photos import UNLABELLED_DICE
from dicecam.vision.candidates import Candidates
from dicecam.vision.count_rank import COUNT_RANK_FILE, MAX_THROW, CountRankFit, rank_features
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes

#: Weight decay: keeps the fit near zero where a feature barely helps (chosen in the
#: session-55 screen, 5-fold on roboflow train).
L2 = 1.0


def right_boxes(found: Candidates, boxes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Which boxes of judged `found` pair (scoring rule) with a labelled die of their value."""
    right = np.zeros(len(found), bool)
    if len(found):
        for t, p in match_boxes(boxes, found.boxes):
            right[p] = values[t] == found.values[p]
    return right


def fit_count_rank(features: np.ndarray, right: np.ndarray, *, l2: float = L2) -> CountRankFit:
    """The fit of P(right) over `rank_features` rows."""
    return CountRankFit(tuple(float(w) for w in fit_logistic(features, right, l2=l2)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, help="models folder: its networks read, the fit is written there")
    p.add_argument("--dataset", type=Path, default=Path("../shared/datasets/roboflow_dice"))
    p.add_argument("--split", default="train")
    args = p.parse_args(argv)
    from dicecam.vision.reader import DiceReader

    reader = DiceReader(args.models, count_rank=False)
    rows, labels, photos = [], [], 0
    unlabelled = UNLABELLED_DICE.get(args.dataset.name, ())
    for photo in read_dataset(args.dataset, split=args.split):
        if any(name in photo.image for name in unlabelled) or len(photo.dice) > MAX_THROW:
            continue
        found = reader.counted(load_image(photo.path), len(photo.dice))
        if not len(found):
            continue
        photos += 1
        rows.append(rank_features(found, reader.likelihood(found)))
        labels.append(right_boxes(found, photo.dice.boxes, photo.dice.values))
    x, y = np.concatenate(rows), np.concatenate(labels)
    fit = fit_count_rank(x, y)
    networks = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in sorted(args.models.glob("*.onnx"))}
    out = args.models / COUNT_RANK_FILE
    out.write_text(fit.to_json(dataset=args.dataset.name, split=args.split, photos=photos, boxes=len(y),
                               right=int(y.sum()), l2=L2, networks=networks,
                               made_by="python -m dicecam.training.count_rank"), encoding="utf-8")
    print(f"{out}: {photos} photos, {len(y)} boxes ({int(y.sum())} right dice)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
