"""A thinner count's search network taught to give the shipped one's maps (C394, models/HISTORY.md).

    python -m dicecam.training.learn.distil_search --out runs/c394 [--minutes 60]
        [--widths 16,32] [--teacher models/search.onnx] [--scenes 300]

The search network's figures are noise at its size when it learns from labels (S272, S273):
a student taught the teacher's own maps keeps its peaks where they were, so a cheaper network
can change the reading as little as possible. The photos are the train splits of roboflow_dice,
byler_d6 and matteop65_wood (never a dev photo) and rendered clutter of a seed the benchmarks do
not use, each given to the teacher as the search gives it a photo (enlarged to its 1,280 px),
and at its own size too. The student learns from 384 px crops of those (most around the
teacher's peaks), the teacher's maps over the whole photo as its targets, cells near a crop's
cut edge left out. Writes `search.pt` and `search.onnx` (the teacher's peak threshold) into `--out`.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from dicecam.training.learn.export import export_search
from dicecam.training.learn.nets import SearchDetector
from dicecam.vision.detector import shrink
from dicecam.vision.halvings import Halvings
from dicecam.vision.onnx import metadata, session

SETS = ("roboflow_dice", "byler_d6", "matteop65_wood")
CROP = 384
EDGE_CELLS = 3  # cells this near a crop's cut edge see padding the whole photo does not have


def search_view(image: np.ndarray, *, side: int = 1280, first_side: int = 512, scale: float = 2.5) -> np.ndarray:
    """The photo as the count's search gives it to its network (`DieDetector.search`)."""
    h, w = image.shape[:2]
    zscale = min(scale * first_side / max(h, w), side / max(h, w))
    photo = Halvings(image)
    source, own = photo.for_scale(zscale)
    return shrink(source, zscale / own, averaged=own < 1)


def padded(image: np.ndarray) -> np.ndarray:
    """CHW float32 in 0..1, padded with zeros to multiples of 32 as the detector pads."""
    h, w = image.shape[:2]
    ph, pw = -(-h // 32) * 32, -(-w // 32) * 32
    x = np.zeros((3, ph, pw), np.float32)
    x[:, :h, :w] = image.transpose(2, 0, 1) * np.float32(1 / 255)
    return x


def photos(shared: Path, scenes: int) -> list[np.ndarray]:
    """The train photos of `SETS` and `scenes` rendered clutter scenes (BGR uint8)."""
    from dicecam.training.data.sources import synth_scene_source
    from dicecam.vision.dataset import read_dataset
    from dicecam.vision.decode import load_image

    out = [load_image(p.path) for name in SETS for p in read_dataset(shared / name, split="train") if not p.crop]
    draw = synth_scene_source(upright=True, clutter=1.0)
    if draw is not None:
        rng = np.random.default_rng([394, 80])
        out += [draw(rng).image for _ in range(scenes)]
    return out


def teacher_views(images: list[np.ndarray], teacher_path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """(uint8 view, teacher maps float16) for each photo's search view and its own-size view."""
    teacher = session(teacher_path, 2)
    out = []
    for image in images:
        views = [search_view(image)]
        if max(image.shape[:2]) <= 1280:
            views.append(image)
        for view in views:
            maps = teacher.run(None, {"image": padded(view)[None]})[0][0]
            out.append((view, maps.astype(np.float16)))
    return out


def batch(views: list[tuple[np.ndarray, np.ndarray]], rng: np.random.Generator, size: int, stride: int
          ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """`size` crops: inputs (N, 3, CROP, CROP), the teacher's maps there and each cell's weight."""
    cells = CROP // stride
    xs = np.zeros((size, 3, CROP, CROP), np.float32)
    ts = np.zeros((size, 5, cells, cells), np.float32)
    ws = np.zeros((size, cells, cells), np.float32)
    for n in range(size):
        view, maps = views[rng.integers(len(views))]
        x = padded(view)
        _, ph, pw = x.shape
        heat = 1 / (1 + np.exp(-maps[0].astype(np.float32)))
        ys, xs_ = np.nonzero(heat > 0.2)
        if len(ys) and rng.random() < 0.6:  # around one of the teacher's peaks
            k = rng.integers(len(ys))
            cy, cx = ys[k] * stride, xs_[k] * stride
            y0, x0 = cy - rng.integers(64, CROP - 64), cx - rng.integers(64, CROP - 64)
        else:
            y0, x0 = rng.integers(-64, max(ph - CROP, 0) + 64), rng.integers(-64, max(pw - CROP, 0) + 64)
        # Offsets on the 32 px grid keep every stride's cells where the whole photo has them.
        y0 = int(np.clip(y0 // 32 * 32, 0, max(ph - CROP, 0)))
        x0 = int(np.clip(x0 // 32 * 32, 0, max(pw - CROP, 0)))
        part = x[:, y0:y0 + CROP, x0:x0 + CROP]
        xs[n, :, :part.shape[1], :part.shape[2]] = part
        m = maps[:, y0 // stride:(y0 + CROP) // stride, x0 // stride:(x0 + CROP) // stride].astype(np.float32)
        ts[n, :, :m.shape[1], :m.shape[2]] = m
        w = np.zeros((cells, cells), np.float32)
        w[:m.shape[1], :m.shape[2]] = 1.0
        if y0 > 0:
            w[:EDGE_CELLS] = 0
        if x0 > 0:
            w[:, :EDGE_CELLS] = 0
        if y0 + CROP < ph:
            w[m.shape[1] - EDGE_CELLS:] = 0
        if x0 + CROP < pw:
            w[:, m.shape[2] - EDGE_CELLS:] = 0
        ws[n] = w
    return torch.from_numpy(xs), torch.from_numpy(ts), torch.from_numpy(ws)


def distil_loss(out: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Soft-target BCE on the heat map, heavier where the teacher sees a die, and L1 on the
    sizes and offsets where it does (they only matter at its peaks)."""
    p = torch.sigmoid(target[:, 0])
    heat = F.binary_cross_entropy_with_logits(out[:, 0], p, reduction="none")
    heat = (heat * weight * (1 + 20 * p)).sum() / weight.sum().clamp(min=1)
    at = weight * p
    rest = ((out[:, 1:] - target[:, 1:]).abs().sum(1) * at).sum() / at.sum().clamp(min=1e-3)
    return heat + 0.5 * rest


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[3] / "shared" / "datasets")
    p.add_argument("--teacher", type=Path, default=Path(__file__).resolve().parents[2] / "models" / "search.onnx")
    p.add_argument("--widths", default="16,32", help="channels of the stride-4 and stride-8 layers")
    p.add_argument("--minutes", type=float, default=60.0)
    p.add_argument("--batch", type=int, default=12)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--scenes", type=int, default=300)
    p.add_argument("--steps", type=int, default=None, help="stop after this many steps (a timing run)")
    args = p.parse_args(argv)
    torch.manual_seed(394)
    rng = np.random.default_rng(394)
    start = time.time()
    views = teacher_views(photos(args.shared, args.scenes), args.teacher)
    stride = int(metadata(session(args.teacher, 1), "stride", 8))
    min_score = metadata(session(args.teacher, 1), "min_score", 0.25)
    print(f"{len(views)} views with the teacher's maps in {time.time() - start:.0f} s", flush=True)
    c2, c3 = (int(v) for v in args.widths.split(","))
    model = SearchDetector(c2, c3)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget, begun, step, seen = args.minutes * 60, time.time(), 0, []
    while time.time() - begun < budget and (args.steps is None or step < args.steps):
        done = (time.time() - begun) / budget
        for group in opt.param_groups:  # cosine over the time budget, after a short warm-up
            group["lr"] = args.lr * min(1.0, (step + 1) / 200) * 0.5 * (1 + math.cos(math.pi * min(done, 1.0)))
        x, t, w = batch(views, rng, args.batch, stride)
        loss = distil_loss(model(x), t, w)
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen.append(float(loss.detach()))
        step += 1
        if step % 100 == 0:
            print(f"step {step} ({time.time() - begun:.0f} s): loss {np.mean(seen[-100:]):.4f}", flush=True)
            args.out.mkdir(parents=True, exist_ok=True)
            torch.save(model.state_dict(), args.out / "search.pt")
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), args.out / "search.pt")
    export_search(model.eval(), args.out / "search.onnx", min_score=min_score)
    print(f"{step} steps; wrote {args.out / 'search.onnx'}", flush=True)


if __name__ == "__main__":
    main()
