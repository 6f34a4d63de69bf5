"""Hard-negative mining: what the current model mistakes for dice on the train photos.

    python -m training.mine models/ [--positives]   # writes data/hard_negatives.npz

Runs the exported model (onnxruntime, like the app) over the train splits and rendered
scenes, keeps every detection that frames no labelled die, and stores its crop, cut the way the reader's crops are cut.
Reader training then shows these as "not a die". With `--positives` it also keeps the
detections that do frame a die but sit off it further than reader training jitters its
crops (`misplaced`), with that die's value (data/box_positives.npz): at steep views such
boxes are common and read right half the time (models/README.md, session 14).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from training.crop_cache import SIZE
from training.reader_data import CROP_SCALE, crop_square
from training.sources import DETECTOR_SETS, real_samples, synth_scene_source

CACHE = Path("data") / "hard_negatives.npz"
POSITIVES = Path("data") / "box_positives.npz"


def unmatched(truth: np.ndarray, found: np.ndarray, *, min_iou: float = 0.3) -> np.ndarray:
    """Mask of found boxes that frame no labelled die: overlap (IoU) under `min_iou` with all.

    Stricter than the scoring rule on purpose: a box around one pip of a die holds that
    die's centre, yet it is exactly the mistake the reader must learn to refuse.
    """
    if not len(found):
        return np.zeros((0,), bool)
    if not len(truth):
        return np.ones((len(found),), bool)
    return _iou(found, truth).max(axis=1) < min_iou


def misplaced(truth: np.ndarray, found: np.ndarray, *, min_iou: float = 0.3, max_offset: float = 0.1,
              sizes: tuple[float, float] = (0.85, 1.2)) -> np.ndarray:
    """Pairs (K, 2) of (found, truth) indices: boxes on a labelled die placed off it.

    A found box is on the labelled die it overlaps most, by IoU `min_iou` or more (so it
    is never also a hard negative); it is off when its centre lies `max_offset` of the
    die's longer side or more from the die's centre, or its longer side is outside
    `sizes` times the die's: further than `reader_data.positive_crop` jitters a crop.
    """
    if not len(found) or not len(truth):
        return np.zeros((0, 2), np.int64)
    iou = _iou(found, truth)
    best = iou.argmax(axis=1)
    die = truth[best]
    side = np.maximum(die[:, 2] - die[:, 0], die[:, 3] - die[:, 1])
    offset = np.hypot(*((found[:, :2] + found[:, 2:] - die[:, :2] - die[:, 2:]) / 2).T) / side
    ratio = np.maximum(found[:, 2] - found[:, 0], found[:, 3] - found[:, 1]) / side
    off = (offset >= max_offset) | (ratio < sizes[0]) | (ratio > sizes[1])
    keep = (iou.max(axis=1) >= min_iou) & off
    return np.stack([np.flatnonzero(keep), best[keep]], axis=1).astype(np.int64)


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(A, B) intersection over union of boxes `a` and `b`."""
    lo = np.maximum(a[:, None, :2], b[None, :, :2])
    hi = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=-1)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=-1)[:, None]
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=-1)[None, :]
    return inter / np.maximum(area_a + area_b - inter, 1e-6)


def _crop(image: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The reader's crop of a found box: its longer side grown by CROP_SCALE, squared."""
    x0, y0, x1, y1 = box
    return crop_square(image, (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) * CROP_SCALE, 0.0, SIZE)


def mine(models: Path, *, scenes: int = 300, seed: int = 7,
         positives: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(negatives, positives, their values, photos read); positives only if asked for."""
    from vision.reader import DiceReader

    # Raw detections (a lower threshold, no reader verdict): the reader must learn to refuse them.
    reader = DiceReader(models, min_score=0.15)
    crops, good, values = [], [], []
    draw = synth_scene_source()
    rng = np.random.default_rng(seed)
    photos = real_samples(DETECTOR_SETS) + [draw(rng) for _ in range(scenes if draw else 0)]
    for s in photos:
        found, _ = reader._detect(s.image)
        crops.extend(_crop(s.image, box) for box in found[unmatched(s.boxes, found)])
        if positives:
            readable = s.readable if s.readable is not None else np.ones(len(s.values), bool)
            for i, j in misplaced(s.boxes, found):
                if readable[j]:
                    good.append(_crop(s.image, found[i]))
                    values.append(int(s.values[j]))
    as_crops = lambda c: np.array(c, np.uint8).reshape(-1, SIZE, SIZE, 3)  # noqa: E731
    return as_crops(crops), as_crops(good), np.array(values, np.int64), len(photos)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, nargs="?", default=Path("models"))
    p.add_argument("--scenes", type=int, default=300)
    p.add_argument("--positives", action="store_true", help="also keep boxes placed off a die (data/box_positives.npz)")
    args = p.parse_args(argv)
    crops, good, values, n = mine(args.models, scenes=args.scenes, positives=args.positives)
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    np.savez(CACHE, images=crops)
    print(f"{len(crops)} hard negatives from {n} photos -> {CACHE}")
    if args.positives:
        np.savez(POSITIVES, images=good, values=values)
        print(f"{len(good)} boxes placed off a die from {n} photos -> {POSITIVES}")


if __name__ == "__main__":
    main()
