"""Pre-render synthetic reader crops to disk, so reader training is not bound by rendering.

    python -m dicecam.training.data.crop_cache --count 12000      # writes data/synth_crops.npz
    python -m dicecam.training.data.crop_cache --upright          # writes data/synth_crops_upright.npz

`count` crops of dice showing a value (class value - 1), then `--side` crops centred on a
side face (class NOT_A_DIE) from their own random stream, so adding side faces leaves the
value crops as they were. The shipped reader was trained without them: readers taught
rendered side faces refused real top faces too (session 10, models/HISTORY.md).

`--upright` renders its dice as an upright phone sees them (`training.render.scene.render_crop`)
and records which crops may still be turned: those seen from above (`turnable`). The seed
is the same, the dice are not: a camera turned otherwise places the neighbours otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from dicecam.training.data import caches
from dicecam.training.render.scene import keeps_up, render_crop_and_tilt, render_side_crop
from dicecam.training.shapes import NOT_A_DIE

SIZE = 64


def build(count: int, *, side: int = 0, seed: int = 1, path: Path | None = None, upright: bool = False) -> Path:
    """Render the cache to `path`: `count` value crops and `side` side-face crops.

    With `upright`, tilted dice are seen as an upright phone sees them, and the cache
    records per crop whether it may be turned (seen from above) or not.
    """
    rng = np.random.default_rng(seed)
    images = np.empty((count + side, SIZE, SIZE, 3), np.uint8)
    labels = np.empty((count + side,), np.int64)
    turnable = np.ones((count + side,), bool)
    for i in range(count):
        value = int(rng.integers(1, 7))
        images[i], tilt = render_crop_and_tilt(rng, value, size=SIZE, upright=upright)
        labels[i] = value - 1
        turnable[i] = not keeps_up(tilt, upright)
        if i % 1000 == 999:
            print(f"{i + 1}/{count}", flush=True)
    side_rng = np.random.default_rng((seed, 1))
    for i in range(count, count + side):
        images[i] = render_side_crop(side_rng, size=SIZE)
        labels[i] = NOT_A_DIE
    path = path or (caches.UPRIGHT_CROPS if upright else caches.CROPS)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=images, labels=labels, turnable=turnable)
    return path


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=12000, help="crops of dice showing a value")
    p.add_argument("--side", type=int, default=0, help="crops centred on a side face (not a die)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--upright", action="store_true",
                   help=f"dice as an upright phone sees them, into {caches.UPRIGHT_CROPS}")
    args = p.parse_args(argv)
    print(build(args.count, side=args.side, seed=args.seed, upright=args.upright,
                path=caches.UPRIGHT_CROPS if args.upright else caches.CROPS))


if __name__ == "__main__":
    main()
