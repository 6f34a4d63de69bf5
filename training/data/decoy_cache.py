"""Rendered game-table decoys, cut as the reader sees a box: what it must learn is no die.

    python -m dicecam.training.data.decoy_cache --scenes 3000        # writes data/decoys.npz
    python -m dicecam.training.learn.train reader --decoy-share 0.15 ...

Reader training met a rendered scene's decoys as one crop of a scene drawn a tenth of the
time, so a numeral die, a domino or a token was about one crop in five hundred: the
shipped reader reads every sure numeral d6 of the rendered clutter benchmark as a 1 (any
single mark in a face's middle is a 1's pip to it). This renders cluttered scenes once and
keeps windows on their decoys with each one's kind (at most `PER_KIND` of a kind a scene,
so a cloth's hundreds of printed eyes do not crowd out the one numeral die), for training
to draw kind by kind at whatever share it asks (`sources.decoy_source`).

The windows are framed as `reader_crops.decoy_crop` frames them (the decoy's own size or
the scene's dice size, grown as the reader grows a box), at `SIZE` pixels and the photo's
way up, as mined hard negatives are stored; each draw turns and jitters them anew.
Seeded apart from every other rendered source (`SEED`), and never the rendered clutter
benchmark's seed (`benchmarks/rendered_scenes.py`).

`--models DIR` keeps only the windows that folder's reader takes for a die (its "not a die"
under one half), as mining keeps a detector's mistakes: the decoys it still fails on, in
the proportion it fails on them. Such a cache is drawn window by window, not kind by kind
(a kind the reader refuses all but once must not be shown that one window a thousand times).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from dicecam.training.data import caches
from dicecam.training.data.reader_crops import decoy_crop
from dicecam.training.render.objects import OBJECT_SETS
from dicecam.training.render.scene import render_scene

#: Stored side of each window (the reader's crops are cut from it with room to turn).
SIZE = 64
#: Decoys kept of one kind in one scene.
PER_KIND = 2
#: The cache's own seed: no other training stage renders with it.
SEED = 35


def build(scenes: int, *, seed: int = SEED, upright: bool = True, path: Path | None = None,
          models: Path | None = None, objects: str = "table") -> Path:
    """Render `scenes` cluttered scenes with `objects` on their tables
    (`training.render.objects.OBJECT_SETS`) and store windows on their decoys, with kinds, to
    `path`; with `models`, only those its reader takes for a die (`mined` in the file)."""
    things = OBJECT_SETS[objects]
    rng = np.random.default_rng(seed)
    images: list[np.ndarray] = []
    kinds: list[str] = []
    for i in range(scenes):
        scene = render_scene(rng, upright=upright, clutter=1.0, objects=things)
        dice = np.array([d.top_box for d in scene.dice], np.float32).reshape(-1, 4)
        boxes = np.array(scene.decoys, np.float32).reshape(-1, 4)
        for kind in sorted(set(scene.decoy_kinds)):
            of_kind = [j for j, k in enumerate(scene.decoy_kinds) if k == kind]
            for j in rng.permutation(of_kind)[:PER_KIND]:
                crop = decoy_crop(scene.image, boxes[j], dice, rng, out=SIZE, turn=False)
                if crop is not None:
                    images.append(crop)
                    kinds.append(kind)
        if i % 500 == 499:
            print(f"{i + 1}/{scenes} scenes, {len(images)} decoys", flush=True)
    windows = np.array(images, np.uint8).reshape(-1, SIZE, SIZE, 3)
    named = np.array(kinds, str)
    if models is not None:
        keep = taken_for_dice(windows, models)
        windows, named = windows[keep], named[keep]
    path = path or caches.DECOYS
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=windows, kinds=named, mined=np.array(models is not None))
    return path


def taken_for_dice(windows: np.ndarray, models: Path) -> np.ndarray:
    """Which stored windows (N, SIZE, SIZE, 3) the reader in `models` reads as a die, as it reads a box."""
    from dicecam.vision.reader import DiceReader

    face = DiceReader(models).face
    size = face.crop_size
    dies = []
    for start in range(0, len(windows), 256):
        crops = np.stack([cv2.resize(w, (size, size), interpolation=cv2.INTER_AREA)
                          for w in windows[start:start + 256]])
        probs = face.classify(crops.transpose(0, 3, 1, 2).astype(np.float32) / 255)
        dies.append(probs[:, face.not_a_die] < 0.5)
    return np.concatenate(dies) if dies else np.zeros(0, bool)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenes", type=int, default=3000, help="cluttered scenes to render")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--any-way", action="store_true",
                   help="scenes turned any way, not as an upright phone takes them")
    p.add_argument("--objects", choices=tuple(OBJECT_SETS), default="table",
                   help="what lies on the tables (training.render.objects; default: clutter.OBJECTS)")
    p.add_argument("--out", type=Path, default=None, help=f"where to write (default {caches.DECOYS})")
    p.add_argument("--models", type=Path, default=None, metavar="DIR",
                   help="keep only the windows this folder's reader takes for a die (mined)")
    args = p.parse_args(argv)
    path = build(args.scenes, seed=args.seed, upright=not args.any_way, models=args.models, objects=args.objects,
                 path=args.out)
    with np.load(path) as saved:
        kinds, counts = np.unique(saved["kinds"], return_counts=True)
    print(f"{counts.sum()} decoys -> {path}: " + ", ".join(f"{k} {c}" for k, c in zip(kinds, counts)))


if __name__ == "__main__":
    main()
