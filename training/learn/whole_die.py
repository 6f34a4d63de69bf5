"""Training the whole-die check (`vision.whole_die`): is a candidate box a die, seen in context?

    python -m dicecam.training.learn.whole_die models/ --out models/      # models/whole_die.onnx

The examples are what the check will meet: every box the models folder's detector and
reader find on the train photos of every shared set, cut as `vision.whole_die` cuts
them. A box is a die when it frames a labelled die's top face: paired by the datasets'
scoring rule with the top faces (where the labels box whole dice, the top face found
inside each, `training.data.top_faces`). Paired with the whole die's box instead, the
side face of a die seen low would be a die as often as not (its centre lies in that box);
here it is what the check must learn to refuse.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path

import numpy as np
import torch
from torch import nn

from dicecam.training.data.photos import WHOLE_DIE_SETS, Sample, load_split
from dicecam.training.data.sources import READER_SETS, synth_scene_source
from dicecam.training.learn.export import OPSET, _legacy_exporter, _stamp
from dicecam.vision.boxes import iou
from dicecam.vision.metrics import match_boxes
from dicecam.vision.onnx import session
from dicecam.vision.reader import DiceReader
from dicecam.vision.whole_die import WholeDieCheck, as_input, context_crops

SIZE = 40
CONTEXT = 2.0


@dataclass(frozen=True)
class Cut:
    """How a candidate is cut for the check: `size` px square, `context` times the box's
    longer side, centred `lift` of that side above the box (`vision.whole_die.context_crops`)."""

    size: int = SIZE
    context: float = CONTEXT
    lift: float = 0.0


def top_face_of_a_die(truth: np.ndarray, found: np.ndarray, *, min_iou: float = 0.0) -> np.ndarray:
    """Mask of `found` boxes that frame a labelled die's top face (`truth`: top-face boxes),
    paired by the scoring rule and overlapping it by `min_iou` or more."""
    is_die = np.zeros(len(found), bool)
    pairs = match_boxes(truth, found)
    if min_iou > 0 and len(pairs):
        pairs = pairs[iou(found[pairs[:, 1]], truth[pairs[:, 0]]).diagonal() >= min_iou]
    is_die[pairs[:, 1]] = True
    return is_die


def examples(models: Path, *, split: str = "train", holdout: float = 0.0, held: bool = False,
             sets: tuple[str, ...] = READER_SETS, min_iou: float = 0.0, cut: Cut = Cut(), jitter: int = 0,
             seed: int = 110, counted: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Context crops (N, size, size, 3) of every candidate box on `split`'s photos, and
    whether each frames a labelled die's top face (N,). `holdout`, `held` as `load_split`
    takes them; `jitter` more cuts of each box, moved and scaled a little (`jittered`, drawn
    from `seed`); `counted`: the boxes of each photo read with its labelled count (the
    count's closer look included), as `_cut` takes them."""
    reader = DiceReader(models, threads=2)
    rng = np.random.default_rng(seed)
    seen = [_cut(reader, sample, min_iou=min_iou if name in WHOLE_DIE_SETS else 0.0, cut=cut, jitter=jitter, rng=rng,
                 counted=counted)
            for name in sets for sample in load_split(name, split, holdout=holdout, held=held)]
    return _joined(seen)


def rendered_examples(models: Path, *, scenes: int, seed: int = 79, clutter: float = 0.7, cut: Cut = Cut()
                      ) -> tuple[np.ndarray, np.ndarray]:
    """As `examples`, on rendered upright throws (`clutter` of them on a game table): there
    every die's top face is known exactly, so its side faces and the decoys are no dice."""
    draw = synth_scene_source(upright=True, clutter=clutter)
    if draw is None:
        raise RuntimeError("the renderer is missing: install the train extra")
    reader = DiceReader(models, threads=2)
    rng = np.random.default_rng(seed)
    return _joined([_cut(reader, draw(rng), cut=cut) for _ in range(scenes)])


def jittered(boxes: np.ndarray, rng: np.random.Generator, *, shift: float = 0.1,
             scale: tuple[float, float] = (0.85, 1.15)) -> np.ndarray:
    """`boxes` (N, 4) with each centre moved up to `shift` of its side and each side scaled
    within `scale`: more views of one candidate, as a detector's box might have drawn it."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    sides = boxes[:, 2:] - boxes[:, :2]
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2 + rng.uniform(-shift, shift, sides.shape) * sides
    half = sides * rng.uniform(*scale, (len(boxes), 1)) / 2
    return np.concatenate([centres - half, centres + half], axis=1)


def _cut(reader: DiceReader, sample: Sample, *, min_iou: float = 0.0, cut: Cut = Cut(), jitter: int = 0,
         rng: np.random.Generator | None = None, counted: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The context crops of every box `reader` finds on one photo, and which are dice.

    A sample without boxes is a crop of one die filling the frame (chase_dji): its die's
    box is the whole photo, as the datasets' scoring rule has it. `counted`: the boxes of
    the photo read with its labelled count (`DiceReader.counted`): where the rules keep
    fewer, the count's closer look adds small dice and what passes for them at that
    scale, the boxes the check ranks when the page fills a throw's count.
    """
    h, w = sample.image.shape[:2]
    truth = sample.boxes if sample.boxes is not None else np.array([[0, 0, w, h]], np.float32)
    found = reader.counted(sample.image, len(truth)) if counted else reader.candidates(sample.image)
    is_die = top_face_of_a_die(truth, found.boxes, min_iou=min_iou).astype(np.float32)
    rng = rng or np.random.default_rng()
    boxes = [found.boxes] + [jittered(found.boxes, rng) for _ in range(jitter)]
    crops = [context_crops(sample.image, b, **asdict(cut)) for b in boxes]
    return np.concatenate(crops), np.tile(is_die, len(boxes))


def _joined(seen: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    return np.concatenate([crops for crops, _ in seen]), np.concatenate([labels for _, labels in seen])


#: The channels of WholeDieNet's three stages and its last convolution.
WIDTHS = (16, 32, 48, 64)


def _conv(cin: int, cout: int, *, stride: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]


def _separable(cin: int, cout: int) -> list[nn.Module]:
    """A 3x3 per channel, then a 1x1 across them: a convolution's reach at a fraction of its cost."""
    return [nn.Conv2d(cin, cin, 3, padding=1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(),
            nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]


class Arch(Enum):
    """How WholeDieNet's stages are built. On 2 cores, for 22 crops of 48 px: plain 8.1 ms,
    strided 3.8 ms, separable 1.9 ms, lean (at widths 8/24/48/64) 2.6 ms (the
    full-resolution stage is most of the cost); light keeps plain's stages but one
    convolution at full resolution (15 of plain's 20 million multiply-adds a crop)."""

    PLAIN = "plain"          # three double-convolution stages, each halving (V77-V104)
    STRIDED = "strided"      # a strided first convolution, one convolution, then a double stage
    SEPARABLE = "separable"  # a strided first convolution, then double separable stages
    LEAN = "lean"            # one convolution at full resolution, one at half, a double stage
    LIGHT = "light"          # one convolution at full resolution, then plain's double stages


class WholeDieNet(nn.Module):
    """Stages of convolutions and a logit: 79k weights at `WIDTHS`, plain (about 0.4 ms a
    48 px crop on 2 cores), so it looks only at the kept boxes."""

    def __init__(self, widths: tuple[int, int, int, int] = WIDTHS, arch: Arch = Arch.PLAIN) -> None:
        super().__init__()
        w1, w2, w3, w4 = widths
        pool = nn.MaxPool2d(2)
        stages: list[nn.Module]
        if arch is Arch.PLAIN:
            stages = [*_conv(3, w1), *_conv(w1, w1), pool, *_conv(w1, w2), *_conv(w2, w2), pool,
                      *_conv(w2, w3), *_conv(w3, w3), pool]
        elif arch is Arch.STRIDED:
            stages = [*_conv(3, w1, stride=2), *_conv(w1, w2), pool, *_conv(w2, w3), *_conv(w3, w3), pool]
        elif arch is Arch.LIGHT:
            stages = [*_conv(3, w1), pool, *_conv(w1, w2), *_conv(w2, w2), pool, *_conv(w2, w3), *_conv(w3, w3), pool]
        elif arch is Arch.LEAN:
            stages = [*_conv(3, w1), pool, *_conv(w1, w2), pool, *_conv(w2, w3), *_conv(w3, w3), pool]
        else:
            stages = [*_conv(3, w1, stride=2), *_separable(w1, w2), *_separable(w2, w2), pool,
                      *_separable(w2, w3), *_separable(w3, w3), pool]
        self.layers = nn.Sequential(*stages, nn.Conv2d(w3, w4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                    nn.Flatten(), nn.Linear(w4, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)


def _augmented(crops: np.ndarray, rng: np.random.Generator, *, upright: bool = False) -> torch.Tensor:
    """A batch turned, mirrored, in other colours, lighter or darker and shifted a little:
    none of that makes a die no die, or a token a die. `upright` keeps the photo's up (no
    quarter turns): a face with a die's top face above it is a front face, below it a top face."""
    batch = crops if upright else np.rot90(crops, int(rng.integers(4)), axes=(1, 2))
    if rng.random() < 0.5:
        batch = batch[:, :, ::-1]
    batch = batch[..., rng.permutation(3)]
    x = torch.from_numpy(as_input(batch))
    n = len(x)
    x = x * torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3) + torch.empty(n, 1, 1, 1).uniform_(-0.15, 0.15)
    dx, dy = (int(v) for v in rng.integers(-3, 4, 2))
    return torch.roll(x, (dy, dx), (2, 3))


def train(crops: np.ndarray, labels: np.ndarray, *, epochs: int = 30, batch: int = 128, lr: float = 3e-3,
          seed: int = 77, upright: bool = False, widths: tuple[int, int, int, int] = WIDTHS,
          arch: Arch = Arch.PLAIN, teachers: Sequence[WholeDieCheck] = (), known: np.ndarray | None = None,
          log: bool = True) -> WholeDieNet:
    """A check trained on the examples (dice and not-dice weighed alike), or with `teachers`
    on what they say of each augmented batch (the mean of their logits, as soft targets:
    a small network taught by larger ones, V109); where `known` (N,) is set, an example
    learns its label even then (rendered throws, whose labels are exact and whose dice
    teachers trained on real photos do not know: V114)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = WholeDieNet(widths, arch)
    steps = epochs * (len(crops) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps)
    share = float(labels.mean())
    loss_of = nn.BCEWithLogitsLoss(pos_weight=torch.tensor((1 - share) / share))
    taught = nn.BCEWithLogitsLoss()  # the teachers learned the balance already
    started = time.monotonic()
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(crops))
        total = 0.0
        for i in range(len(crops) // batch):
            idx = order[i * batch:(i + 1) * batch]
            x = _augmented(crops[idx], rng, upright=upright)
            said = model(x).squeeze(1)
            if teachers:
                target = torch.sigmoid(torch.from_numpy(_mean_logit(teachers, x.numpy())))
                if known is not None:
                    target = torch.where(torch.from_numpy(known[idx]), torch.from_numpy(labels[idx]), target)
                loss = taught(said, target)
            else:
                loss = loss_of(said, torch.from_numpy(labels[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        if log:
            print(f"epoch {epoch}: loss {total / max(1, len(crops) // batch):.3f}, "
                  f"{time.monotonic() - started:.0f} s", flush=True)
    return model.eval()


def _mean_logit(teachers: Sequence[WholeDieCheck], x: np.ndarray) -> np.ndarray:
    """The teachers' mean logit (N,) for network-ready crops `x`."""
    return np.mean([t.logits(x) for t in teachers], axis=0).astype(np.float32)


def export(model: WholeDieNet, path: Path, *, cut: Cut = Cut(),
           output: str = "logit of: the box frames a die") -> None:
    """The check as ONNX, its crop contract in the file (`vision.whole_die` reads it); `output`
    says what its logit means."""
    path.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(1, 3, cut.size, cut.size)
    with _legacy_exporter():
        torch.onnx.export(model.eval(), (x,), str(path), input_names=["crops"], output_names=["logit"],
                          dynamic_axes={"crops": {0: "n"}, "logit": {0: "n"}}, opset_version=OPSET, dynamo=False)
    _stamp(path, crop_size=cut.size, context=cut.context, lift=cut.lift, output=output)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", type=Path, help="folder with the detector and reader whose boxes the check judges")
    ap.add_argument("--out", type=Path, required=True, help="folder to write whole_die.onnx into")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--min-iou", type=float, default=0.0,
                    help="on whole-die sets, a die's box must overlap its top face this much (V78 tried 0.3)")
    ap.add_argument("--scenes", type=int, default=0,
                    help="rendered upright throws to add (their side faces and decoys)")
    ap.add_argument("--clutter", type=float, default=0.7,
                    help="share of the rendered throws (--scenes) on a game table among decoys (V151 tried 1.0)")
    ap.add_argument("--size", type=int, default=SIZE, help="crop side in pixels")
    ap.add_argument("--context", type=float, default=CONTEXT, help="crop side over the box's longer side")
    ap.add_argument("--lift", type=float, default=0.0,
                    help="centre the crop this much of the box's side above the box (V103 tried 0.35)")
    ap.add_argument("--widths", type=int, nargs=4, default=list(WIDTHS), metavar="C",
                    help="channels of the three blocks and the last convolution (V104 tried 8 16 32 48)")
    ap.add_argument("--arch", choices=[a.value for a in Arch], default=Arch.PLAIN.value,
                    help="how the network's stages are built (strided and separable are cheaper)")
    ap.add_argument("--upright", action="store_true", help="train without quarter turns: the photo's up counts")
    ap.add_argument("--teacher", type=Path, action="append", default=[],
                    help="a whole_die.onnx to learn from instead of the labels (repeat: their mean); "
                         "its crop must be this run's")
    ap.add_argument("--jitter", type=int, default=0,
                    help="cut each candidate this many more times, its box moved and scaled a little (V110: 2)")
    ap.add_argument("--rendered-truth", action="store_true",
                    help="with --teacher, the rendered throws learn their exact labels, not the teachers' word (V114)")
    ap.add_argument("--render-seed", type=int, default=None,
                    help="seed of the rendered throws (--scenes; default: --seed)")
    ap.add_argument("--holdout", type=float, default=0.0,
                    help="leave this fraction of the train photos out (to choose `min_whole_die` on)")
    ap.add_argument("--counted", action="store_true",
                    help="the real photos' boxes as read with their labelled count: the count's closer look "
                         "included (C214)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    cut = Cut(args.size, args.context, args.lift)
    teachers = [WholeDieCheck(session(path, args.threads)) for path in args.teacher]
    if any((t.size, t.context, t.lift) != (cut.size, cut.context, cut.lift) for t in teachers):
        ap.error("a teacher must cut its crops as this run does (--size, --context, --lift)")
    crops, labels = examples(args.models, holdout=args.holdout, min_iou=args.min_iou, cut=cut, jitter=args.jitter,
                             counted=args.counted)
    known = np.zeros(len(crops), bool)
    if args.scenes:
        seed = args.seed if args.render_seed is None else args.render_seed
        more = rendered_examples(args.models, scenes=args.scenes, seed=seed, clutter=args.clutter, cut=cut)
        crops, labels = np.concatenate([crops, more[0]]), np.concatenate([labels, more[1]])
        known = np.concatenate([known, np.full(len(more[1]), args.rendered_truth)])
    print(f"{len(crops)} boxes, {int(labels.sum())} of them dice", flush=True)
    model = train(crops, labels, epochs=args.epochs, seed=args.seed, upright=args.upright, teachers=teachers,
                  known=known if known.any() else None,
                  widths=(args.widths[0], args.widths[1], args.widths[2], args.widths[3]), arch=Arch(args.arch))
    export(model, args.out / "whole_die.onnx", cut=cut)


if __name__ == "__main__":
    main()
