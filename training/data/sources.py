"""Where training photos come from: the shared train splits and the synthetic renderer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from dicecam.training.data.photos import Sample, load_split

#: Photo sets used for the detector (boxes) and all sets for the reader.
DETECTOR_SETS = ("byler_d6", "matteop65_wood", "roboflow_dice")
READER_SETS = ("byler_d6", "matteop65_wood", "chase_dji", "roboflow_dice")


def real_samples(sets: tuple[str, ...], split: str = "train", *, holdout: float = 0.0) -> list[Sample]:
    """The photos of `sets` in `split`, less the held-out fraction `holdout` of each."""
    out: list[Sample] = []
    for name in sets:
        out.extend(load_split(name, split, holdout=holdout))
    return out


def synth_scene_source(*, upright: bool = False, steep: bool = False, clutter: float = 0.0,
                       objects: str = "table") -> Callable[[np.random.Generator], Sample] | None:
    """A function rendering one synthetic photo as a `Sample`, or None if the renderer is missing.

    `upright`: photos as a phone held upright takes them; `steep`: steep views more often;
    `clutter`: the share of scenes on a cluttered game table (`training.render.scene.render_scene`);
    `objects`: what lies on it (`training.render.objects.OBJECT_SETS`).
    """
    try:
        from dicecam.training.render.objects import OBJECT_SETS
        from dicecam.training.render.scene import render_scene
    except ImportError:
        return None
    things = OBJECT_SETS[objects]

    def draw(rng: np.random.Generator) -> Sample:
        scene = render_scene(rng, upright=upright, steep=steep, clutter=clutter, objects=things)
        boxes = np.array([d.top_box for d in scene.dice], np.float32).reshape(-1, 4)
        values = np.array([d.value for d in scene.dice], np.int64)
        die_boxes = np.array([d.die_box for d in scene.dice], np.float32).reshape(-1, 4)
        readable = np.array([d.readable for d in scene.dice], bool)
        decoys = np.array(scene.decoys, np.float32).reshape(-1, 4)
        return Sample(scene.image, boxes, values, "synth", die_boxes, readable=readable, tilt_deg=scene.tilt_deg,
                      decoys=decoys, decoy_kinds=scene.decoy_kinds)

    return draw


def synth_crop_source(*, upright: bool = False, fresh: bool = False, size: int | None = None
                      ) -> Callable[[np.random.Generator], tuple[np.ndarray, int]] | None:
    """A function giving one synthetic reader crop (`size`, default READER_SIZE) and its class, or None.

    Uses the pre-rendered cache (`python -m dicecam.training.data.crop_cache`, with `--upright` for
    `upright` crops) when there is one and not `fresh`, with fresh jitter on every draw;
    otherwise renders each crop (a new die every time, as session 20's GPU tunes drew
    them). Cached crops are mirrored at random, and quarter-turned unless the cache marks
    them as an upright phone's tilted view (its `turnable`), whose top face must stay on top.
    """
    from dicecam.training.data import caches
    from dicecam.training.data.reader_crops import crop_square
    from dicecam.training.shapes import READER_SIZE

    out = size or READER_SIZE
    path = caches.UPRIGHT_CROPS if upright else caches.CROPS
    if path.is_file() and not fresh:
        cached = np.load(path)
        images, labels = cached["images"], cached["labels"]
        turnable = cached["turnable"] if "turnable" in cached else np.ones(len(images), bool)

        def draw_cached(rng: np.random.Generator) -> tuple[np.ndarray, int]:
            i = int(rng.integers(len(images)))
            img = images[i]
            side = img.shape[0] * rng.uniform(0.88, 1.12)
            c = img.shape[0] / 2 + rng.normal(0, 1.5, size=2)
            turn = float(rng.choice([0, 90, 180, 270]))
            crop = crop_square(img, float(c[0]), float(c[1]), side, turn if turnable[i] else 0.0, out)
            return (crop[:, ::-1] if rng.random() < 0.5 else crop), int(labels[i])

        return draw_cached
    try:
        from dicecam.training.render.scene import render_crop
    except ImportError:
        return None

    def draw(rng: np.random.Generator) -> tuple[np.ndarray, int]:
        value = int(rng.integers(1, 7))
        return render_crop(rng, value, size=out, upright=upright), value - 1

    return draw


def _stored_window(img: np.ndarray, rng: np.random.Generator, size: int | None = None) -> np.ndarray:
    """A reader crop (`size`, default READER_SIZE) of a stored window: a little off-centre,
    sized 0.9-1.1, turned any way."""
    from dicecam.training.data.reader_crops import crop_square
    from dicecam.training.shapes import READER_SIZE

    c = img.shape[0] / 2 + rng.normal(0, 1.5, size=2)
    return crop_square(img, float(c[0]), float(c[1]), img.shape[0] * rng.uniform(0.9, 1.1),
                       float(rng.uniform(0, 360)), size or READER_SIZE)


def hard_negative_source(size: int | None = None) -> Callable[[np.random.Generator], np.ndarray] | None:
    """A function giving one mined hard negative crop (`size`, default READER_SIZE), or None if none were mined."""
    from dicecam.training.data import caches

    if not caches.HARD_NEGATIVES.is_file():
        return None
    images = np.load(caches.HARD_NEGATIVES)["images"]
    if not len(images):
        return None

    def draw(rng: np.random.Generator) -> np.ndarray:
        return _stored_window(images[int(rng.integers(len(images)))], rng, size)

    return draw


def decoy_source(path: Path | None = None, *, size: int | None = None
                 ) -> Callable[[np.random.Generator], np.ndarray] | None:
    """A function giving one rendered decoy crop (`size`, default READER_SIZE), kind by kind: each kind in
    the cache (`decoy_cache`) as likely as any other, then one window of it; a mined cache
    (`decoy_cache --models`) window by window. None where no cache was rendered."""
    from dicecam.training.data import caches

    path = path or caches.DECOYS
    if not path.is_file():
        return None
    with np.load(path) as saved:
        images, kinds = saved["images"], saved["kinds"]
        mined = bool(saved["mined"]) if "mined" in saved else False
    if not len(images):
        return None
    by_kind = [np.arange(len(images))] if mined else [np.flatnonzero(kinds == k) for k in np.unique(kinds)]

    def draw(rng: np.random.Generator) -> np.ndarray:
        of_kind = by_kind[int(rng.integers(len(by_kind)))]
        return _stored_window(images[of_kind[int(rng.integers(len(of_kind)))]], rng, size)

    return draw
