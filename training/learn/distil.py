"""Teach a cheaper detector to compute what a trained one does (distillation).

    python -m dicecam.training.learn.distil runs/shipped/detector.pt --out runs/D245 --no-stem-block
        [--steps N | --seconds S] [--device cuda] [--workers 14] [--batch 32] [--init FILE]

The teacher (a `detector.pt`, e.g. restored from the shipped file by `training.learn.from_onnx`)
and the student see the same crops: real train photos and rendered game tables, each scaled
so its long side is 300-1,400 px (from the first look's 512 px to the count's 1,280 px
search) and cut to a square, zero-padded as `vision` pads. The student learns the teacher's
maps, not labels: where it matches them, the reader's rules, chosen for the teacher, hold
for it too. `--no-stem-block` drops the separable block at half resolution, a fifth of the
detector's time at 1,280 px (models/HISTORY.md, D245). Writes `detector.pt` and
`detector.onnx` to --out.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

from dicecam.training.data.caches import DATASETS
from dicecam.training.learn.export import export_detector
from dicecam.training.learn.nets import DiceDetector, detector_of
from dicecam.vision.dataset import read_dataset

CROP = 512
#: The long side a photo is scaled to before the crop is cut.
SIDES = (300.0, 1400.0)
#: The sets whose train photos are distilled on (chase_dji holds single-die crops, no tables).
PHOTO_SETS = ("roboflow_dice", "byler_d6", "matteop65_wood")
#: Logits beyond this are the same "no die" to the reader's rules: matching them further wastes the student.
HEAT_CLAMP = 9.0


class DistilError(ValueError):
    """A teacher or student this distillation cannot use."""


def without_stem_block(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A detector's weights without its stem's separable block (`DiceDetector(stem_block=False)`)."""
    return {name: weights for name, weights in state.items() if not name.startswith("stem.1.")}


def distil_loss(student: torch.Tensor, teacher: torch.Tensor, *, peak_weight: float = 20.0) -> torch.Tensor:
    """How far the student's maps lie from the teacher's (both N x 5 x H x W logits).

    Heat: squared logit error, each cell weighted by 1 + `peak_weight` x the teacher's heat,
    so that its peaks count, not how deep the background lies (unweighted, D245a's peaks
    came out weak). Box size and offset: squared error where the teacher sees a die.
    """
    if teacher.shape[1] != 5 or student.shape != teacher.shape:
        raise DistilError("only a top-face detector's five maps can be distilled "
                          f"(teacher {tuple(teacher.shape)}, student {tuple(student.shape)})")
    heat = torch.sigmoid(teacher[:, 0])
    cell = 1 + peak_weight * heat
    heat_error = ((student[:, 0] - teacher[:, 0].clamp(-HEAT_CLAMP, HEAT_CLAMP)) ** 2 * cell).sum() / cell.sum()
    where = heat[:, None] + 0.02
    box_error = ((student[:, 1:] - teacher[:, 1:]) ** 2 * where).sum() / (where.sum() * 4)
    return heat_error + 4 * box_error


def scaled_crop(image: np.ndarray, rng: np.random.Generator, *, crop: int = CROP,
                sides: tuple[float, float] = SIDES) -> np.ndarray:
    """A `crop` x `crop` uint8 window of `image` scaled to a random long side in `sides`,
    zero-padded right and below where it is smaller (as the detector's input is padded)."""
    h, w = image.shape[:2]
    scale = math.exp(rng.uniform(math.log(sides[0]), math.log(sides[1]))) / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    scaled = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    y0 = int(rng.integers(0, max(1, size[1] - crop + 1)))
    x0 = int(rng.integers(0, max(1, size[0] - crop + 1)))
    window = scaled[y0:y0 + crop, x0:x0 + crop]
    out = np.zeros((crop, crop, 3), np.uint8)
    out[:window.shape[0], :window.shape[1]] = window
    return out


def train_photos(root: Path = DATASETS, sets: Sequence[str] = PHOTO_SETS) -> list[Path]:
    """The train photos of `sets` (single-die crops left out)."""
    return [photo.path for name in sets for photo in read_dataset(root / name, split="train") if not photo.crop]


class Crops(IterableDataset):
    """Endless `scaled_crop`s (3 x crop x crop uint8 tensors): of `photos`, and a `rendered`
    share of rendered throws, `clutter` of them on a game table; each worker draws its own."""

    def __init__(self, photos: Sequence[Path], *, rendered: float = 0.4, clutter: float = 0.6,
                 crop: int = CROP, seed: int = 0) -> None:
        if not photos and rendered < 1:
            raise DistilError("no photos to distil on")
        self.photos, self.rendered, self.clutter, self.crop, self.seed = list(photos), rendered, clutter, crop, seed

    def __iter__(self) -> Iterator[torch.Tensor]:
        from dicecam.training.render.scene import render_scene

        info = get_worker_info()
        rng = np.random.default_rng([self.seed, info.id if info else 0])
        while True:
            if rng.random() < self.rendered:
                image = render_scene(rng, upright=True, clutter=self.clutter).image
            else:
                path = self.photos[int(rng.integers(len(self.photos)))]
                read = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if read is None:
                    raise FileNotFoundError(f"cannot read the photo {path}")
                image = read
            yield torch.from_numpy(scaled_crop(image, rng, crop=self.crop)).permute(2, 0, 1)


def photo_changes(batch: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """uint8 crops as the detector's float input (0..1), with random colour gains, contrast,
    brightness and sensor noise drawn on the batch's device: both networks see the same."""
    n = batch.shape[0]
    dev = batch.device

    def draw(*shape: int, low: float, high: float) -> torch.Tensor:
        return low + (high - low) * torch.rand(*shape, 1, 1, device=dev, generator=generator)

    x = batch.float() / 255
    x = x * draw(n, 3, low=0.75, high=1.25) * draw(n, 1, low=0.8, high=1.2) + draw(n, 1, low=-0.08, high=0.08)
    noise = draw(n, 1, low=0.0, high=0.03) * (torch.rand(n, 1, 1, 1, device=dev, generator=generator) < 0.5)
    x = x + torch.randn(x.shape, device=dev, generator=generator) * noise
    # The padding stays black: the detector's input is padded with zeros.
    return (x.clamp(0, 1) * (batch.amax(dim=1, keepdim=True) > 0)).contiguous()


def distil(teacher: DiceDetector, student: DiceDetector, crops: DataLoader, *, steps: int | None = None,
           seconds: float | None = None, lr: float = 5e-4, peak_weight: float = 20.0,
           device: str = "cpu", seed: int = 0, log_every: int = 100) -> DiceDetector:
    """Teach `student` the teacher's maps on `crops`' batches, for `steps` or `seconds`
    (whichever ends first), learning rate warming up then falling to 0 on a cosine.
    Batch norms keep their statistics (both start as one network)."""
    if steps is None and seconds is None:
        raise DistilError("say how long to distil: steps or seconds")
    dev = torch.device(device)
    teacher = teacher.to(dev).eval().requires_grad_(False)
    student = student.to(dev).eval().requires_grad_(True)
    opt = torch.optim.AdamW(student.parameters(), lr=lr, weight_decay=0.0)
    generator = torch.Generator(device=dev).manual_seed(seed)
    start, step, running = time.monotonic(), 0, 0.0
    for batch in crops:
        progress = max(step / steps if steps else 0.0, (time.monotonic() - start) / seconds if seconds else 0.0)
        if progress >= 1:
            break
        for group in opt.param_groups:
            group["lr"] = lr * min(1.0, progress / 0.05) * 0.5 * (1 + math.cos(math.pi * progress))
        x = photo_changes(batch.to(dev, non_blocking=True), generator)
        with torch.no_grad():
            target = teacher(x)
        loss = distil_loss(student(x), target, peak_weight=peak_weight)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        running += float(loss.detach())
        if step % log_every == 0:
            print(f"step {step}, {time.monotonic() - start:.0f} s: loss {running / log_every:.4f}", flush=True)
            running = 0.0
    return student.cpu().eval()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("teacher", type=Path, help="the trained detector's detector.pt")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--init", type=Path, default=None, help="the student's start (default: the teacher's weights)")
    p.add_argument("--no-stem-block", action="store_true", help="the student drops the stem's separable block")
    p.add_argument("--steps", type=int, default=None)
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--peak-weight", type=float, default=20.0)
    p.add_argument("--rendered", type=float, default=0.4, help="share of rendered throws among the crops")
    p.add_argument("--device", default="cpu")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=245)
    args = p.parse_args(argv)
    if args.steps is None and args.seconds is None:
        p.error("give --steps or --seconds")
    teacher_state = torch.load(args.teacher)
    teacher = detector_of(teacher_state)
    if args.init is not None:
        student = detector_of(torch.load(args.init))
    else:
        student = detector_of(without_stem_block(teacher_state) if args.no_stem_block else teacher_state)
    crops = DataLoader(Crops(train_photos(), rendered=args.rendered, seed=args.seed), batch_size=args.batch,
                       num_workers=args.workers, persistent_workers=args.workers > 0,
                       pin_memory=args.device != "cpu")
    student = distil(teacher, student, crops, steps=args.steps, seconds=args.seconds, lr=args.lr,
                     peak_weight=args.peak_weight, device=args.device, seed=args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(student.state_dict(), args.out / "detector.pt")
    export_detector(student, args.out / "detector.onnx")
    print(f"student -> {args.out / 'detector.onnx'}")


if __name__ == "__main__":
    main()
