"""Hard-negative mining: what the current model mistakes for dice on the train photos.

    python -m dicecam.training.data.mine models/     # writes data/hard_negatives.npz

Runs the exported model (onnxruntime, like the app) over the train splits and rendered
scenes, keeps every detection that frames no labelled die, and stores its crop, cut the way the reader's crops are cut.
Reader training then shows these as "not a die". `--search` mines what the count's closer
look (`DieDetector.search`: the whole photo at 2.5 times the first look's scale, where a
throw's count is not met) boxes apart from the first look's boxes: the look-alikes a counted
throw ranks, which the first look's negatives do not hold (add them to those with `--add`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dicecam.training.data import caches
from dicecam.training.data.crop_cache import SIZE
from dicecam.training.data.reader_crops import CROP_SCALE, crop_square
from dicecam.training.data.sources import DETECTOR_SETS, real_samples, synth_scene_source
from dicecam.vision.boxes import iou
from dicecam.vision.halvings import Halvings

if TYPE_CHECKING:
    from dicecam.vision.reader import DiceReader


def unmatched(truth: np.ndarray, found: np.ndarray, *, min_iou: float = 0.3) -> np.ndarray:
    """Mask of found boxes that frame no labelled die: overlap (IoU) under `min_iou` with all.

    Stricter than the scoring rule on purpose: a box around one pip of a die holds that
    die's centre, yet it is exactly the mistake the reader must learn to refuse.
    """
    if not len(found):
        return np.zeros((0,), bool)
    if not len(truth):
        return np.ones((len(found),), bool)
    return iou(found, truth).max(axis=1) < min_iou


def mistaken(reader: DiceReader, image: np.ndarray, truth: np.ndarray, *, search: bool = False) -> np.ndarray:
    """Boxes (N, 4) the reader's detector finds on `image` that frame none of the labelled
    dice `truth`: its first look's, or with `search` those the count's closer look adds
    apart from them."""
    found = reader.detect(image)
    if search:
        found = reader.detector.search(Halvings(image), found)
    return found.boxes[unmatched(truth, found.boxes)]


def mine(models: Path, *, scenes: int = 300, seed: int = 7, upright: bool = False,
         clutter: float = 0.0, search: bool = False) -> tuple[np.ndarray, int]:
    """Crops of every raw detection that frames no labelled die, and how many photos were searched.

    `upright`: the rendered scenes as a phone held upright takes them, the views a detector
    trained with `training.learn.train detector --upright` is made for; `search`: the
    count's closer look's detections instead (`mistaken`).
    """
    from dicecam.vision.reader import DiceReader

    # Raw detections (a lower threshold, no reader verdict): the reader must learn to refuse them.
    reader = DiceReader(models, min_score=0.15)
    crops = []
    samples = real_samples(DETECTOR_SETS)
    draw = synth_scene_source(upright=upright, clutter=clutter)
    rng = np.random.default_rng(seed)
    photos = [(s.image, s.boxes) for s in samples]
    if draw is not None:
        for _ in range(scenes):
            s = draw(rng)
            photos.append((s.image, s.boxes))
    for image, boxes in photos:
        if boxes is None:
            continue  # a crop of one die: no photo around it to mine
        for x0, y0, x1, y1 in mistaken(reader, image, boxes, search=search):
            side = max(x1 - x0, y1 - y0) * CROP_SCALE
            crops.append(crop_square(image, (x0 + x1) / 2, (y0 + y1) / 2, side, 0.0, SIZE))
    return np.array(crops, np.uint8).reshape(-1, SIZE, SIZE, 3), len(photos)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, nargs="?", default=Path("models"))
    p.add_argument("--scenes", type=int, default=300)
    p.add_argument("--upright", action="store_true", help="render the scenes upright, as a phone takes them")
    p.add_argument("--clutter", type=float, default=0.0, help="share of scenes on a cluttered game table")
    p.add_argument("--add", action="store_true",
                   help="add to the negatives mined before (another detector's mistakes) instead of replacing them")
    p.add_argument("--search", action="store_true",
                   help="mine what the count's closer look boxes apart from the first look (P218)")
    args = p.parse_args(argv)
    crops, n = mine(args.models, scenes=args.scenes, upright=args.upright, clutter=args.clutter, search=args.search)
    if args.add and caches.HARD_NEGATIVES.is_file():
        crops = np.concatenate([np.load(caches.HARD_NEGATIVES)["images"], crops])
    caches.HARD_NEGATIVES.parent.mkdir(parents=True, exist_ok=True)
    np.savez(caches.HARD_NEGATIVES, images=crops)
    print(f"{len(crops)} hard negatives from {n} photos -> {caches.HARD_NEGATIVES}")


if __name__ == "__main__":
    main()
