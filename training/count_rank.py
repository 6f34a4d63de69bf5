"""Fit how a known count ranks its boxes (`vision.count_rank`) for the networks in a models folder.

    python -m dicecam.training.count_rank models/ [--dataset ../shared/datasets/roboflow_dice]
        [--split train] [--scenes 1000] [--seeds 63,64] [--clutter 1.0]

Writes count_rank.json into the folder. Reads every photo of the split told its labelled
count, as a throw at the table is read, with the folder's networks and without a ranking
fit (photos with dice nobody labelled left out), and as many rendered throws of training
seeds (half upright, half turned any way; `--clutter` of them on a cluttered game table),
and fits by logistic regression whether each box the count chooses from is a die read right
(paired by the datasets' scoring rule; boxes on a rendered die marked unreadable left out).
The rendered clutter shows what the real photos lack (dominoes, numeral dice): fitted on the
photos alone, a plainly read domino outranked real dice. Run it again whenever a network or
the reader's rules change: the fit belongs to them. Never fit it on what it is judged on.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dicecam.training.calibrate import fit_logistic, right_readings
from dicecam.training.data.photos import UNLABELLED_DICE
from dicecam.training.data.sources import synth_scene_source
from dicecam.vision.count_rank import COUNT_RANK_FILE, FEATURES, CountRankFit, rank_features
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image

if TYPE_CHECKING:
    from dicecam.vision.reader import DiceReader

#: Weight decay: keeps the fit near zero where a feature barely helps (chosen in the
#: session-55 screen, 5-fold on roboflow train).
L2 = 1.0


def _counted_rows(reader: DiceReader, image: np.ndarray, boxes: np.ndarray, values: np.ndarray,
                  readable: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Features and right/wrong of the boxes a read of `image` told `count` chooses from,
    those on a die not `readable` left out."""
    found = reader.counted(image, count)
    if not len(found):
        return np.zeros((0, len(FEATURES))), np.zeros(0, bool)
    right, counts = right_readings(found.boxes, found.values, boxes, values, readable)
    return rank_features(found, reader.likelihood(found))[counts], right[counts]


def collect_photos(reader: DiceReader, root: Path, split: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`_counted_rows` of every photo of a labelled set's `split` told its labelled count."""
    unlabelled = UNLABELLED_DICE.get(root.name, ())
    xs, ys = [], []
    for photo in read_dataset(root, split=split):
        if any(name in photo.image for name in unlabelled):
            continue  # their unlabelled dice would count as boxes read wrong
        truth = photo.dice
        x, y = _counted_rows(reader, load_image(photo.path), truth.boxes, truth.values,
                             np.ones(len(truth), bool), len(truth))
        xs.append(x)
        ys.append(y)
    return xs, ys


def collect_rendered(reader: DiceReader, *, scenes: int, seeds: tuple[int, int],
                     clutter: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`_counted_rows` of rendered throws (half upright, half turned) told their count of dice."""
    xs, ys = [], []
    for upright, seed in zip((True, False), seeds):
        draw = synth_scene_source(upright=upright, clutter=clutter)
        if draw is None:
            raise SystemExit("the renderer (training/synth.py) is not installed")
        rng = np.random.default_rng(seed)
        for _ in range(scenes // 2):
            s = draw(rng)
            assert s.boxes is not None  # a rendered scene has a box for every die
            readable = s.readable if s.readable is not None else np.ones(len(s.values), bool)
            x, y = _counted_rows(reader, s.image, s.boxes, s.values, readable, len(s.values))
            xs.append(x)
            ys.append(y)
    return xs, ys


def fit_count_rank(features: np.ndarray, right: np.ndarray, *, l2: float = L2) -> CountRankFit:
    """The fit of P(right) over `rank_features` rows."""
    return CountRankFit(tuple(float(w) for w in fit_logistic(features, right, l2=l2)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, help="models folder: its networks read, the fit is written there")
    p.add_argument("--dataset", type=Path, default=Path("../shared/datasets/roboflow_dice"))
    p.add_argument("--split", default="train")
    p.add_argument("--scenes", type=int, default=1000, help="rendered throws, half upright, half turned any way")
    p.add_argument("--seeds", default="63,64", help="the upright and the turned throws' seeds")
    p.add_argument("--clutter", type=float, default=1.0, help="share of throws on a cluttered game table")
    args = p.parse_args(argv)
    seeds = tuple(int(part) for part in args.seeds.split(","))
    if len(seeds) != 2:
        p.error("--seeds takes two integers: the upright and the turned throws' seeds")
    from dicecam.vision.reader import DiceReader

    reader = DiceReader(args.models, count_rank=False)
    xs, ys = collect_photos(reader, args.dataset, args.split)
    photos = len(xs)
    more_x, more_y = collect_rendered(reader, scenes=args.scenes, seeds=seeds, clutter=args.clutter)
    x, y = np.concatenate(xs + more_x), np.concatenate(ys + more_y)
    fit = fit_count_rank(x, y)
    networks = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in sorted(args.models.glob("*.onnx"))}
    out = args.models / COUNT_RANK_FILE
    out.write_text(fit.to_json(dataset=args.dataset.name, split=args.split, photos=photos, scenes=args.scenes,
                               seeds=list(seeds), clutter=args.clutter, boxes=len(y), right=int(y.sum()), l2=L2,
                               networks=networks,
                               made_by="python -m dicecam.training.count_rank"), encoding="utf-8")
    print(f"{out}: {photos} photos and {args.scenes} rendered throws, {len(y)} boxes ({int(y.sum())} right dice)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
