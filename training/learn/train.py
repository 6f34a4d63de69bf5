"""Train the dice detector and the face reader, then export both to ONNX.

    python -m dicecam.training.learn.train                 # both, default budget, writes models/
    python -m dicecam.training.learn.train detector --steps 3000
    python -m dicecam.training.learn.train reader --steps 4000

Runs on the CPU (2 cores are enough); every run is seeded. Where a GPU is lent,
`--device cuda --workers N` learns there while N processes draw the samples.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TypedDict, TypeVar, Unpack

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

from dicecam.training.data import caches
from dicecam.training.data.augment import far_away, photometric
from dicecam.training.data.detector_targets import detector_sample
from dicecam.training.data.paste import die_patches, paste_dice
from dicecam.training.data.photos import Sample
from dicecam.training.data.reader_crops import reader_samples, to_tensor_layout
from dicecam.training.data.sources import (
    DETECTOR_SETS,
    READER_SETS,
    decoy_source,
    hard_negative_source,
    real_samples,
    synth_crop_source,
    synth_scene_source,
)
from dicecam.training.data.unboxed import read_focus
from dicecam.training.learn.losses import detector_loss
from dicecam.training.learn.nets import (
    NOT_A_DIE,
    READER_HEAD,
    DiceDetector,
    FaceReader,
    SearchDetector,
    reader_grid,
    reader_of,
    search_of,
    spread_head,
)
from dicecam.training.learn.widen import widen_state
from dicecam.training.render import dice as render_dice
from dicecam.training.render.scene import keeps_up
from dicecam.training.shapes import INPUT_SIDE, READER_SIZE, SEARCH_STRIDE, STRIDE

RUNS = Path("runs")

#: A batch as the DataLoader collates a stream's samples: tensors in lists, tuples and dicts,
#: shaped by the stream (the loss step of its network unpacks it).
Batch = Any
Net = TypeVar("Net", bound=torch.nn.Module)


class StreamOptions(TypedDict, total=False):
    """The options every stream has, each with a default (see `_Stream`)."""

    holdout: float
    weights: dict[str, float] | None
    clutter: float
    focus: frozenset[str]
    focus_weight: float


class StreamSetup(StreamOptions):
    """What every stream is made with: its options and what it must be told."""

    synth_fraction: float
    seed: int


def _rng(seed: int) -> np.random.Generator:
    # Data workers share 2 cores with the trainer: OpenCV's own thread pool only oversubscribes them.
    import cv2

    cv2.setNumThreads(1)
    info = get_worker_info()
    return np.random.default_rng([seed, info.id if info else 0, int(time.time() * 1e6) % 2**31 if seed < 0 else 0])


class _Stream(IterableDataset):
    """Endless training samples from the train splits of `SETS` and rendered data."""

    SETS: tuple[str, ...] = ()

    def __init__(self, *, synth_fraction: float, seed: int, holdout: float = 0.0,
                 weights: dict[str, float] | None = None, clutter: float = 0.0,
                 focus: frozenset[str] = frozenset(), focus_weight: float = 1.0) -> None:
        self.real: list[Sample] = []
        share: list[float] = []
        focused = 0
        for name in self.SETS:
            photos = real_samples((name,), holdout=holdout)
            self.real.extend(photos)
            weight = (weights or {}).get(name, 1.0)
            # Photos named in `focus` (`SET/IMAGE`, `training.data.unboxed`) drawn `focus_weight` times as often.
            named = [f"{name}/{p.name}" in focus for p in photos]
            focused += sum(named)
            share.extend(weight * (focus_weight if n else 1.0) for n in named)
        if focus and not focused:  # a focus file of misspelt names would change nothing, silently
            raise ValueError("no train photo is named in the focus file (lines are SET/IMAGE, e.g. "
                             "roboflow_dice/images/train/NAME.jpg)")
        if min(share, default=0.0) < 0 or sum(share) <= 0:
            raise ValueError(f"set weights must be 0 or more, and leave some photos to draw: {weights}")
        # Photos are drawn in proportion to their set's weight (1: as often as any photo).
        self.cumulative = np.cumsum(share) / np.sum(share)
        self.synth_fraction = synth_fraction
        self.seed = seed
        #: Share of rendered scenes on a cluttered game table (`training.render.clutter`).
        self.clutter = clutter

    def real_photo(self, rng: np.random.Generator) -> Sample:
        """One real train photo, drawn by the sets' weights."""
        return self.real[min(int(np.searchsorted(self.cumulative, rng.random(), side="right")), len(self.real) - 1)]


class DetectorStream(_Stream):
    """Endless detector samples: real train photos and rendered scenes.

    `upright`: rendered scenes as a phone held upright takes them, and tilted ones never
    given quarter turns, so the detector can learn that a steep die's top face is its far
    face, at the top of its picture (models/HISTORY.md, session 14). `steep`: rendered
    scenes seen steeply more often (`training.render.scene.render_scene`). `natural`: the
    share of real photos seen at the scale the first look reads them (`INPUT_SIDE` long),
    the rest with a die size drawn from a wide range: small dice on a busy board are
    found at their own size or not at all. `paste`: the share of real photos given one to
    three real dice cut from other train photos (`training.data.paste`).
    """

    SETS = DETECTOR_SETS

    def __init__(self, *, upright: bool = False, steep: bool = False, whole: bool = False, sides: bool = False,
                 natural: float = 0.0, paste: float = 0.0, natural_side: float = INPUT_SIDE,
                 die_px: tuple[float, float] = (11.0, 110.0), stride: int = STRIDE,
                 **stream: Unpack[StreamSetup]) -> None:
        super().__init__(**stream)
        #: The long side a `natural` photo is seen at; the median die's size range otherwise;
        #: the targets' stride (the search network's: `SEARCH_STRIDE`, photos at `SEARCH_SIDE`).
        self.natural_side = natural_side
        self.die_px = die_px
        self.stride = stride
        self.upright = upright
        self.steep = steep
        self.natural = natural
        self.paste = paste
        #: Targets for whole dice too, where a photo knows them (`DiceDetector(whole=True)`).
        self.whole = whole
        #: ... or each cell's distances to its whole die's edges (`DiceDetector(whole_sides=True)`).
        self.sides = sides

    def __iter__(self):
        rng = _rng(self.seed)
        synth = synth_scene_source(upright=self.upright, steep=self.steep, clutter=self.clutter)
        patches = die_patches(self.real) if self.paste else []
        while True:
            if synth is not None and rng.random() < self.synth_fraction:
                s = synth(rng)
                turns = s.tilt_deg is None or not keeps_up(s.tilt_deg, self.upright)
                long_side = None
            else:
                s = self.real_photo(rng)
                turns = True
                # Drawn only when asked for, so every seed draws as it did before the options.
                long_side = self.natural_side if self.natural and rng.random() < self.natural else None
                if patches and rng.random() < self.paste:
                    assert s.boxes is not None
                    image, boxes, wholes = paste_dice(s.image, s.boxes, s.die_boxes, patches, rng,
                                                      count=int(rng.integers(1, 4)))
                    s = replace(s, image=image, boxes=boxes, die_boxes=wholes)
            assert s.boxes is not None  # the detector's sets are photos with boxes, never crops
            yield detector_sample(s.image, s.boxes, rng, turns=turns, whole=self.whole, sides=self.sides,
                                  wholes=s.die_boxes, long_side=long_side, die_px=self.die_px, stride=self.stride)


class ReaderStream(_Stream):
    """Endless reader crops: real dice, rendered dice, and windows that are not a die.

    `upright`: dice seen from an angle keep the photo's up, as an upright phone takes them
    (rendered crops and scenes, and the photos of a low camera), so the reader can learn
    that a steep die's top face is the face at the top of its crop (models/HISTORY.md,
    session 16); dice seen from above turn any way. `harsh`: wider colour, blur and JPEG
    changes on every crop (`training.data.augment.photometric`). `fresh_crops`: rendered crops
    drawn new every time, never from the crop cache. `decoys_by_kind`: each scene's decoy
    shown drawn kind by kind (`pick_decoy`), not one of them at random (the shipped reader
    learned them at random; R85 in models/HISTORY.md tried this). `decoy_share`: that share
    of crops drawn from the rendered decoy cache (`training.data.decoy_cache`), kind by kind.
    `far_share`: that share of all crops, dice and not-dice alike, seen as from far away
    (`training.data.augment.far_away`: shrunk, softened and JPEG'd at 18-34 px).
    """

    SETS = READER_SETS

    def __init__(self, *, upright: bool = False, harsh: bool = False, fresh_crops: bool = False,
                 hard_share: float = 0.08, decoys_by_kind: bool = False, decoy_share: float = 0.0,
                 far_share: float = 0.0, crop_size: int = READER_SIZE, **stream: Unpack[StreamSetup]) -> None:
        super().__init__(**stream)
        if not 0.0 <= far_share <= 1.0:
            raise ValueError(f"the far-away share must be between 0 and 1, got {far_share}")
        #: Share of crops seen as from far away (`training.data.augment.far_away`).
        self.far_share = far_share
        if crop_size < 16:
            raise ValueError(f"the reader's crops must be at least 16 pixels, got {crop_size}")
        #: The crops' side in pixels: the reader's input.
        self.crop_size = crop_size
        if not 0.0 <= decoy_share < 1.0:
            raise ValueError(f"the decoy share must be at least 0 and under 1, got {decoy_share}")
        if decoy_share > 0 and not caches.DECOYS.is_file():
            raise FileNotFoundError(f"no rendered decoys at {caches.DECOYS}: "
                                    "run python -m dicecam.training.data.decoy_cache first")
        #: Share of crops drawn from the rendered decoys (`training.data.decoy_cache`).
        self.decoy_share = decoy_share
        #: Share of crops drawn from the mined hard negatives (`training.data.mine`).
        self.hard_share = hard_share
        self.upright = upright
        self.harsh = harsh
        self.fresh_crops = fresh_crops
        self.decoys_by_kind = decoys_by_kind

    def __iter__(self):
        rng = _rng(self.seed)
        look = partial(photometric, harsh=self.harsh)
        far_rng = _rng(self.seed + 7919)  # its own stream: off, every seed trains as before

        def tensor(img: np.ndarray) -> np.ndarray:
            if self.far_share and far_rng.random() < self.far_share:
                img = far_away(img, far_rng)
            return to_tensor_layout(img)

        size = self.crop_size
        crop = synth_crop_source(upright=self.upright, fresh=self.fresh_crops, size=size)
        scene = synth_scene_source(upright=self.upright, clutter=self.clutter)
        hard = hard_negative_source(size=size)
        # Off, it draws no number: every seed trains as it did before the option.
        decoy = decoy_source(size=size) if self.decoy_share > 0 else None
        while True:
            r = rng.random()
            if hard is not None and rng.random() < self.hard_share:
                yield tensor(look(hard(rng), rng)), NOT_A_DIE
                continue
            if decoy is not None and rng.random() < self.decoy_share:
                yield tensor(look(decoy(rng), rng)), NOT_A_DIE
                continue
            if crop is not None and r < self.synth_fraction:
                img, label = crop(rng)
                yield tensor(look(np.ascontiguousarray(img), rng)), label
                continue
            if scene is not None and r < self.synth_fraction + 0.1:
                s = scene(rng)  # negatives and crowded neighbours from rendered tables
                turn = s.tilt_deg is None or not keeps_up(s.tilt_deg, self.upright)
            else:
                s = self.real_photo(rng)
                turn = not (self.upright and s.side_below)
            pairs = reader_samples(s.image, s.boxes, s.values, rng, die_boxes=s.die_boxes,
                                   exact_boxes=s.exact_boxes, readable=s.readable, side_below=s.side_below,
                                   turn=turn, harsh=self.harsh, decoys=s.decoys,
                                   decoy_kinds=s.decoy_kinds if self.decoys_by_kind else None, size=size)
            for img, label in some_of(pairs, rng):
                yield tensor(img), label


def some_of(pairs: list, rng: np.random.Generator, *, about: int = 4) -> list:
    """About `about` of one photo's crops (all of them up to 7), drawn at random.

    A crowded photo gives only a few crops per draw, so that one photo does not fill a
    batch. They must be drawn at random: every (n // 4)-th crop in label order (before
    session 7) showed the reader the same ~55% of byler_d6's train dice at every draw,
    and never the other ~45%.
    """
    count = len(range(0, len(pairs), max(1, len(pairs) // about)))
    return [pairs[i] for i in sorted(rng.choice(len(pairs), size=count, replace=False))]


def cosine_lr(step: int, total: int, base: float, warmup: int = 100) -> float:
    if step < warmup:
        return base * (step + 1) / warmup
    return base * 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup)))


def fit(model: Net, stream: IterableDataset, steps: int, *, batch: int, lr: float,
        resume: Path | None, checkpoint: Path, log_every: int,
        loss_step: Callable[[torch.nn.Module, Batch], tuple[torch.Tensor, str]],
        device: str = "cpu", workers: int = 1, minutes: float | None = None) -> Net:
    """AdamW with a warm-up + cosine schedule over `steps` batches of `stream`, checkpointed every 500.

    `device`: where the network learns ("cpu", or "cuda" where one is lent); `workers`:
    processes drawing samples, each its own random stream (0: this process draws them). The
    checkpoint is saved for the CPU either way, as export and `--init` read it. `minutes`: the schedule runs on
    whichever ends first, the steps or this much time (a lent machine's lease ends on the
    clock, and its sampling rate is known only once it runs).
    """
    if resume:
        model.load_state_dict(_fitted(torch.load(resume, map_location="cpu"), model.state_dict()))
    model.to(device)
    # workers 0: samples drawn in this process (no fork: safe where threads already run here).
    loader = DataLoader(stream, batch_size=batch, num_workers=workers, persistent_workers=workers > 0,
                        prefetch_factor=4 if workers else None, pin_memory=device != "cpu")
    opt = torch.optim.AdamW([w for w in model.parameters() if w.requires_grad], lr=lr, weight_decay=1e-4)
    model.train()
    t0 = time.time()
    budget = None if minutes is None else 60.0 * minutes
    for step, data in enumerate(loader):
        # Where the clock ends first, the schedule is read at the step its share of the time gives.
        at = step if budget is None else max(step, round(steps * (time.time() - t0) / budget))
        if at >= steps:
            print(f"{checkpoint.stem} schedule ended at step {step} ({time.time() - t0:.0f}s)", flush=True)
            break
        for g in opt.param_groups:
            g["lr"] = cosine_lr(at, steps, lr)
        loss, message = loss_step(model, _to(data, device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % log_every == 0 or step == steps - 1:
            print(f"{checkpoint.stem} {step:5d}/{steps} loss {loss.item():.3f} {message} {time.time() - t0:.0f}s",
                  flush=True)
        if step % 500 == 499:
            _save(model, checkpoint)
    _save(model, checkpoint)
    return model.cpu().eval()


def _fitted(loaded: dict[str, torch.Tensor], own: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """`loaded` weights for a network with parts they lack (a detector learning whole dice,
    started from one that does not): those parts keep their fresh start. Where the
    whole-die branch sits is the network's own, whatever the checkpoint's was."""
    if READER_HEAD in own and READER_HEAD in loaded:  # a one-average reader started on a layout (`--reader-grid`)
        loaded = spread_head(loaded, reader_grid(own))
    loaded = widen_state(loaded, own)  # a narrower network's weights grow to fit (`--deep`)
    return {name: fresh if name == "whole_stride" else loaded.get(name, fresh) for name, fresh in own.items()} | \
        {name: w for name, w in loaded.items() if name not in own}


def _to(data: Batch, device: str) -> Batch:
    """A batch (tensors, nested in tuples, lists and dicts) moved to `device`."""
    if isinstance(data, torch.Tensor):
        return data.to(device, non_blocking=True)
    if isinstance(data, dict):
        return {k: _to(v, device) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(_to(v, device) for v in data)
    return data


def _save(model: torch.nn.Module, checkpoint: Path) -> None:
    torch.save({k: v.cpu() for k, v in model.state_dict().items()}, checkpoint)


def _detector_step(model: torch.nn.Module, data: Batch) -> tuple[torch.Tensor, str]:
    x, targets = data
    loss, parts = detector_loss(model(x), targets)
    return loss, " ".join(f"{k} {v:.3f}" for k, v in parts.items())


_reader_loss = torch.nn.CrossEntropyLoss(label_smoothing=0.05)


def _reader_step(model: torch.nn.Module, data: Batch, *, anchor: torch.nn.Module | None = None,
                 anchor_weight: float = 1.0) -> tuple[torch.Tensor, str]:
    x, y = data
    out = model(x)
    acc = float((out.argmax(1) == y).float().mean())
    message = f"acc {acc:.3f} (not-a-die share {float((y == NOT_A_DIE).float().mean()):.2f})"
    loss = _reader_loss(out, y)
    if anchor is None:
        return loss, message
    held, share = anchored_loss(out, anchor(x), y)
    return loss + anchor_weight * held, message + f" anchor {held.item():.3f} on {share:.2f}"


def anchored_loss(out: torch.Tensor, anchor_logits: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, float]:
    """How far the reader's word has moved from the anchor's (KL divergence, batch mean) on
    the crops the anchor reads right, and the share of such crops.

    A tune on the CPU moves dice it was never asked about (a plain table's knife-edge dice,
    its calibration): held to the anchor wherever the anchor is right, the reader learns
    only where it was wrong (`train reader --anchor`).
    """
    anchor_logits = anchor_logits.detach()
    right = (anchor_logits.argmax(1) == y).float()
    kl = F.kl_div(F.log_softmax(out, 1), F.log_softmax(anchor_logits, 1), log_target=True, reduction="none").sum(1)
    return (kl * right).sum() / max(len(y), 1), float(right.mean())


def train_detector(steps: int, *, batch: int, lr: float, synth_fraction: float, seed: int, resume: Path | None,
                   runs: Path = RUNS, upright: bool = False, steep: bool = False, device: str = "cpu",
                   workers: int = 1, whole: bool = False, whole_only: bool = False, whole_stride: int = 4,
                   whole_sides: bool = False, deep: int = 1, natural: float = 0.0, paste: float = 0.0,
                   **stream: Unpack[StreamOptions]) -> DiceDetector:
    torch.manual_seed(seed)
    model = DiceDetector(deep=deep, whole=whole or whole_only, whole_stride=whole_stride, whole_sides=whole_sides)
    if whole_only:
        model.freeze_top_faces()
    samples = DetectorStream(synth_fraction=synth_fraction, seed=seed, upright=upright, steep=steep,
                             whole=(whole or whole_only) and not whole_sides, sides=whole_sides,
                             natural=natural, paste=paste, **stream)
    return fit(model, samples, steps, batch=batch, lr=lr, resume=resume, checkpoint=runs / "detector.pt",
               log_every=25, loss_step=_detector_step, device=device, workers=workers)


#: The long side the count's search sees a photo at (`vision` settings: `search_scale` 2.5
#: times the first look's `INPUT_SIDE`, at most `search_max_side` 1,280).
SEARCH_SIDE = 1280
#: The median die's size in the search network's samples: the first look's range, enlarged
#: as the search enlarges it (its smallest dice still missing are about 15 px there, 37 here).
SEARCH_DIE_PX = (16.0, 140.0)


def train_search(steps: int, *, batch: int, lr: float, synth_fraction: float, seed: int, resume: Path | None,
                 runs: Path = RUNS, upright: bool = False, steep: bool = False, device: str = "cpu",
                 workers: int = 1, natural: float = 0.5, minutes: float | None = None,
                 **stream: Unpack[StreamOptions]) -> SearchDetector:
    """The count's search network (`SearchDetector`), its targets at `SEARCH_STRIDE`; `resume`
    a search checkpoint, or a detector's whose stride-8 layers start it (`search_of`). A
    `natural` share of real photos is seen as the search sees them (`SEARCH_SIDE` long)."""
    torch.manual_seed(seed)  # before the fresh layers are made, from a detector's weights too
    model = SearchDetector() if resume is None else search_of(torch.load(resume, map_location="cpu"))
    samples = DetectorStream(synth_fraction=synth_fraction, seed=seed, upright=upright, steep=steep,
                             natural=natural, natural_side=SEARCH_SIDE, die_px=SEARCH_DIE_PX,
                             stride=SEARCH_STRIDE, **stream)
    return fit(model, samples, steps, batch=batch, lr=lr, resume=None, checkpoint=runs / "search.pt",
               log_every=25, loss_step=_detector_step, device=device, workers=workers, minutes=minutes)


def train_reader(steps: int, *, batch: int, lr: float, synth_fraction: float, seed: int, resume: Path | None,
                 runs: Path = RUNS, contrast: bool = False, upright: bool = False, harsh: bool = False,
                 fresh_crops: bool = False, device: str = "cpu", workers: int = 1, hard_share: float = 0.08,
                 decoys_by_kind: bool = False, decoy_share: float = 0.0, crop_size: int = READER_SIZE,
                 grid: int = 1, wide: int = 1, anchor: Path | None = None, anchor_weight: float = 1.0,
                 far_share: float = 0.0, minutes: float | None = None,
                 **stream: Unpack[StreamOptions]) -> FaceReader:
    torch.manual_seed(seed)
    model = FaceReader(contrast=contrast, grid=grid, wide=wide)
    step = _reader_step
    if anchor is not None:
        held = reader_of(torch.load(anchor, map_location="cpu")).to(device).eval()
        for w in held.parameters():
            w.requires_grad_(False)
        step = partial(_reader_step, anchor=held, anchor_weight=anchor_weight)
    samples = ReaderStream(synth_fraction=synth_fraction, seed=seed, upright=upright, harsh=harsh,
                           fresh_crops=fresh_crops, hard_share=hard_share, decoys_by_kind=decoys_by_kind,
                           decoy_share=decoy_share, far_share=far_share, crop_size=crop_size, **stream)
    return fit(model, samples, steps, batch=batch, lr=lr, resume=resume, checkpoint=runs / "reader.pt",
               log_every=100, loss_step=step, device=device, workers=workers, minutes=minutes)


def parser() -> argparse.ArgumentParser:
    """The command line of `python -m dicecam.training.learn.train` (also checked against the recipe's stages)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", nargs="?", choices=["all", "detector", "reader", "search"], default="all",
                   help="search: the count's stride-8 search network (search.onnx), started from --init's detector")
    p.add_argument("--det-steps", type=int, default=6000)
    p.add_argument("--reader-steps", type=int, default=6000)
    p.add_argument("--det-batch", type=int, default=8)
    p.add_argument("--reader-batch", type=int, default=64)
    p.add_argument("--det-lr", type=float, default=3e-3)
    p.add_argument("--reader-lr", type=float, default=3e-3)
    p.add_argument("--synth", type=float, default=0.5, help="share of synthetic photos/crops")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--device", default="cpu", help="where the network learns: cpu (default) or cuda")
    p.add_argument("--workers", type=int, default=1, help="processes drawing training samples (default 1)")
    p.add_argument("--minutes", type=float, default=None,
                   help="search, reader: end the schedule after this many minutes if its steps have not ended it "
                        "(a lent machine's lease)")
    p.add_argument("--resume", action="store_true", help="start from the checkpoints in --runs")
    p.add_argument("--init", type=Path, default=None, metavar="FILE",
                   help="start from these weights (a detector.pt or reader.pt; not with 'all'), e.g. to fine-tune")
    p.add_argument("--runs", type=Path, default=RUNS, help="folder of the checkpoints (default: runs/)")
    p.add_argument("--out", type=Path, default=Path("models"))
    p.add_argument("--holdout", type=float, default=0.0,
                   help="leave this fraction of each train split out, to compare models on "
                        "(training.data.photos.held_out)")
    p.add_argument("--weight", action="append", default=[], metavar="SET=W",
                   help="draw this photo set's photos W times as often (repeatable)")
    p.add_argument("--reader-contrast", action="store_true", help="the reader evens out each crop's contrast first")
    p.add_argument("--anchor", type=Path, default=None, metavar="FILE",
                   help="reader: a reader checkpoint (usually --init's) whose word the tune keeps on every crop "
                        "it reads right, so that it learns only where that reader was wrong")
    p.add_argument("--anchor-weight", type=float, default=1.0, metavar="W",
                   help="reader: weight of --anchor's divergence against the labels' loss (default 1)")
    p.add_argument("--reader-grid", type=int, default=1, metavar="G",
                   help="the reader's head reads its last features pooled to a G x G layout (default 1: one average; "
                        "with --init from a one-average reader it starts with the same logits)")
    p.add_argument("--reader-wide", type=int, default=1, metavar="K",
                   help="the reader's 12 px and 6 px layers K times as wide (default 1); with --init from a "
                        "narrower reader it is grown so that it starts out reading as that one did (widen)")
    p.add_argument("--upright", action="store_true",
                   help="rendered scenes taken upright, tilted ones never given quarter turns (detector); "
                        "tilted dice kept the photo's way up, recorded in the reader file (reader)")
    p.add_argument("--harsh", action="store_true",
                   help="reader: wider colour, blur and JPEG changes (any hue, grey, JPEG down to 20)")
    p.add_argument("--far", type=float, default=0.0, metavar="SHARE",
                   help="reader: this share of crops, dice and not-dice alike, seen as from far away: shrunk "
                        "to 18-34 px, softened and JPEG'd there, enlarged back (default 0)")
    p.add_argument("--decoys-by-kind", action="store_true",
                   help="reader: show each rendered scene's decoys kind by kind (numeral dice as often as eyes)")
    p.add_argument("--decoy-share", type=float, default=0.0, metavar="SHARE",
                   help="reader: this share of crops drawn from rendered game-table decoys (numeral dice, "
                        "dominoes, tokens...), kind by kind (python -m dicecam.training.data.decoy_cache; default 0)")
    p.add_argument("--crop-size", type=int, default=READER_SIZE, metavar="PX",
                   help=f"reader: its input's side in pixels, the same window seen sharper or coarser "
                        f"(default {READER_SIZE}; recorded in reader.onnx)")
    p.add_argument("--fresh-crops", action="store_true",
                   help="reader: render every synthetic crop anew instead of drawing from the crop cache")
    p.add_argument("--clutter", type=float, default=0.0,
                   help="share of rendered scenes on a cluttered game table: printed cloths and boards, "
                        "tokens, pieces, numeral dice (default 0)")
    p.add_argument("--pale-pips", type=float, default=0.0, metavar="SHARE",
                   help="reader: this share of rendered coloured and translucent dice get pips of a pale "
                        "shade of the body (cream on orange; training.render.dice.PALE_PIPS, default 0)")
    p.add_argument("--hard-share", type=float, default=0.08,
                   help="reader: share of crops drawn from the mined hard negatives (default 0.08)")
    p.add_argument("--whole-die", action="store_true",
                   help="detector: also learn to box whole dice (top and side faces), where photos know them")
    p.add_argument("--whole-die-only", action="store_true",
                   help="detector: learn only the whole-die branch, the top faces kept as --init has them")
    p.add_argument("--whole-die-stride", type=int, choices=[4, 8], default=4,
                   help="detector: the features the whole-die branch sits on (8: a quarter of the cost)")
    p.add_argument("--whole-die-sides", action="store_true",
                   help="detector: the branch gives each cell's distances to its whole die's edges, not peaks")
    p.add_argument("--deep", type=int, default=1,
                   help="detector: its stride-8 and coarser layers this many times as wide; with --init "
                        "from a narrower one, grown so that it starts computing what that one did")
    p.add_argument("--steep", action="store_true",
                   help="detector: rendered scenes seen steeply more often (40-55 degrees about twice as often)")
    p.add_argument("--natural-scale", type=float, default=0.0, metavar="SHARE",
                   help="detector: this share of real photos seen at the scale the first look reads them "
                        "(long side 512, within 0.8-1.25x) instead of a die size drawn from 11-110 px")
    p.add_argument("--focus", type=Path, default=None, metavar="FILE",
                   help="draw the train photos listed in FILE (SET/IMAGE lines, e.g. from "
                        "training.data.unboxed) --focus-weight times as often")
    p.add_argument("--focus-weight", type=float, default=4.0, metavar="W")
    p.add_argument("--paste-dice", type=float, default=0.0, metavar="SHARE",
                   help="detector: this share of real photos get one to three real dice cut from other "
                        "train photos (roboflow's whole-die boxes) pasted where no die lies")
    return p


def main(argv: list[str] | None = None) -> None:
    p = parser()
    args = p.parse_args(argv)
    if args.init is not None and (args.what == "all" or args.resume):
        p.error("--init starts one network (detector or reader) and replaces --resume")
    if args.harsh and args.what != "reader":
        p.error("--harsh widens the reader's changes: use it with 'reader'")
    if args.far and args.what != "reader":
        p.error("--far changes the reader's crops: use it with 'reader'")
    if not 0.0 <= args.far <= 1.0:
        p.error("--far is a share: between 0 and 1")
    if args.pale_pips and not (args.what == "reader" and args.fresh_crops):
        p.error("--pale-pips changes rendered reader crops: use it with 'reader --fresh-crops'")
    if args.anchor is not None and args.what != "reader":
        p.error("--anchor holds a reader to another reader's word: use it with 'reader'")
    if args.anchor_weight < 0:
        p.error("--anchor-weight is a weight: 0 or more")
    if args.fresh_crops and args.what != "reader":
        p.error("--fresh-crops draws the reader's rendered crops: use it with 'reader'")
    if (args.whole_die or args.whole_die_only) and args.what != "detector":
        p.error("--whole-die trains the detector's whole-die channels: use it with 'detector'")
    if (args.whole_die_sides or args.whole_die_stride != 4) and not (args.whole_die or args.whole_die_only):
        p.error("--whole-die-sides and --whole-die-stride shape the whole-die branch: use them with --whole-die(-only)")
    if args.deep != 1 and args.what != "detector":
        p.error("--deep widens the detector: use it with 'detector'")
    if args.steep and args.what != "detector":
        p.error("--steep draws the detector's rendered scenes: use it with 'detector'")
    for flag, share in (("--natural-scale", args.natural_scale), ("--paste-dice", args.paste_dice)):
        if share and args.what not in ("detector", "search"):
            p.error(f"{flag} draws the detector's real photos: use it with 'detector' or 'search'")
        if not 0.0 <= share <= 1.0:
            p.error(f"{flag} is a share of the real photos: from 0 to 1")
    if args.minutes is not None and (args.what not in ("search", "reader") or args.minutes <= 0):
        p.error("--minutes bounds one network's schedule: a positive number, with 'search' or 'reader'")
    if args.what == "search" and (args.whole_die or args.whole_die_only or args.deep != 1 or args.paste_dice):
        p.error("the search network has no whole-die branch, no --deep and no pasted dice")
    if args.upright and args.what == "all":
        p.error("--upright trains one network the upright way: use it with 'detector' or 'reader'")
    weights = {name: float(w) for name, w in (item.split("=", 1) for item in args.weight)}
    stream: StreamOptions = {"holdout": args.holdout, "weights": weights, "clutter": args.clutter}
    if args.focus is not None:
        if args.focus_weight < 0:
            p.error("--focus-weight is how many times as often: 0 or more")
        try:
            stream |= {"focus": read_focus(args.focus), "focus_weight": args.focus_weight}
        except OSError as exc:
            p.error(f"cannot read --focus {args.focus}: {exc.strerror or exc}")
    torch.set_num_threads(args.threads)
    # Set before the sampling processes fork, which take the renderer's module state with them.
    render_dice.PALE_PIPS = args.pale_pips
    args.runs.mkdir(parents=True, exist_ok=True)
    from dicecam.training.learn.export import export_detector, export_reader

    if args.what in ("all", "detector"):
        det = train_detector(args.det_steps, batch=args.det_batch, lr=args.det_lr, synth_fraction=args.synth,
                             seed=args.seed, resume=args.init or (args.runs / "detector.pt" if args.resume else None),
                             runs=args.runs, upright=args.upright, steep=args.steep, device=args.device,
                             workers=args.workers, whole=args.whole_die,
                             whole_only=args.whole_die_only, whole_stride=args.whole_die_stride,
                             whole_sides=args.whole_die_sides, deep=args.deep,
                             natural=args.natural_scale, paste=args.paste_dice, **stream)
        export_detector(det, args.out / "detector.onnx")
    if args.what == "search":
        from dicecam.training.learn.export import export_search

        net = train_search(args.det_steps, batch=args.det_batch, lr=args.det_lr, synth_fraction=args.synth,
                           seed=args.seed, resume=args.init or (args.runs / "search.pt" if args.resume else None),
                           runs=args.runs, upright=args.upright, steep=args.steep, device=args.device,
                           workers=args.workers, natural=args.natural_scale or 0.5, minutes=args.minutes, **stream)
        export_search(net, args.out / "search.onnx")
    if args.what in ("all", "reader"):
        rd = train_reader(args.reader_steps, batch=args.reader_batch, lr=args.reader_lr, synth_fraction=args.synth,
                          seed=args.seed, resume=args.init or (args.runs / "reader.pt" if args.resume else None),
                          runs=args.runs, contrast=args.reader_contrast, upright=args.upright, harsh=args.harsh,
                          fresh_crops=args.fresh_crops, hard_share=args.hard_share, device=args.device,
                          workers=args.workers, decoys_by_kind=args.decoys_by_kind,
                          decoy_share=args.decoy_share, crop_size=args.crop_size, grid=args.reader_grid,
                          wide=args.reader_wide,
                          anchor=args.anchor, anchor_weight=args.anchor_weight, far_share=args.far,
                          minutes=args.minutes, **stream)
        export_reader(rd, args.out / "reader.onnx", upright=args.upright, crop_size=args.crop_size)


if __name__ == "__main__":
    main()
