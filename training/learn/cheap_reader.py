"""A cheaper reader taught the shipped reader's readings (distillation; C343 in models/HISTORY.md).

    python -m dicecam.training.learn.from_onnx models/reader.onnx runs/shipped/reader.pt
    python -m dicecam.training.data.pipeline_crops data/pipeline_crops.npz --rendered 800
    python -m dicecam.training.learn.cheap_reader data/pipeline_crops.npz --teacher runs/shipped/reader.pt \\
        --out runs/cheap [--layer-minutes 15] [--minutes 45] [--device cuda]

`SeparableReader` reads the same 48 px crop as the reader, through the reader's own first
convolution (copied, kept) and then, for each of its other six 3x3 convolutions, two
separable steps (depthwise 3x3, pointwise 1x1): 0.095 ms a crop in onnxruntime on 2 cores
against the reader's 0.19. Each of those blocks is first taught its teacher layer's output
from that layer's input (all at once, each from the teacher's own features), then the whole
student the teacher's probabilities on the crops the pipeline itself reads
(`training.data.pipeline_crops`), turned, mirrored and jittered. Every `HELD_OUT`th photo's
crops are never taught: `agreement` on them says whether the student reads as the teacher
does. On 2 CPU cores half an hour reached 92% of the teacher's values and a less sure student,
an hour 92.8% (C343: the gate is 99%): a plateau; a wider `PLAN` on a lent GPU
(`training/device_run.sh`) is the lead.
"""

from __future__ import annotations

import argparse
import copy
import math
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from dicecam.training.learn.export import export_reader
from dicecam.training.learn.nets import FaceReader, reader_of

#: Every HELD_OUT-th photo's crops are kept out of teaching, to judge the student on.
HELD_OUT = 10
#: The reader's layers after its first: (input channels, output channels, stride).
PLAN = ((16, 32, 2), (32, 32, 1), (32, 64, 2), (64, 64, 1), (64, 128, 2), (128, 128, 1))


def separable(cin: int, cout: int, stride: int) -> nn.Sequential:
    """Two separable steps in place of one 3x3 convolution: a 5x5 view and twice the mixing."""
    return nn.Sequential(nn.Conv2d(cin, cin, 3, stride, 1, groups=cin), nn.ReLU(), nn.Conv2d(cin, cout, 1), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, 1, 1, groups=cout), nn.ReLU(), nn.Conv2d(cout, cout, 1), nn.ReLU())


class SeparableReader(nn.Module):
    """The reader's contract (48 px crop in, logits of values 1-6 and "not a die" out) at
    about half its onnxruntime time: the teacher's first convolution, then `PLAN` as
    separable blocks, one average over the crop and a linear head."""

    def __init__(self, teacher: FaceReader) -> None:
        super().__init__()
        self.contrast = copy.deepcopy(teacher.contrast)
        first = copy.deepcopy(teacher.features[0])
        for weights in first.parameters():
            weights.requires_grad_(False)  # the teacher's own first look at the pixels, kept
        self.features = nn.Sequential(first, *(separable(*layer) for layer in PLAN), nn.AdaptiveAvgPool2d(1))
        self.classify = nn.Sequential(nn.Flatten(), nn.Linear(PLAN[-1][1], 7))

    def train(self, mode: bool = True) -> SeparableReader:
        super().train(mode)
        self.features[0].eval()  # its batch-norm statistics are the teacher's
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classify(self.features(self.contrast(x)))


def teacher_features(teacher: FaceReader, x: torch.Tensor) -> list[torch.Tensor]:
    """The teacher's input to each layer and each layer's output, in order (x's contrast applied)."""
    out = [teacher.contrast(x)]
    for layer in list(teacher.features)[: len(PLAN) + 1]:
        out.append(layer(out[-1]))
    return out


def layer_loss(student: SeparableReader, features: list[torch.Tensor]) -> torch.Tensor:
    """Each block's squared error against its teacher layer's output, from that layer's
    input, relative to the output's variance, summed over the blocks."""
    loss = features[0].new_zeros(())
    for i in range(1, len(PLAN) + 1):
        target = features[i + 1]
        loss = loss + ((student.features[i](features[i]) - target) ** 2).mean() / (target.var() + 1e-6)
    return loss


def _centred(logits: torch.Tensor) -> torch.Tensor:
    return logits - logits.mean(dim=1, keepdim=True)


def reading_loss(student_logits: torch.Tensor, teacher_logits: torch.Tensor) -> torch.Tensor:
    """KL divergence from the teacher's probabilities, plus a little of the squared gap of the
    centred logits, so that sure readings stay as sure as the teacher's."""
    target = torch.softmax(teacher_logits, dim=1)
    kl = (target * (torch.log(target + 1e-9) - torch.log_softmax(student_logits, dim=1))).sum(dim=1).mean()
    return kl + 0.05 * ((_centred(student_logits) - _centred(teacher_logits)) ** 2).mean()


def jittered(crops: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Crops (N, 3, S, S) uint8 turned and mirrored any of 8 ways; half also shifted up to
    2.5 px, scaled 0.9-1.1 and turned up to 12 degrees, half of those lit otherwise."""
    out = np.empty_like(crops)
    side = crops.shape[-1]
    for i, crop in enumerate(crops):
        crop = np.rot90(crop, int(rng.integers(4)), axes=(1, 2))
        if rng.random() < 0.5:
            crop = crop[:, :, ::-1]
        if rng.random() < 0.5:
            middle = (side - 1) / 2
            turn = np.array(cv2.getRotationMatrix2D((middle, middle), rng.uniform(-12, 12), rng.uniform(0.9, 1.1)),
                            np.float64)
            turn[:, 2] += rng.uniform(-2.5, 2.5, 2)
            crop = cv2.warpAffine(np.ascontiguousarray(crop.transpose(1, 2, 0)), turn, (side, side),
                                  flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).transpose(2, 0, 1)
            if rng.random() < 0.5:
                lit = crop.astype(np.float32) * rng.uniform(0.75, 1.25) + rng.uniform(-20, 20)
                crop = np.clip(lit, 0, 255).astype(np.uint8)
        out[i] = crop
    return out


@dataclass(frozen=True)
class Agreement:
    """How a student reads the crops the teacher reads as a die (top value at `DIE_AT`+)."""

    crops: int
    same_value: float  # share read as the same class
    sure_crossed: float  # share on the other side of the sure line (`SURE_AT`) than the teacher

    DIE_AT = 0.5
    SURE_AT = 0.7


def agreement(teacher: np.ndarray, student: np.ndarray) -> Agreement:
    """`Agreement` of two readers' class probabilities (N, 7) of the same crops."""
    top = teacher[:, :6].max(axis=1)
    die = top >= Agreement.DIE_AT
    if not die.any():
        return Agreement(0, 1.0, 0.0)
    same = teacher.argmax(axis=1) == student.argmax(axis=1)
    crossed = (top >= Agreement.SURE_AT) != (student[:, :6].max(axis=1) >= Agreement.SURE_AT)
    return Agreement(int(die.sum()), float(same[die].mean()), float(crossed[die].mean()))


def probabilities(net: nn.Module, crops: np.ndarray, device: str, batch: int = 1024) -> np.ndarray:
    """A network's class probabilities (N, 7) of uint8 crops."""
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(crops), batch):
            x = torch.from_numpy(crops[i:i + batch].astype(np.float32) / 255).to(device)
            out.append(torch.softmax(net(x), dim=1).cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, 7), np.float32)


def distil(teacher: FaceReader, crops: np.ndarray, *, layer_minutes: float, minutes: float, device: str = "cpu",
           batch: int = 256, seed: int = 343, log_every: int = 100, max_steps: int | None = None) -> SeparableReader:
    """A `SeparableReader` taught `teacher`'s readings on uint8 `crops`: its blocks layer by
    layer for `layer_minutes`, then the whole for `minutes` (Adam, lr 1e-3 on a cosine over
    the time; `max_steps` caps each stage, for tests)."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    teacher = teacher.to(device).eval()
    for frozen in teacher.parameters():
        frozen.requires_grad_(False)
    student = SeparableReader(teacher).to(device)

    def drawn() -> torch.Tensor:
        chosen = jittered(crops[rng.integers(0, len(crops), batch)], rng)
        return torch.from_numpy(chosen.astype(np.float32) / 255).to(device)

    for stage, budget in (("layers", layer_minutes), ("whole", minutes)):
        trainable = [w for w in student.parameters() if w.requires_grad]
        step_size = 3e-3 if stage == "layers" else 1e-3
        optimiser = torch.optim.Adam(trainable, lr=step_size)
        start, step = time.monotonic(), 0
        student.train()
        while (time.monotonic() - start) < budget * 60 and (max_steps is None or step < max_steps):
            done = (time.monotonic() - start) / max(budget * 60, 1e-9)
            for group in optimiser.param_groups:
                group["lr"] = step_size * 0.5 * (1 + math.cos(math.pi * min(done, 1.0)))
            x = drawn()
            with torch.no_grad():
                features = teacher_features(teacher, x)
            if stage == "layers":
                loss = layer_loss(student, features)
            else:
                with torch.no_grad():
                    taught = teacher.classify(teacher.features[len(PLAN) + 1:](features[-1]))
                loss = reading_loss(student(x), taught)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step += 1
            if log_every and step % log_every == 0:
                print(f"{stage} {step} ({time.monotonic() - start:.0f} s): loss {loss.item():.4f}", flush=True)
    return student.eval()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("crops", type=Path, help="pipeline_crops' .npz")
    ap.add_argument("--teacher", type=Path, required=True, help="the reader to teach from (from_onnx's reader.pt)")
    ap.add_argument("--out", type=Path, required=True, help="folder for cheap_reader.pt and reader.onnx")
    ap.add_argument("--layer-minutes", type=float, default=15.0)
    ap.add_argument("--minutes", type=float, default=45.0)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    with np.load(args.crops) as stored:
        crops, photos = stored["crops"], stored["photos"]
    held = photos % HELD_OUT == 0
    teacher = reader_of(torch.load(args.teacher, map_location="cpu"))
    print(f"cheap reader: {int((~held).sum())} crops taught, {int(held.sum())} held out", flush=True)
    student = distil(teacher, crops[~held], layer_minutes=args.layer_minutes, minutes=args.minutes,
                     device=args.device, batch=args.batch)
    judged = agreement(probabilities(teacher, crops[held], args.device),
                       probabilities(student, crops[held], args.device))
    print(f"held out: {judged.crops} crops read as dice; same value {judged.same_value:.4f}, "
          f"sure line crossed {judged.sure_crossed:.4f} (C343's gate: 0.99 and 0.015)")
    args.out.mkdir(parents=True, exist_ok=True)
    torch.save(student.cpu().state_dict(), args.out / "cheap_reader.pt")
    export_reader(student.cpu(), args.out / "reader.onnx", upright=True)
    print(f"wrote {args.out / 'reader.onnx'}")


if __name__ == "__main__":
    main()
