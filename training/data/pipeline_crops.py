"""The crops a models folder's face reader reads at run time, to teach another reader its readings.

    python -m dicecam.training.data.pipeline_crops data/pipeline_crops.npz [--models DIR]
        [--rendered 800] [--seed A,B]

Every crop the reader is asked to read (the first look's boxes, the closer looks', the count's
search's, every extra view of a doubtful crop) on every train photo of the shared sets, each
read told its count and without, and on `--rendered` rendered game tables: what a cheaper
reader must read as it does (`training.learn.cheap_reader`, C343 in models/HISTORY.md).
Stored once each as uint8 (the reader's input times 255: its crops are cut from 8-bit photos),
with the photo each was first read on, so that whole photos can be held out.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from dicecam.training.data import caches
from dicecam.training.data.sources import READER_SETS, synth_scene_source
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DiceReader


def pipeline_crops(reader: DiceReader, photos: Iterable[tuple[np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct crops (N, 3, S, S) uint8 that `reader`'s face reader reads on `photos`
    (BGR photo, its count of dice), each photo read told its count and without, and the index
    of the photo each crop was first read on (N,)."""
    seen: set[bytes] = set()
    crops: list[np.ndarray] = []
    firsts: list[int] = []
    face = reader.face
    classify = face.classify
    photo = [0]  # the photo being read, as the recording sees it

    def recording(batch: np.ndarray) -> np.ndarray:
        stored = np.clip(np.rint(batch * 255), 0, 255).astype(np.uint8)
        for crop in stored:
            key = hashlib.blake2b(crop.tobytes(), digest_size=16).digest()
            if key not in seen:
                seen.add(key)
                crops.append(crop)
                firsts.append(photo[0])
        return classify(batch)

    face.classify = recording  # type: ignore[method-assign,assignment]  # this reader only, undone below
    try:
        for photo[0], (image, count) in enumerate(photos):
            reader.read(image, count=count)
            reader.read(image)
    finally:
        del face.classify  # the class's method again
    size = face.crop_size
    out = np.stack(crops) if crops else np.zeros((0, 3, size, size), np.uint8)
    return out, np.asarray(firsts, np.int64)


def train_photos(sets: Iterable[str] = READER_SETS, root: Path = caches.DATASETS) -> Iterator[tuple[np.ndarray, int]]:
    """Every train photo of `sets` and its labelled count of dice, one at a time."""
    for name in sets:
        for labelled in read_dataset(root / name, split="train"):
            yield load_image(labelled.path), len(labelled.dice)


def rendered_photos(count: int, seed: tuple[int, int]) -> Iterator[tuple[np.ndarray, int]]:
    """`count` rendered photos and their counts of dice: half on a cluttered game table seen
    upright, half any way with clutter on half of them."""
    rng = np.random.default_rng(list(seed))
    for upright, clutter, n in ((True, 1.0, count - count // 2), (False, 0.5, count // 2)):
        draw = synth_scene_source(upright=upright, clutter=clutter)
        if draw is None:
            raise SystemExit("the renderer (training/render) is not installed")
        for _ in range(n):
            sample = draw(rng)
            yield sample.image, len(sample.values)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="the .npz to write (crops, photos, real: how many photos were real)")
    ap.add_argument("--models", type=Path, default=None, help="models folder whose reader is taught (default: shipped)")
    ap.add_argument("--rendered", type=int, default=800, help="rendered game tables read beside the train photos")
    ap.add_argument("--seed", default="343,69", help="the renderer's seed A,B (no benchmark's)")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    reader = DiceReader(args.models, threads=args.threads)
    real, real_from = pipeline_crops(reader, train_photos())
    photos = int(real_from.max()) + 1 if len(real_from) else 0
    first, second = (int(part) for part in args.seed.split(","))
    drawn, drawn_from = pipeline_crops(reader, rendered_photos(args.rendered, (first, second)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, crops=np.concatenate([real, drawn]),
                        photos=np.concatenate([real_from, drawn_from + photos]), real=np.int64(photos))
    print(f"wrote {args.out}: {len(real)} crops of {photos} train photos, {len(drawn)} of {args.rendered} rendered")


if __name__ == "__main__":
    main()
