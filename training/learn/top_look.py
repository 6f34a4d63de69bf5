"""Training the top look's two networks (`DiceReader._top_looked`): the top reader and the view check.

    python -m dicecam.training.learn.from_onnx models/reader.onnx runs/shipped/reader.pt
    python -m dicecam.training.learn.top_look models/ --init runs/shipped/reader.pt --out models/
        [--holdout-fold F] [--top-renders N] [--no-view]   # models/top_reader.onnx and models/view.onnx

Seen from low down a die is boxed whole, top and front face, and the reader reads the box's
centre: the front face. The top reader (R336) is the reader tuned on each box's upper part,
stretched square (`FaceReader.top_crops`), jittered and mirrored, and on such crops of
rendered dice seen from low down (R323 before it had none, and read renders surely wrong).
Seen from above that part cuts the face, so the view check (V328) says first whether a die is seen from low down: a
small network taught rendered upright dice by the camera's tilt, chase_dji's dice from above,
and the shared sets' train throws (roboflow: a seated player's low views; byler and matteo:
from above). `--holdout-fold` leaves that fold of every set out of both, to judge them there.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from dicecam.training.data import caches
from dicecam.training.data.reader_crops import CROP_SCALE
from dicecam.training.data.throw_boxes import LOW_VIEW_SETS, cut_boxes, throw_boxes
from dicecam.training.learn.export import OPSET, _legacy_exporter, _stamp, export_reader
from dicecam.training.learn.nets import FaceReader, reader_of
from dicecam.training.render.scene import render_crop_and_tilt, render_die_and_box
from dicecam.training.shapes import READER_SIZE
from dicecam.vision.face_reader import rect_crop, square_crop
from dicecam.vision.reader import DiceReader

#: The reader's crop: grown `CROP_SCALE` (1.35x), `READER_SIZE` (48) px a side (`vision.face_reader`).
CROP_SIZE = READER_SIZE
#: The view check's crop: a square 1.8x the box's longer side, 32 px (`vision.view`).
VIEW_GROW, VIEW_SIZE = 1.8, 32
#: Rendered views: this tilt or more is a low view, under `FROM_ABOVE_UNDER` from above, between left out.
LOW_FROM, FROM_ABOVE_UNDER = 25.0, 10.0


def top_crops(image: np.ndarray, box: Sequence[float], rng: np.random.Generator, n: int) -> np.ndarray:
    """`n` top crops (n, 48, 48, 3) of a box: its edges moved up to 6% of its longer side,
    its upper 0.65-0.85 grown by the reader's crop scale and stretched square, half mirrored."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    out = np.empty((n, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    for k in range(n):
        a0, b0, a1, b1 = np.asarray(box) + rng.uniform(-0.06, 0.06, 4) * side
        height = (b1 - b0) * rng.uniform(0.65, 0.85)
        crop = rect_crop(image, (a0 + a1) / 2, b0 + height / 2, (a1 - a0) * CROP_SCALE, height * CROP_SCALE, CROP_SIZE)
        out[k] = crop[:, ::-1] if rng.random() < 0.5 else crop
    return out


#: Rendered dice for the top reader are seen at least this steeply (degrees from straight down).
TOP_RENDER_TILT = (15.0, 55.0)


def rendered_tops(rng: np.random.Generator, n: int, per: int) -> tuple[np.ndarray, np.ndarray]:
    """Top crops (n * per, 48, 48, 3) of `n` rendered upright dice seen from low down, each
    boxed whole as roboflow_dice boxes a die, and their values: the renderer's dice, tables
    and lights, which the real throws alone never show the top reader (C337, C338)."""
    crops, values = [], []
    for _ in range(n):
        value = int(rng.integers(1, 7))
        image, box = render_die_and_box(rng, value, tilt=float(rng.uniform(*TOP_RENDER_TILT)))
        crops.append(top_crops(image, box, rng, per))
        values += [value] * per
    return np.concatenate(crops), np.array(values)


def tune_top_reader(init: dict, crops: np.ndarray, values: np.ndarray, *, steps: int = 2500, batch: int = 64,
                    lr: float = 3e-4, seed: int = 323) -> FaceReader:
    """The reader of checkpoint `init` tuned on top `crops` (N, 48, 48, 3) BGR of dice showing `values` (1-6)."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    model = reader_of(init).train()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in range(steps):
        pick = rng.integers(0, len(crops), batch)
        x = torch.from_numpy(crops[pick].transpose(0, 3, 1, 2).astype(np.float32) / 255)
        loss = nn.functional.cross_entropy(model(x), torch.from_numpy(values[pick] - 1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
    return model.eval()


class ViewNet(nn.Module):
    """Four 3x3 convolutions (three of stride 2) and a logit: is the die seen from low down?"""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for cin, cout, stride in ((3, 16, 2), (16, 32, 2), (32, 64, 2), (64, 64, 1)):
            layers += [nn.Conv2d(cin, cout, 3, stride, 1), nn.BatchNorm2d(cout), nn.ReLU()]
        self.net = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def view_crop(image: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """A 64 px square 1.8x the box's longer side (shrunk to the check's 32 px as it is taught)."""
    x0, y0, x1, y1 = box
    return square_crop(image, (x0 + x1) / 2, (y0 + y1) / 2, VIEW_GROW * max(x1 - x0, y1 - y0), 64)


def rendered_views(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` rendered upright die crops (64 px) and their labels (1: low view), tilts between left out."""
    crops: list[np.ndarray] = []
    labels: list[float] = []
    while len(crops) < n:
        crop, tilt = render_crop_and_tilt(rng, int(rng.integers(1, 7)), size=64, upright=True)
        if FROM_ABOVE_UNDER <= tilt < LOW_FROM:
            continue
        crops.append(crop)
        labels.append(float(tilt >= LOW_FROM))
    return np.stack(crops), np.array(labels, np.float32)


def chase_views(root: Path = caches.DATASETS) -> np.ndarray:
    """chase_dji's train dice (each photo one die, from above) as 64 px crops."""
    crops = []
    for line in (root / "chase_dji" / "labels.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["split"] == "train":
            image = cv2.imread(str(root / "chase_dji" / row["image"]), cv2.IMREAD_COLOR)
            if image is None:
                raise FileNotFoundError(f"chase_dji photo not readable: {row['image']}")
            crops.append(cv2.resize(image, (64, 64), interpolation=cv2.INTER_AREA))
    return np.stack(crops)


def _view_input(crop: np.ndarray, rng: np.random.Generator, *, turn: bool) -> np.ndarray:
    """A 64 px crop as the check is taught it: zoomed 0.85-1.2x, moved up to 3 px, a quarter
    turn where `turn` (a view from above has no up), half mirrored, light changed; 32 px."""
    cx, cy = 32 + rng.uniform(-3, 3), 32 + rng.uniform(-3, 3)
    warp = cv2.getRotationMatrix2D((cx, cy), float(rng.integers(0, 4) * 90) if turn else 0.0,
                                   VIEW_SIZE / (64 * rng.uniform(0.85, 1.2)))
    warp[:, 2] = VIEW_SIZE / 2 - warp[:, :2] @ np.array([cx, cy])
    out = cv2.warpAffine(crop, warp, (VIEW_SIZE, VIEW_SIZE), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.5:
        out = out[:, ::-1]
    return np.clip(out.astype(np.float32) * rng.uniform(0.8, 1.2) + rng.uniform(-20, 20), 0, 255)


def train_view(rendered: tuple[np.ndarray, np.ndarray], above: np.ndarray, low_real: np.ndarray,
               above_real: np.ndarray, *, steps: int = 3000, seed: int = 325) -> ViewNet:
    """The view check taught, each batch of 128: 48 renders, 16 `above` (chase), 32 real low
    views and 32 real views from above (64 px crops)."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    crops, labels = rendered
    model = ViewNet().train()
    opt = torch.optim.Adam(model.parameters(), 2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for _ in range(steps):
        r, a = rng.integers(0, len(crops), 48), rng.integers(0, len(above), 16)
        lo, ab = rng.integers(0, len(low_real), 32), rng.integers(0, len(above_real), 32)
        x = ([_view_input(crops[i], rng, turn=labels[i] == 0) for i in r]
             + [_view_input(above[i], rng, turn=True) for i in a]
             + [_view_input(low_real[i], rng, turn=False) for i in lo]
             + [_view_input(above_real[i], rng, turn=True) for i in ab])
        y = np.r_[labels[r], np.zeros(16), np.ones(32), np.zeros(32)].astype(np.float32)
        logits = model(torch.from_numpy(np.stack(x).transpose(0, 3, 1, 2) / 255).float()).squeeze(1)
        loss = nn.functional.binary_cross_entropy_with_logits(logits, torch.from_numpy(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
    return model.eval()


def export_view(model: ViewNet, path: Path) -> None:
    """The view check as ONNX, its crop contract in the file (`vision.view` reads it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with _legacy_exporter():
        torch.onnx.export(model.eval(), (torch.zeros(1, 3, VIEW_SIZE, VIEW_SIZE),), str(path), input_names=["crops"],
                          output_names=["logit"], dynamic_axes={"crops": {0: "n"}, "logit": {0: "n"}},
                          opset_version=OPSET, dynamo=False)
    _stamp(path, crop_size=VIEW_SIZE, crop_scale=VIEW_GROW, output="logit of: the die is seen from low down")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", type=Path, help="folder whose reader keeps the boxes the networks are shown")
    ap.add_argument("--init", type=Path, required=True, help="the reader checkpoint to tune (from_onnx's reader.pt)")
    ap.add_argument("--out", type=Path, required=True, help="folder to write top_reader.onnx and view.onnx into")
    ap.add_argument("--holdout-fold", type=int, default=None, help="leave this fold (0-4) of every set out")
    ap.add_argument("--per-box", type=int, default=5, help="top crops cut from each box")
    ap.add_argument("--steps", type=int, default=2500, help="the top reader's steps (the view check takes 3,000)")
    ap.add_argument("--renders", type=int, default=9000, help="rendered views for the view check")
    ap.add_argument("--top-renders", type=int, default=6000,
                    help="rendered dice seen from low down among the top reader's crops (2 crops each)")
    ap.add_argument("--no-view", action="store_true",
                    help="write the top reader only, keeping the view check the models folder has")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    reader = DiceReader(args.models, threads=args.threads)
    boxes = [b for b in throw_boxes(reader) if b.fold != args.holdout_fold]
    rng = np.random.default_rng(323)
    crops = np.concatenate(cut_boxes(boxes, lambda image, box: top_crops(image, box, rng, args.per_box)))
    values = np.repeat([b.value for b in boxes], args.per_box)
    if args.top_renders:
        drawn, drawn_values = rendered_tops(np.random.default_rng(336), args.top_renders, 2)
        crops, values = np.concatenate([crops, drawn]), np.concatenate([values, drawn_values])
    print(f"top reader: {len(crops)} crops from {len(boxes)} boxes and {args.top_renders} rendered dice", flush=True)
    tuned = tune_top_reader(torch.load(args.init, map_location="cpu"), crops, values, steps=args.steps)
    export_reader(tuned, args.out / "top_reader.onnx", upright=True)
    if args.no_view:
        print(f"wrote {args.out / 'top_reader.onnx'}")
        return
    low = np.array([b.dataset in LOW_VIEW_SETS for b in boxes])
    views = np.stack(cut_boxes(boxes, view_crop))
    print(f"view check: {low.sum()} real low views, {(~low).sum()} from above, {args.renders} renders", flush=True)
    view = train_view(rendered_views(np.random.default_rng(325), args.renders), chase_views(), views[low], views[~low])
    export_view(view, args.out / "view.onnx")
    print(f"wrote {args.out / 'top_reader.onnx'} and {args.out / 'view.onnx'}")


if __name__ == "__main__":
    main()
