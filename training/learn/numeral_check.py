"""A numeral check taught on real dice whose pips are painted over with a digit (C384).

    python -m dicecam.training.learn.numeral_check models/ --out runs/numeral/ [--holdout-fold 0]
        [--epochs 6] [--seed 84] [--share 0.4] [--examples FILE.npz]

A numeral die (digits, d8, d10) lying among pip dice is read as a pip die, often a sure 1
(the rendered benchmark's surest decoys). C373 taught a check rendered numeral dice against
real dice and it flagged real dice: it learned the render, not the digit. Here both kinds
are real: in every train photo of the `SETS`, a share of the dice the reader reports get
their pips painted out (inpainted from the face around them) and a digit drawn in the
pips' colour, turned and softened as the photo is (`numeral_face`). The boxes the reader
then reports on painted dice are "numeral" (1), those on untouched labelled dice "die" (0).
Each photo's fold (`throw_boxes.fold_of`): the network learns the others' and is judged on
`--holdout-fold`'s, at the line just above every held-out die. Written as
`numeral_check.onnx` with its crop contract (the whole-die check's light network, a face crop).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import torch

from dicecam.training.data.caches import DATASETS
from dicecam.training.data.throw_boxes import fold_of
from dicecam.training.learn.domino_check import SETS, Examples, caught_above_every_die, joined, loaded, saved
from dicecam.training.learn.whole_die import Arch, Cut, export, train
from dicecam.training.render.clutter import text_at
from dicecam.vision.boxes import centres, inside
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.metrics import match_boxes
from dicecam.vision.reader import DiceReader
from dicecam.vision.whole_die import as_input, context_crops

#: The check's crop: the face and a little around it, where a digit differs from pips (C373's 1.4).
CUT = Cut(size=48, context=1.4, lift=0.0)
#: Reader settings for the examples: no second opinion asks or leaves anything out.
UNCHECKED = {"domino_asks": None, "domino_passes": None, "domino_drops": None, "decoy_asks": None,
             "decoy_passes": None}


def numeral_face(image: np.ndarray, box: np.ndarray, rng: np.random.Generator) -> bool:
    """Paint the die face in `box` of `image` (in place) as a numeral die's: its pips (small
    blobs of the face's minority shade, by Otsu's split of the box's inner part) inpainted
    from the face around them, then a number drawn in their colour, 0.45-0.7 of the face
    tall, at any angle, as soft as the photo. False (nothing painted) where the face is too
    small or shows no pips."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = np.round(box).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    side = min(x1 - x0, y1 - y0)
    if side < 8:
        return False
    face = image[y0:y1, x0:x1]
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    # The box's corners may show the table: split only its inner part into face and pips.
    inner = np.zeros(grey.shape, bool)
    m = max(1, side // 8)
    inner[m:-m, m:-m] = True
    level, _ = cv2.threshold(grey[inner], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = (grey > level) & inner
    pips = bright if bright.sum() < 0.5 * inner.sum() else ~bright & inner
    # A pip is a small blob; a large one is the face's edge or the table, not a pip.
    n, parts, stats, _ = cv2.connectedComponentsWithStats(pips.astype(np.uint8), connectivity=8)
    small = np.zeros(n, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] <= 0.08 * side * side
    pips = small[parts]
    if not pips.any() or abs(float(grey[pips].mean()) - float(grey[inner & ~pips].mean())) < 25:
        return False
    ink = np.median(face[pips], axis=0).astype(np.float32)
    mask = cv2.dilate(pips.astype(np.uint8) * 255, np.ones((3, 3), np.uint8))
    image[y0:y1, x0:x1] = cv2.inpaint(face, mask, 3, cv2.INPAINT_TELEA)
    number = str(int(rng.integers(1, 7)) if rng.random() < 0.7 else int(rng.integers(1, 21)))
    marked = number + ("." if number in ("6", "9") and rng.random() < 0.5 else "")
    # The digit drawn as a mask first, softened as the photo's small dice are, then inked.
    drawn = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    text_at(drawn, marked, ((x1 - x0) / 2, (y1 - y0) / 2), side * rng.uniform(0.45, 0.7), (255, 255, 255), rng,
            angle=float(rng.uniform(0, 360)))
    alpha = cv2.GaussianBlur(drawn[..., 0].astype(np.float32) / 255, (0, 0), float(rng.uniform(0.3, 0.9)))[..., None]
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + ink * alpha, 0, 255).astype(np.uint8)
    return True


def photo_examples(reader: DiceReader, image: np.ndarray, truth: np.ndarray, rng: np.random.Generator, *,
                   share: float, fold: int, jpeg: bool = True) -> Examples:
    """One photo's examples: a `share` of the dice `reader` reports on labelled dice (`truth`)
    painted as numeral dice, the photo read again told its count and without; boxes on painted
    faces are numerals (1), on the other labelled dice dice (0)."""
    first = reader.read(image, count=len(truth))
    pairs = match_boxes(truth, first.boxes)
    painted_truth, painted = [], []
    image = image.copy()
    for t, j in pairs:
        if rng.random() < share and numeral_face(image, first.boxes[j], rng):
            painted_truth.append(t)
            painted.append(first.boxes[j])
    if not painted:
        return joined()
    if jpeg:
        # Both kinds re-encoded alike, so that the drawn digit is not the one clean thing in view.
        quality = int(rng.integers(75, 96))
        image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    faces = np.array(painted, np.float32).reshape(-1, 4)
    return labelled_reads(reader, image, np.delete(truth, painted_truth, axis=0), faces, told=len(truth), fold=fold)


def labelled_reads(reader: DiceReader, image: np.ndarray, plain: np.ndarray, faces: np.ndarray, *, told: int,
                   fold: int) -> Examples:
    """The boxes `reader` reports on `image`, told `told` dice and without: on a numeral face of
    `faces` 1, on a die of `plain` 0 (the rest left out), all of `fold`."""
    crops, labels, confidences = [], [], []
    for count in (None, told):
        read = reader.read(image, count=count)
        on_die = {int(j) for _, j in match_boxes(plain, read.boxes)}
        on_numeral = np.asarray(inside(centres(read.boxes), faces).any(axis=1), bool)
        take = [j for j in range(len(read)) if on_numeral[j] or j in on_die]
        if take:
            crops.append(context_crops(image, read.boxes[take], size=CUT.size, context=CUT.context, lift=CUT.lift))
            labels += [1.0 if on_numeral[j] else 0.0 for j in take]
            confidences += [float(read.confidences[j]) for j in take]
    if not crops:
        return joined()
    return Examples(np.concatenate(crops), np.array(labels, np.float32), np.full(len(labels), fold),
                    np.array(confidences, np.float32))


#: The sets painted: the domino check's, and chase's translucent dice, which a check must not take for digits.
NUMERAL_SETS = (*SETS, "chase_dji")


def examples(reader: DiceReader, datasets: Path, *, seed: int = 84, share: float = 0.4) -> Examples:
    """`photo_examples` of every train photo of the `NUMERAL_SETS` with labelled dice."""
    rng = np.random.default_rng(seed)
    parts = []
    for name in NUMERAL_SETS:
        for photo in read_dataset(datasets / name, split="train"):
            if photo.crop or not len(photo.dice):
                continue
            parts.append(photo_examples(reader, load_image(photo.path), photo.dice.boxes, rng, share=share,
                                        fold=fold_of(photo.image)))
    return joined(*parts)


def rendered_examples(reader: DiceReader, *, scenes: int, seed: int = 384) -> Examples:
    """The boxes `reader` reports on `scenes` rendered throws (half on a game table's clutter):
    on a numeral or polyhedral die 1, on a die 0; fold -1 (always learned). Rendered dice are
    cleaner than photos, as a drawn digit is: shown as dice, they keep cleanness from meaning digit."""
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
        numerals = np.array([box for box, kind in zip(decoys, kinds) if kind.startswith("numeral")],
                            np.float32).reshape(-1, 4)
        truth = sample.boxes if sample.boxes is not None else np.zeros((0, 4), np.float32)
        parts.append(labelled_reads(reader, sample.image, truth, numerals, told=len(truth), fold=-1))
    return joined(*parts)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", type=Path, help="folder whose reader reports the boxes")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--datasets", type=Path, default=DATASETS)
    ap.add_argument("--holdout-fold", type=int, default=0, help="fold judged, not learned (-1: learn every fold)")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=84)
    ap.add_argument("--share", type=float, default=0.4, help="share of each photo's dice painted as numeral dice")
    ap.add_argument("--renders", type=int, default=0, help="rendered throws whose boxes are learned too (fold -1)")
    ap.add_argument("--examples", type=Path, default=None,
                    help="an .npz of the examples: read if it exists, else written")
    args = ap.parse_args(argv)
    reader = DiceReader(args.models, **UNCHECKED)
    if args.examples is not None and args.examples.is_file():
        data = loaded(args.examples)
    else:
        data = joined(examples(reader, args.datasets, seed=args.seed, share=args.share),
                      rendered_examples(reader, scenes=args.renders))
        if args.examples is not None:
            saved(data, args.examples)
    learn = data.folds != args.holdout_fold
    print(f"{len(data.labels)} boxes: {int(data.labels.sum())} on numeral faces "
          f"({int(((data.labels == 1) & (data.confidences >= reader.low_confidence)).sum())} reported sure), "
          f"{int((data.labels == 0).sum())} on dice")
    model = train(data.crops[learn], data.labels[learn], epochs=args.epochs, seed=args.seed, arch=Arch.LIGHT,
                  widths=(16, 32, 48, 64))
    if (~learn).any():
        with torch.no_grad():
            logits = model(torch.from_numpy(as_input(data.crops[~learn]))).squeeze(1).numpy()
        line, caught = caught_above_every_die(1 / (1 + np.exp(-logits)), data.labels[~learn])
        print(f"fold {args.holdout_fold}: above every die ({line:.3f}) {caught:.1%} of the numeral boxes")
    export(model, args.out / "numeral_check.onnx", cut=CUT, output="logit of: the box is a numeral die's face")


if __name__ == "__main__":
    main()
