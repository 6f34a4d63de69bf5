"""Grow a trained network wider without changing what it computes (Net2WiderNet).

    python -m dicecam.training.learn.widen runs/det72/detector.pt runs/det72-deep2/detector.pt --deep 2
    python -m dicecam.training.learn.train reader --init runs/shipped/reader.pt --reader-wide 2 ...   # a reader

A layer made k times wider holds k copies of each old channel: its weights and batch-norm
statistics copied, and every layer that reads it splits each old input weight among the
copies (shares that add up to one), so the wider network's output is the old one's. The
shares are drawn at random, so the copies learn apart from the first step on; equal
halves would keep them twins forever. Training then starts from the old network's skill
with the room to learn more (`train detector --init OLD --deep 2` widens this way too).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch


def widened(old: torch.Tensor, shape: torch.Size | tuple[int, ...], *, generator: torch.Generator,
            reads_channels: bool) -> torch.Tensor:
    """`old` grown to `shape`, each dimension a whole multiple of its old size.

    Along every grown dimension, new index i is old index i mod the old size. Where the
    tensor `reads_channels` (a convolution's weight, dimension 1 its input channels), the
    copies of one input channel share its weight in random parts that sum to it.
    """
    if len(shape) != old.dim():
        raise ValueError(f"cannot widen a tensor of shape {tuple(old.shape)} to {tuple(shape)}")
    out = old
    for dim, (was, now) in enumerate(zip(old.shape, shape)):
        if now == was:
            continue
        if now % was:
            raise ValueError(f"dimension {dim} grows from {was} to {now}, not a whole multiple")
        copies = now // was
        out = out.repeat(*[copies if d == dim else 1 for d in range(out.dim())])
        if dim == 1 and reads_channels:
            out = out * _shares(out.shape, copies, was, generator).to(out.dtype)
    return out.contiguous()


def _shares(shape: torch.Size, copies: int, was: int, generator: torch.Generator) -> torch.Tensor:
    """Random parts along dimension 1 (`copies` blocks of `was`) that add up to one per old channel."""
    raw = torch.rand((shape[0], copies, was, *shape[2:]), generator=generator) + 0.5
    return (raw / raw.sum(dim=1, keepdim=True)).reshape(shape)


def widen_state(old: dict[str, torch.Tensor], own: dict[str, torch.Tensor], *,
                seed: int = 0) -> dict[str, torch.Tensor]:
    """`old` weights fitted to a wider network whose own (fresh) weights are `own`: every
    tensor whose shape grew is widened (`widened`), the others are taken as they are."""
    generator = torch.Generator().manual_seed(seed)
    out = {}
    for name, tensor in old.items():
        target = own.get(name)
        if target is None or target.shape == tensor.shape:
            out[name] = tensor
            continue
        # A 4-D weight reads channels along dimension 1 unless it is depthwise (one per group);
        # a 2-D one is a linear head reading the pooled channels.
        reads = name.endswith("weight") and (tensor.dim() == 2 or (tensor.dim() == 4 and tensor.shape[1] > 1))
        out[name] = widened(tensor, target.shape, generator=generator, reads_channels=reads)
    return out


def main(argv: list[str] | None = None) -> None:
    from dicecam.training.learn.nets import DiceDetector, deep_of

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkpoint", type=Path, help="a detector.pt to widen")
    p.add_argument("out", type=Path, help="where the widened detector.pt goes")
    p.add_argument("--deep", type=int, default=2, help="how many times wider its stride-8 and coarser layers become")
    p.add_argument("--seed", type=int, default=0, help="draws the copies' shares")
    args = p.parse_args(argv)
    old = torch.load(args.checkpoint, map_location="cpu")
    if args.deep % deep_of(old):
        p.error(f"the checkpoint is already {deep_of(old)} times as deep; --deep must be a multiple of that")
    wide = DiceDetector(deep=args.deep)
    wide.load_state_dict(widen_state(old, wide.state_dict(), seed=args.seed))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(wide.state_dict(), args.out)
    print(f"{args.checkpoint} -> {args.out}: stride-8 and coarser layers {args.deep // deep_of(old)} times as wide")


if __name__ == "__main__":
    main()
