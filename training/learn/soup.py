"""Average the weights of several fine-tunes of one detector or reader ("model soup").

    python -m dicecam.training.learn.soup runs/a/detector.pt runs/b/detector.pt --out models [--checkpoint runs/soup.pt]
    python -m dicecam.training.learn.soup runs/a/reader.pt runs/b/reader.pt --reader [--upright] --out models

Fine-tunes that start from the same weights and move only a little stay in one basin of
the loss, where the mean of their weights is itself a working network. Writes the
averaged network as `detector.onnx` (with the shipped peak threshold) or, with
`--reader`, `reader.onnx` (`--upright`: tunes trained upright) to --out, and its weights
to --checkpoint if given.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path

import torch


class SoupError(ValueError):
    """The checkpoints cannot be averaged: they are not the same network."""


def average_states(states: Sequence[Mapping[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The element-wise mean of `states`, key by key, in the first state's dtypes.

    Integer entries (batch norm's step counters) are counts, not weights: the first
    state's value is kept, since a mean of counts means nothing to the network.
    """
    if not states:
        raise SoupError("no checkpoints to average")
    keys = list(states[0])
    for number, state in enumerate(states[1:], start=2):
        if list(state) != keys:
            raise SoupError(f"checkpoint {number} holds other layers than checkpoint 1")
    soup: dict[str, torch.Tensor] = {}
    for key in keys:
        first = states[0][key]
        shapes = {tuple(state[key].shape) for state in states}
        if len(shapes) != 1:
            raise SoupError(f"layer {key!r} has different shapes: {sorted(shapes)}")
        if not first.is_floating_point():
            soup[key] = first.clone()
            continue
        soup[key] = torch.stack([state[key].double() for state in states]).mean(dim=0).to(first.dtype)
    return soup


def main(argv: list[str] | None = None) -> None:
    from dicecam.training.learn.export import export_detector, export_reader
    from dicecam.training.learn.nets import READER_SIZE, DiceDetector, FaceReader, deep_of, reader_of

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkpoints", type=Path, nargs="+",
                   help="detector.pt (or reader.pt) files of fine-tunes of one network")
    p.add_argument("--out", type=Path, required=True, help="folder for the averaged detector.onnx (reader.onnx)")
    p.add_argument("--checkpoint", type=Path, default=None, help="also save the averaged weights here")
    p.add_argument("--reader", action="store_true", help="the checkpoints are face readers")
    p.add_argument("--upright", action="store_true", help="readers trained with --upright (recorded in reader.onnx)")
    p.add_argument("--crop-size", type=int, default=READER_SIZE, metavar="PX",
                   help=f"readers trained with --crop-size (default {READER_SIZE}; recorded in reader.onnx)")
    args = p.parse_args(argv)
    if args.upright and not args.reader:
        p.error("--upright is for readers: use it with --reader")
    soup = average_states([torch.load(path, map_location="cpu") for path in args.checkpoints])
    if args.reader:
        network: FaceReader | DiceDetector = reader_of(soup)  # built for the soup, its weights loaded
    else:
        network = DiceDetector(deep=deep_of(soup))
        network.load_state_dict(soup)
    if args.checkpoint is not None:
        args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
        torch.save(soup, args.checkpoint)
    if isinstance(network, FaceReader):
        export_reader(network, args.out / "reader.onnx", upright=args.upright, crop_size=args.crop_size)
    else:
        export_detector(network, args.out / "detector.onnx")
    print(f"averaged {len(args.checkpoints)} checkpoints into {args.out}")


if __name__ == "__main__":
    main()
