"""A context check for side faces: is a reported box a die's side face, with its top face beside it?

    python -m dicecam.training.learn.side_check models/ --out runs/side/ [--holdout-fold 0]
        [--epochs 8] [--seed 73] [--renders 2500] [--examples FILE.npz]

Seen at an angle, a die shows its top face and one or two side faces, each with its own pips;
the reader sees one face at a time and reads a side face as surely as a top face, a second die
where there is one (issue 34; on rendered clutter the surest class of false die). This check
sees a box with what lies around it, more of it above (a side face's top face lies above it in
a photo taken the way up a phone is held), and learns from the boxes the models folder's
reader reports:

- on a die's top face (paired with it by the datasets' scoring rule): 0;
- paired with no die, its centre on a die's whole picture (top and side faces): 1.

Examples come from rendered throws (whose dice's pictures are known; fold -1, always learned)
and from the shared sets' train photos: roboflow_dice labels whole dice (its side faces are
known), byler_d6 and matteop65_wood top faces (their boxes teach only "die"). Each real photo's
fold (`throw_boxes.fold_of`): the network learns the others' and is judged on
`--holdout-fold`'s, at the line above every held-out die. It trains in a few minutes on 2 cores
(`whole_die.train`, the light network, upright) and is written as `side_check.onnx` with its crop contract.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from dicecam.training.data.photos import Sample, load_split
from dicecam.training.data.sources import synth_scene_source
from dicecam.training.data.throw_boxes import fold_of
from dicecam.training.learn.domino_check import Examples, joined, learned, loaded, saved
from dicecam.training.learn.whole_die import Cut
from dicecam.vision.boxes import centres, inside
from dicecam.vision.metrics import match_boxes
from dicecam.vision.reader import DiceReader
from dicecam.vision.whole_die import context_crops

SETS = ("roboflow_dice", "byler_d6", "matteop65_wood")
#: The check's crop: three sides wide, its centre a quarter side above the box's, where a side face's top face is.
CUT = Cut(size=48, context=3.0, lift=0.25)


def side_faces(truth: np.ndarray, pictures: np.ndarray | None, found: np.ndarray,
               readable: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the `found` boxes on a die's top face (`truth`, paired by the scoring rule; a die
    marked unreadable in `readable` counts for neither) and of those paired with none whose
    centre lies on a die's whole picture (`pictures`, None: unknown, so none)."""
    die = np.zeros(len(found), bool)
    unpaired = np.ones(len(found), bool)
    for t, j in match_boxes(truth, found):
        unpaired[j] = False
        die[j] = readable is None or bool(readable[t])
    side = np.zeros(len(found), bool)
    if pictures is not None and len(pictures) and len(found):
        side = unpaired & inside(centres(found), pictures).any(axis=1)
    return die, side


def drawn_sides(truth: np.ndarray, pictures: np.ndarray, rng: np.random.Generator, *,
                readable: np.ndarray | None = None, min_share: float = 0.35, jitter: float = 0.1) -> np.ndarray:
    """Boxes (M, 4) on the side faces in view: the part of each die's whole picture (`pictures`)
    below, left or right of its top face (`truth`) where that part is at least `min_share` of
    the top face's height or width, each moved and sized by up to `jitter` of it, as a detector
    box on it would be; none whose centre lies on another die's top face (a heap's dice lean on
    each other) or on a die marked unreadable."""
    out = []
    for i, ((x0, y0, x1, y1), (px0, _py0, px1, py1)) in enumerate(zip(truth, pictures)):
        if readable is not None and not readable[i]:
            continue
        w, h = x1 - x0, y1 - y0
        parts = ((x0, y1, x1, py1, py1 - y1 >= min_share * h), (px0, y0, x0, y1, x0 - px0 >= min_share * w),
                 (x1, y0, px1, y1, px1 - x1 >= min_share * w))
        for bx0, by0, bx1, by1, seen in parts:
            if not seen:
                continue
            bw, bh = bx1 - bx0, by1 - by0
            move = rng.uniform(-jitter, jitter, 4) * np.array([bw, bh, bw, bh])
            out.append((bx0 + move[0], by0 + move[1], bx1 + move[2], by1 + move[3]))
    boxes = np.array(out, np.float32).reshape(-1, 4)
    if not len(boxes):
        return boxes
    return boxes[~inside(centres(boxes), truth).any(axis=1)]


def read_examples(reader: DiceReader, sample: Sample, *, fold: int, rng: np.random.Generator | None = None
                  ) -> Examples:
    """One photo's examples: the boxes `reader` reports on it, told its count and without, and
    with `rng` the side faces in view drawn from the dice's pictures (`drawn_sides`, confidence 0)."""
    truth = sample.boxes if sample.boxes is not None else np.zeros((0, 4), np.float32)
    crops, labels, confidences = [], [], []
    if rng is not None and sample.die_boxes is not None and len(truth):
        drawn = drawn_sides(truth, sample.die_boxes, rng, readable=sample.readable)
        if len(drawn):
            crops.append(context_crops(sample.image, drawn, size=CUT.size, context=CUT.context, lift=CUT.lift))
            labels += [1.0] * len(drawn)
            confidences += [0.0] * len(drawn)
    for count in (None, len(truth)):
        read = reader.read(sample.image, count=count)
        die, side = side_faces(truth, sample.die_boxes, read.boxes, sample.readable)
        take = np.flatnonzero(die | side)
        if len(take):
            crops.append(context_crops(sample.image, read.boxes[take], size=CUT.size, context=CUT.context,
                                       lift=CUT.lift))
            labels += [float(side[j]) for j in take]
            confidences += [float(read.confidences[j]) for j in take]
    if not crops:
        return joined()
    return Examples(np.concatenate(crops), np.array(labels, np.float32), np.full(len(labels), fold),
                    np.array(confidences, np.float32))


def real_examples(reader: DiceReader, *, sets: Iterable[str] = SETS, seed: int = 397) -> Examples:
    """The examples of every train photo of `sets`, each of its source's fold."""
    rng = np.random.default_rng(seed)
    parts = [read_examples(reader, s, fold=fold_of(s.name), rng=rng)
             for name in sets for s in load_split(name, "train") if s.boxes is not None and len(s.boxes)]
    return joined(*parts)


def rendered_examples(reader: DiceReader, *, scenes: int, seed: int = 397,
                      draw: Callable[[np.random.Generator], Sample] | None = None) -> Examples:
    """The examples of `scenes` rendered upright throws, half of them among clutter (fold -1)."""
    draw = draw or synth_scene_source(upright=True, clutter=0.5)
    if draw is None or scenes <= 0:
        return joined()
    rng = np.random.default_rng(seed)
    return joined(*(read_examples(reader, draw(rng), fold=-1, rng=rng) for _ in range(scenes)))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", type=Path, help="folder whose reader reports the boxes")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--holdout-fold", type=int, default=0, help="fold judged, not learned (-1: learn every fold)")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=73)
    ap.add_argument("--renders", type=int, default=2500, help="rendered throws whose boxes are learned (fold -1)")
    ap.add_argument("--examples", type=Path, default=None,
                    help="an .npz of the examples: read if it exists, else written (the reads take most of the time)")
    args = ap.parse_args(argv)
    reader = DiceReader(args.models)
    if args.examples is not None and args.examples.is_file():
        data = loaded(args.examples)
    else:
        data = joined(real_examples(reader), rendered_examples(reader, scenes=args.renders))
        if args.examples is not None:
            saved(data, args.examples)
    real = data.folds >= 0
    sure = data.confidences >= reader.low_confidence
    print(f"{len(data.labels)} boxes: {int(data.labels.sum())} on side faces ({int((data.labels == 1)[sure].sum())} "
          f"reported sure; real {int(data.labels[real].sum())}), {int((data.labels == 0).sum())} on dice "
          f"(real {int((data.labels[real] == 0).sum())})", flush=True)
    learned(data, holdout_fold=args.holdout_fold, epochs=args.epochs, seed=args.seed, cut=CUT,
            path=args.out / "side_check.onnx", output="logit of: the box is a die's side face", kind="side-face",
            upright=True)

if __name__ == "__main__":
    main()
