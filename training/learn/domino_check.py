"""A context check for dominoes: a domino's half is a die's top face, but its other half lies beside it.

    python -m dicecam.training.learn.domino_check models/ --out runs/domino/ [--holdout-fold 0]
        [--epochs 6] [--seed 71] [--renders 1500] [--rows 0.5] [--examples FILE.npz]

Shipped as `models/domino_check.onnx` (C434: C383's `--renders 1500`, rows 0.5, on session 90's reader,
`--holdout-fold -1`, examples of seed 71, network seed 72; models/HISTORY.md). The chip check
(`models/chip_check.onnx`, C435) is this module with `--chips 1 --no-dominoes --renders 0 --holdout-fold -1`:
the same network taught poker chips against dice, asked beside this check (`vision.whole_die.EitherCheck`).
The face reader and the decoy reader see a box's face alone and read a domino's half as surely as a die; told the
count, halves outrank real dice (`benchmarks/robustness.py --change "dominoes beside the
dice"`). This check sees the whole-die check's kind of crop, 2.5 sides wide: a half with its
twin and the line between them.

Examples: every train photo of the `SETS` with rendered dominoes (`training.render.clutter`)
painted clear of its dice, read by the models folder's reader told its count and without:
the boxes it reports on a domino are "domino" (1), those on a labelled die "die" (0). Each
photo's fold (`throw_boxes.fold_of`): the network learns the others' and is judged on
`--holdout-fold`'s, at the line above every held-out die it read surely or not. It trains in
about a minute on 2 cores (`whole_die.train`, the light network) and is written as
`domino_check.onnx` with its crop contract.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from dicecam.training.data.caches import DATASETS
from dicecam.training.data.throw_boxes import fold_of
from dicecam.training.learn.whole_die import Arch, Cut, export, train
from dicecam.training.render.clutter import OBJECTS, domino_row
from dicecam.training.render.drawing import seen_at_angle
from dicecam.training.render.tiles import TILE_OBJECTS
from dicecam.vision.boxes import centres, inside
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes
from dicecam.vision.reader import DiceReader
from dicecam.vision.whole_die import as_input, context_crops

SETS = ("byler_d6", "matteop65_wood", "roboflow_dice")
#: The check's crop: wide enough for a domino's other half, with no lift (dominoes lie flat).
CUT = Cut(size=48, context=2.5, lift=0.0)
#: roboflow_dice boxes cover the whole die; a domino is drawn the size of its top face.
WHOLE_DIE_SHARE = {"roboflow_dice": 0.8}


@dataclass(frozen=True)
class Examples:
    """Crops (N, size, size, 3), labels (1: domino, 0: die), each photo's fold, the reported confidence."""

    crops: np.ndarray
    labels: np.ndarray
    folds: np.ndarray
    confidences: np.ndarray


def paste_chips(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator, *, side: float,
                count: int = 3, tries: int = 40, varied: bool = False) -> np.ndarray:
    """Paint up to `count` poker chips (`tiles`' chip, 1.0-2.6 `side`s across) into `image` in place,
    each clear of every box of `dice` and of each other; their boxes (M, 4). A chip's rim spots
    read as a die's pips (C432), and the check's wide crop sees the round rim around them.
    `varied` (C439): each chip seen at an angle (squashed to 0.6-1.0 across a turned axis), and half
    of them with one to three more touching it in a row, as chips lie in a pile's spill."""
    h, w = image.shape[:2]
    boxes: list[tuple[float, float, float, float]] = []
    for _ in range(tries):
        if len(boxes) >= count or min(h, w) <= 4 * side:
            break
        c = (float(rng.uniform(1.5 * side, w - 1.5 * side)), float(rng.uniform(1.5 * side, h - 1.5 * side)))
        near_die = _near_a_die(dice, c, 2.2 * side)
        near_chip = any(max(abs(c[0] - (b[0] + b[2]) / 2), abs(c[1] - (b[1] + b[3]) / 2)) < 3 * side for b in boxes)
        if near_die or near_chip:
            continue
        ppd = side * float(rng.uniform(1.0, 1.6))
        if not varied:
            boxes.append(TILE_OBJECTS["chip"][0](rng, image, c, ppd))
            continue
        boxes += _chip_row(image, dice, rng, c, ppd, side=side, h=h, w=w)
    return np.array(boxes, np.float32).reshape(-1, 4)


def _chip_row(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator, c: tuple[float, float], ppd: float,
              *, side: float, h: int, w: int) -> list[tuple[float, float, float, float]]:
    """One chip at `c` seen at an angle, and half the time one to three more touching it in a row
    (each clear of `dice` and of the photo's edge): their boxes."""
    chip = TILE_OBJECTS["chip"][0]
    squash, turn = float(rng.uniform(0.6, 1.0)), float(rng.uniform(0, 180))
    more = int(rng.integers(1, 4)) if rng.random() < 0.5 else 0
    step = 1.65 * ppd  # a chip is 1.0-1.6 ppd across: neighbours touch or nearly
    a = float(rng.uniform(0, 2 * np.pi))
    boxes = []
    for k in range(1 + more):
        at = (c[0] + k * step * np.cos(a), c[1] + k * step * np.sin(a))
        clear = 1.2 * side <= at[0] <= w - 1.2 * side and 1.2 * side <= at[1] <= h - 1.2 * side
        if not clear or _near_a_die(dice, at, 2.2 * side):
            break
        box = seen_at_angle(lambda part, here: chip(rng, part, here, ppd), image, at, ppd, squash=squash, turn=turn)
        if box is not None:
            boxes.append(box)
    return boxes


def _near_a_die(dice: np.ndarray, at: tuple[float, float], reach: float) -> bool:
    """Whether a box of `dice` has its centre within `reach` px of `at` along both axes."""
    return bool(len(dice)) and bool((np.abs(centres(dice) - at).max(axis=1) < reach).any())


def paste_dominoes(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator, *, side: float,
                   count: int = 4, tries: int = 40, rows: float = 0.0) -> np.ndarray:
    """Paint up to `count` dominoes (halves 0.7-1.1 of `side` px) into `image` in place, each
    2.2 sides clear of every box of `dice` and 2.5 of each other; their boxes (M, 4). A share
    `rows` of them are rows of real-pattern dominoes (`clutter.domino_row`), 3.5 sides clear."""
    h, w = image.shape[:2]
    single = OBJECTS["domino"][0]
    placed: list[tuple[float, float]] = []
    boxes = []
    for _ in range(tries):
        if len(placed) >= count or min(h, w) <= 2 * side:
            break
        c = (float(rng.uniform(side, w - side)), float(rng.uniform(side, h - side)))
        row = rows > 0 and rng.random() < rows
        clear = 3.5 if row else 2.2
        near_die = _near_a_die(dice, c, clear * side)
        near_domino = any(max(abs(c[0] - x), abs(c[1] - y)) < (clear + 0.3) * side for x, y in placed)
        if near_die or near_domino:
            continue
        boxes.append((domino_row if row else single)(rng, image, c, side))
        placed.append(c)
    return np.array(boxes, np.float32).reshape(-1, 4)


#: The reader settings its examples are read with: without the check's own word (no asks, no
#: ranking, nothing left out), so the halves the shipped check already catches are learned again.
UNCHECKED = {"domino_asks": None, "domino_passes": None, "domino_drops": None}


def examples(reader: DiceReader, datasets: Path, *, seed: int = 71, sets: tuple[str, ...] = SETS,
             rows: float = 0.0, chips: float = 0.0, dominoes: bool = True, varied: bool = False) -> Examples:
    """The boxes `reader` reports on pasted dominoes and on labelled dice of every train photo;
    on a share `chips` of the photos, poker chips are pasted too (`paste_chips`) and count as
    dominoes: a flat piece, not a die. Without `dominoes`, only chips are pasted (a chip check);
    `varied`: chips seen at an angle and in rows (`paste_chips`)."""
    rng = np.random.default_rng(seed)
    parts = []
    for name in sets:
        for photo in read_dataset(datasets / name, split="train"):
            if photo.crop or not len(photo.dice):
                continue
            image = load_image(photo.path).copy()
            sides = np.sqrt(np.prod(photo.dice.boxes[:, 2:] - photo.dice.boxes[:, :2], axis=1))
            side = float(np.median(sides)) * WHOLE_DIE_SHARE.get(name, 1.0)
            pieces = paste_dominoes(image, photo.dice.boxes, rng, side=side, rows=rows) if dominoes else \
                np.zeros((0, 4), np.float32)
            if chips > 0 and rng.random() < chips:
                taken = np.concatenate([photo.dice.boxes, pieces])
                pieces = np.concatenate([pieces, paste_chips(image, taken, rng, side=side, varied=varied)])
            if len(pieces):
                parts.append(read_examples(reader, image, photo.dice.boxes, pieces, fold=fold_of(photo.image)))
    return joined(*parts)


def rendered_examples(reader: DiceReader, *, scenes: int, seed: int = 354, dominoes: bool = True) -> Examples:
    """The boxes `reader` reports on `scenes` rendered throws, half of them on a game table's
    clutter: on a die (readable or not: a die either way) "die", on a domino "domino" (without
    `dominoes`, boxes on dominoes are not learned: a chip check's examples); fold -1 (always
    learned). Dice of every colour, touching, on plain and printed tables: what real photos have
    too few of (white dice stacked on white; blue, green and black dice a chip check took for chips)."""
    from dicecam.training.data.sources import synth_scene_source

    draw = synth_scene_source(upright=True, clutter=0.5)
    if draw is None or scenes <= 0:
        return joined()
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(scenes):
        sample = draw(rng)
        kinds = sample.decoy_kinds or ()
        decoys = sample.decoys if sample.decoys is not None else np.zeros((0, 4), np.float32)
        halves = np.array([box for box, kind in zip(decoys, kinds) if kind == "domino" and dominoes],
                          np.float32).reshape(-1, 4)
        truth = sample.boxes if sample.boxes is not None else np.zeros((0, 4), np.float32)
        parts.append(read_examples(reader, sample.image, truth, halves, fold=-1))
    return joined(*parts)


def read_examples(reader: DiceReader, image: np.ndarray, truth: np.ndarray, dominoes: np.ndarray, *,
                  fold: int) -> Examples:
    """One photo's examples: the boxes `reader` reports on it, told the count of `truth`'s dice
    and without, on a die of `truth` (0) or on one of `dominoes` (1), all of `fold`."""
    crops, labels, confidences = [], [], []
    for count in (None, len(truth)):
        read = reader.read(image, count=count)
        on_die = {int(j) for _, j in match_boxes(truth, read.boxes)}
        on_domino = np.asarray(inside(centres(read.boxes), dominoes).any(axis=1), bool)
        take = [j for j in range(len(read)) if j in on_die or on_domino[j]]
        if take:
            crops.append(context_crops(image, read.boxes[take], size=CUT.size, context=CUT.context, lift=CUT.lift))
            labels += [0.0 if j in on_die else 1.0 for j in take]
            confidences += [float(read.confidences[j]) for j in take]
    if not crops:
        return joined()
    return Examples(np.concatenate(crops), np.array(labels, np.float32), np.full(len(labels), fold),
                    np.array(confidences, np.float32))


def joined(*parts: Examples) -> Examples:
    """The examples of `parts`, one after another (none: no examples)."""
    if not parts:
        return Examples(np.zeros((0, CUT.size, CUT.size, 3), np.uint8), np.zeros(0, np.float32),
                        np.zeros(0, np.int64), np.zeros(0, np.float32))
    return Examples(*(np.concatenate([getattr(p, name) for p in parts])
                      for name in ("crops", "labels", "folds", "confidences")))


def saved(data: Examples, path: Path) -> None:
    """Write `data` to `path` (.npz), so that checks trained with other folds held out reuse it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=data.crops, labels=data.labels, folds=data.folds, confidences=data.confidences)


def loaded(path: Path) -> Examples:
    """Examples written by `saved`."""
    with np.load(path) as d:
        return Examples(d["crops"], d["labels"], d["folds"], d["confidences"])


def caught_above_every_die(probs: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The line just above every die's probability, and the share of dominoes over it."""
    line = float(probs[labels == 0].max()) if (labels == 0).any() else 0.5
    dominoes = probs[labels == 1]
    return line, float((dominoes > line).mean()) if len(dominoes) else float("nan")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", type=Path, help="folder whose reader reports the boxes")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--datasets", type=Path, default=DATASETS)
    ap.add_argument("--holdout-fold", type=int, default=0, help="fold judged, not learned (-1: learn every fold)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=71)
    ap.add_argument("--renders", type=int, default=0, help="rendered throws whose boxes are learned too (fold -1)")
    ap.add_argument("--rows", type=float, default=0.5,
                    help="share of pasted dominoes drawn as rows with real pip layouts (clutter.domino_row; "
                         "default 0.5, as shipped: C383)")
    ap.add_argument("--chips", type=float, default=0.0,
                    help="share of train photos with poker chips pasted too, learned as dominoes "
                         "(C432, not shipped: 0)")
    ap.add_argument("--no-dominoes", action="store_true",
                    help="paste no dominoes and learn no rendered ones: with --chips 1, a chip check's examples "
                         "(C435; with --renders, rendered dice too: C437)")
    ap.add_argument("--varied-chips", action="store_true",
                    help="chips seen at an angle and in rows of two to four (C439)")
    ap.add_argument("--examples", type=Path, default=None,
                    help="an .npz of the examples: read if it exists, else written (the reads take most of "
                         "the time; one file serves the five --holdout-fold runs of benchmarks/fold_reads.py)")
    args = ap.parse_args(argv)
    reader = DiceReader(args.models, **UNCHECKED)
    if args.examples is not None and args.examples.is_file():
        data = loaded(args.examples)
    else:
        data = joined(examples(reader, args.datasets, seed=args.seed, rows=args.rows, chips=args.chips,
                               dominoes=not args.no_dominoes, varied=args.varied_chips),
                      rendered_examples(reader, scenes=args.renders, dominoes=not args.no_dominoes))
        if args.examples is not None:
            saved(data, args.examples)
    print(f"{len(data.labels)} boxes: {int(data.labels.sum())} on dominoes "
          f"({int(((data.labels == 1) & (data.confidences >= reader.low_confidence)).sum())} reported sure), "
          f"{int((data.labels == 0).sum())} on dice")
    learned(data, holdout_fold=args.holdout_fold, epochs=args.epochs, seed=args.seed, cut=CUT,
            path=args.out / "domino_check.onnx", output="logit of: the box is half a domino", kind="domino")


def learned(data: Examples, *, holdout_fold: int, epochs: int, seed: int, cut: Cut, path: Path, output: str,
            kind: str, upright: bool = False) -> None:
    """Train the light check on `data` without real fold `holdout_fold` (rendered throws, fold -1,
    are always learned; -1 holds out no real fold), print the share of that fold's `kind` boxes
    above its every die, and write the check to `path` with its crop contract `cut`."""
    learn = (data.folds != holdout_fold) | (data.folds < 0)
    model = train(data.crops[learn], data.labels[learn], epochs=epochs, seed=seed, arch=Arch.LIGHT,
                  widths=(16, 32, 48, 64), upright=upright)
    if (~learn).any():
        with torch.no_grad():
            logits = model(torch.from_numpy(as_input(data.crops[~learn]))).squeeze(1).numpy()
        line, caught = caught_above_every_die(1 / (1 + np.exp(-logits)), data.labels[~learn])
        print(f"fold {holdout_fold}: above every die ({line:.3f}) {caught:.1%} of the {kind} boxes")
    export(model, path, cut=cut, output=output)


if __name__ == "__main__":
    main()
