"""Training the decoy reader (`DiceReader._decoys_asked`, C341): the reader taught game-table decoys.

    python -m dicecam.training.learn.from_onnx models/reader.onnx runs/shipped/reader.pt
    python -m dicecam.training.data.decoy_cache --scenes 4000          # data/decoys.npz
    python -m dicecam.training.learn.decoy_reader models/ --init runs/shipped/reader.pt --out models/
        [--holdout-fold F]                                             # models/decoy_reader.onnx

The shipped file since C424c (session 88) is that reader tuned once more the same way, from
itself (`from_onnx models/decoy_reader.onnx`), on a cache whose tables carry keypads, toy
bricks, buttons and coins a third of the time (`decoy_cache --objects both`): it took a
remote's keys for a sure 6.

The shipped reader met a rendered decoy about once in five hundred crops and reads a numeral
die's digit as a 1's pip, surely. This is that reader tuned (2,500 steps of 128) on a mix in
which decoys are a third of every batch: the decoy cache's windows (numeral dice, tokens,
dominoes, eyes, hardware...) as "not a die", beside the train photos' real dice (every photo
of roboflow_dice, byler_d6 and matteop65_wood: labelled boxes and the boxes `models`' reader
keeps on them) and rendered dice, so that it still knows a die. 1s are drawn as often as the
other values together: a single mark is what decoys most often pass for. At run time it only
ever asks about a sure die it reads as "not a die" at `decoy_asks` (0.95); it reads no value.
`--holdout-fold` leaves that fold (0-4) of every set out, to choose that threshold on it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from dicecam.training.data import caches
from dicecam.training.data.reader_crops import CROP_SCALE
from dicecam.training.data.throw_boxes import FROM_ABOVE_SETS, LOW_VIEW_SETS, ThrowBox, cut_boxes, throw_boxes
from dicecam.training.learn.export import export_reader
from dicecam.training.learn.nets import FaceReader, reader_of
from dicecam.training.render.scene import render_crop
from dicecam.training.shapes import NOT_A_DIE, READER_SIZE
from dicecam.vision.face_reader import square_crop
from dicecam.vision.reader import DiceReader

#: Stored crops are this big (the reader's window, grown `CROP_SCALE`): room to zoom and move.
STORED = 64
#: The decoy cache's last share that is never taught, to judge the decoy reader on.
HELD_OUT_DECOYS = 0.2


@dataclass(frozen=True)
class Mix:
    """What one batch draws: how many of each kind of crop (128 in all)."""

    real_ones: int = 28
    rendered_ones: int = 20
    real_others: int = 28
    decoys: int = 40
    rendered_others: int = 12


def real_crops(boxes: Sequence[ThrowBox]) -> tuple[np.ndarray, np.ndarray]:
    """Reader-framed crops (N, 64, 64, 3) of `boxes` and their values."""
    def framed(image: np.ndarray, box: tuple[float, ...]) -> np.ndarray:
        x0, y0, x1, y1 = box
        return square_crop(image, (x0 + x1) / 2, (y0 + y1) / 2, CROP_SCALE * max(x1 - x0, y1 - y0), STORED)

    return np.stack(cut_boxes(boxes, framed)), np.array([b.value for b in boxes], np.int64)


def rendered_dice(rng: np.random.Generator, values: Sequence[int]) -> np.ndarray:
    """A rendered crop (64 px) of a die showing each of `values`, seven in ten as an upright phone sees it."""
    return np.stack([render_crop(rng, int(v), size=STORED, upright=bool(rng.random() < 0.7)) for v in values])


def taught_crop(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A stored crop as the reader is taught it (48 px): zoomed 0.87-1.15x, moved up to 3 px,
    turned a quarter any number of times, half mirrored, half with its colours swapped,
    its light changed."""
    cx, cy = STORED / 2 + rng.uniform(-3, 3), STORED / 2 + rng.uniform(-3, 3)
    warp = cv2.getRotationMatrix2D((cx, cy), float(rng.integers(0, 4) * 90),
                                   READER_SIZE / (STORED * rng.uniform(0.87, 1.15)))
    warp[:, 2] += READER_SIZE / 2 - warp @ np.array([cx, cy, 1.0])
    out = cv2.warpAffine(crop, warp, (READER_SIZE, READER_SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.5:
        out = out[:, ::-1]
    if rng.random() < 0.5:
        out = out[:, :, rng.permutation(3)]
    return np.clip(out.astype(np.float32) * rng.uniform(0.8, 1.2) + rng.uniform(-20, 20), 0, 255)


def tune_decoy_reader(init: dict, real: tuple[np.ndarray, np.ndarray], rendered: tuple[np.ndarray, np.ndarray],
                      decoys: np.ndarray, *, steps: int = 2500, lr: float = 5e-4, mix: Mix = Mix(),
                      seed: int = 340) -> FaceReader:
    """The reader of checkpoint `init` tuned on `real` and `rendered` (crops, values 1-6) and
    `decoys` (crops, "not a die"), every batch drawn as `mix` says."""
    rng = np.random.default_rng(seed)
    (real_crops_, real_values), (drawn, drawn_values) = real, rendered
    # Drawn in this order, each group's picks before its crops are taught (the shipped run's order).
    groups = [(real_crops_[real_values == 1], real_values[real_values == 1], mix.real_ones),
              (drawn[drawn_values == 1], drawn_values[drawn_values == 1], mix.rendered_ones),
              (real_crops_[real_values != 1], real_values[real_values != 1], mix.real_others),
              (decoys, np.full(len(decoys), NOT_A_DIE + 1), mix.decoys),
              (drawn[drawn_values != 1], drawn_values[drawn_values != 1], mix.rendered_others)]
    for crops, _values, n in groups:
        if n and not len(crops):
            raise ValueError("the decoy reader needs real and rendered 1s and other values, and decoys")
    model = reader_of(init).train()
    torch.manual_seed(seed)  # after the model is built: its dropout draws from here on
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in range(steps):
        x, y = [], []
        for crops, values, n in groups:
            for i in rng.integers(0, len(crops), n):
                x.append(taught_crop(crops[i], rng))
                y.append(int(values[i]) - 1)
        logits = model(torch.from_numpy(np.stack(x).transpose(0, 3, 1, 2) / 255).float())
        loss = nn.functional.cross_entropy(logits, torch.tensor(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
    return model.eval()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", type=Path, help="folder whose reader keeps the boxes of the real dice shown")
    ap.add_argument("--init", type=Path, required=True, help="the reader checkpoint to tune (from_onnx's reader.pt)")
    ap.add_argument("--out", type=Path, required=True, help="folder to write decoy_reader.onnx into")
    ap.add_argument("--decoys", type=Path, default=caches.DECOYS, help="the decoy cache (decoy_cache's output)")
    ap.add_argument("--holdout-fold", type=int, default=None, help="leave this fold (0-4) of every set out")
    ap.add_argument("--renders", type=int, default=4000, help="rendered 1s, and as many dice of 2-6")
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    if not args.decoys.is_file():
        ap.error(f"no decoy cache at {args.decoys}: run python -m dicecam.training.data.decoy_cache --scenes 4000")
    torch.set_num_threads(args.threads)
    reader = DiceReader(args.models, threads=args.threads)
    boxes = [b for b in throw_boxes(reader, LOW_VIEW_SETS + FROM_ABOVE_SETS, at_most=None)
             if b.fold != args.holdout_fold]
    real = real_crops(boxes)
    others = np.random.default_rng(341)
    values = np.r_[np.ones(args.renders, np.int64), others.integers(2, 7, args.renders)]
    drawn = np.concatenate([rendered_dice(np.random.default_rng(339), values[: args.renders]),
                            rendered_dice(others, values[args.renders:])])
    rendered = (drawn, values)
    with np.load(args.decoys) as cache:
        decoys = cache["images"]
    # The cache's last fifth is never taught: decoys to judge the reader on (`HELD_OUT_DECOYS`).
    decoys = decoys[: int(len(decoys) * (1 - HELD_OUT_DECOYS))]
    print(f"decoy reader: {len(real[1])} real dice ({int((real[1] == 1).sum())} 1s), {len(values)} rendered, "
          f"{len(decoys)} decoys", flush=True)
    tuned = tune_decoy_reader(torch.load(args.init, map_location="cpu"), real, rendered, decoys, steps=args.steps)
    export_reader(tuned, args.out / "decoy_reader.onnx", upright=True)
    print(f"wrote {args.out / 'decoy_reader.onnx'}")


if __name__ == "__main__":
    main()
