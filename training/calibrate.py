"""Fit the confidence cap (`vision.confidence`) for the networks in a models folder.

    python -m dicecam.training.calibrate models/ [--scenes 2000] [--seeds 61,62] [--clutter 0.5]

Writes confidence.json into the folder (here models/confidence.json). Reads rendered
throws (half as a phone held upright takes them, half turned any way, each from its own
training seed) with the networks in the folder, uncapped, and fits by logistic regression
whether each kept reading was right: its value matches the die it boxes. Side faces, parts
of dice and boxes on the table are readings that were wrong; dice the renderer marks
unreadable (cocked, hidden) are left out, as the benchmarks leave them out. `--clutter`
puts that share of the throws on a cluttered game table, where the reader's own "not a
die" probability tells a token from a die. Run it again whenever a network changes: the
fit belongs to the pair.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dicecam.training.data.sources import synth_scene_source
from dicecam.vision.candidates import filled
from dicecam.vision.confidence import CONFIDENCE_FILE, ConfidenceFit, features, sigmoid
from dicecam.vision.metrics import match_boxes

if TYPE_CHECKING:
    from dicecam.vision.reader import DiceReader

#: Weight decay of the fit: keeps it finite where the readings separate cleanly (a tiny set).
L2 = 1e-3


def fit_logistic(x: np.ndarray, right: np.ndarray, *, l2: float = L2, steps: int = 50) -> np.ndarray:
    """Weights w of P(right) = sigmoid(x @ w), by Newton's method (x: (N, K) features, right: (N,) bools)."""
    x = np.asarray(x, np.float64)
    y = np.asarray(right, np.float64)
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = sigmoid(x @ w)
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def right_readings(found_boxes: np.ndarray, found_values: np.ndarray, boxes: np.ndarray, values: np.ndarray,
                   readable: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which found dice were read right, and which count (not on a die marked unreadable).

    Boxes are paired by the datasets' scoring rule (`vision.metrics.match_boxes`); a found
    die paired with no die was not read right. `benchmarks/rendered_scenes.py` leaves out
    the same readings.
    """
    right = np.zeros(len(found_boxes), bool)
    counts = np.ones(len(found_boxes), bool)
    for i, j in match_boxes(boxes, found_boxes):
        counts[j] = bool(readable[i])
        right[j] = found_values[j] == values[i]
    return right, counts


def collect(models: Path, *, scenes: int, seeds: tuple[int, int],
            clutter: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Features (N, 4) and right/wrong of every counted reading on the rendered throws."""
    from dicecam.vision.reader import DiceReader

    reader = DiceReader(models, capped=False)
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
            x, right = _judged(reader, s.image, s.boxes, s.values, readable)
            xs.append(x)
            ys.append(right)
    return np.concatenate(xs), np.concatenate(ys)


def _judged(reader: DiceReader, image: np.ndarray, boxes: np.ndarray, values: np.ndarray,
            readable: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Features and right/wrong of each reading the reader keeps in `image` that counts
    (not on a die marked unreadable), against the dice's `boxes` and `values`."""
    seen = reader.candidates(image)
    seen = seen.take(filled(seen.kept, "kept"))
    right, counts = right_readings(seen.boxes, filled(seen.values, "values"), boxes, values, readable)
    held, relative = filled(seen.held, "held"), filled(seen.relative, "relative")
    return features(held, seen.scores, relative, seen.not_a_die)[counts], right[counts]


def collect_photos(models: Path, datasets: list[Path], *, split: str = "train") -> tuple[np.ndarray, np.ndarray]:
    """Features and right/wrong of every kept reading on labelled real photos (their `split`),
    paired with the labels by the datasets' scoring rule: where the renderer's clutter is not
    the real one, the real photos' own mistakes teach the fit. Photos with dice nobody
    labelled (`training.data.photos.UNLABELLED_DICE`) are left out: their dice would count
    as mistakes."""
    from dicecam.training.data.photos import UNLABELLED_DICE
    from dicecam.vision.dataset import read_dataset
    from dicecam.vision.decode import load_image
    from dicecam.vision.reader import DiceReader

    reader = DiceReader(models, capped=False)
    xs, ys = [], []
    for root in datasets:
        unlabelled = UNLABELLED_DICE.get(root.name, ())
        for photo in read_dataset(root, split=split):
            if photo.crop or any(name in photo.image for name in unlabelled):
                continue
            truth = photo.dice
            x, right = _judged(reader, load_image(photo.path), truth.boxes, truth.values, np.ones(len(truth), bool))
            xs.append(x)
            ys.append(right)
    if not xs:
        return np.zeros((0, 5)), np.zeros(0, bool)
    return np.concatenate(xs), np.concatenate(ys)


def fingerprints(models: Path) -> dict[str, str]:
    """The networks a fit was made for, by the SHA-256 of their files (a test holds the shipped fit to them)."""
    from dicecam.vision.onnx import file_digest
    from dicecam.vision.reader import DETECTOR_FILE, READER_FILE

    return {name: file_digest(models / name) for name in (DETECTOR_FILE, READER_FILE)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", type=Path, nargs="?", default=Path("models"))
    p.add_argument("--scenes", type=int, default=2000, help="rendered throws, half upright, half turned any way")
    p.add_argument("--seeds", default="61,62", help="the upright and the turned throws' seeds")
    p.add_argument("--clutter", type=float, default=0.0, help="share of throws on a cluttered game table")
    p.add_argument("--photos", type=Path, nargs="*", default=[], metavar="DATASET_DIR",
                   help="labelled photo sets whose train photos are read too (real clutter's own mistakes)")
    p.add_argument("--out", type=Path, help=f"where to write the fit (default: MODELS/{CONFIDENCE_FILE})")
    args = p.parse_args(argv)
    seeds = tuple(int(part) for part in args.seeds.split(","))
    if len(seeds) != 2:
        p.error("--seeds takes two integers: the upright and the turned throws' seeds")
    x, right = collect(args.models, scenes=args.scenes, seeds=seeds, clutter=args.clutter)
    real_x, real_right = collect_photos(args.models, args.photos)
    x, right = np.concatenate([x, real_x]), np.concatenate([right, real_right])
    fit = ConfidenceFit(*fit_logistic(x, right).round(4).tolist())
    out = args.out or args.models / CONFIDENCE_FILE
    out.write_text(fit.to_json(scenes=args.scenes, seeds=list(seeds), clutter=args.clutter, readings=len(right),
                               right=int(right.sum()), photos=[root.name for root in args.photos],
                               photo_readings=len(real_right), networks=fingerprints(args.models),
                               made_by="python -m dicecam.training.calibrate"), encoding="utf-8")
    print(f"{len(right)} readings on {args.scenes} rendered throws and {len(real_right)} on real train photos, "
          f"{int(right.sum())} right: {fit} -> {out}")


if __name__ == "__main__":
    main()
