"""Pre-render synthetic reader crops to disk, so reader training is not bound by rendering.

    python -m training.crop_cache --count 12000      # writes data/synth_crops.npz
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from training.synth import render_crop

CACHE = Path("data") / "synth_crops.npz"
SIZE = 64


def build(count: int, *, seed: int = 1, path: Path = CACHE) -> Path:
    rng = np.random.default_rng(seed)
    images = np.empty((count, SIZE, SIZE, 3), np.uint8)
    labels = np.empty((count,), np.int64)
    for i in range(count):
        value = int(rng.integers(1, 7))
        images[i] = render_crop(rng, value, size=SIZE)
        labels[i] = value - 1
        if i % 1000 == 999:
            print(f"{i + 1}/{count}", flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=images, labels=labels)
    return path


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=12000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print(build(args.count, seed=args.seed))


if __name__ == "__main__":
    main()
