"""The free look's search network (`models/free_search.onnx`, C447fb): a thin student of the shipped
search network, cut from it and taught its maps, then taught where the labelled dice are.

The shipped search network (`models/search.onnx`, 32/64 channels) takes 17.7 ms at 1,280 px, too
long for a pass in every free reading; this one takes 5.5 ms (session 94). A 16/32 student is cut
from it (per stream, the channels most active on 60 train views kept, their weights copied) and
taught the teacher's maps on 384 px crops of the train photos of `SETS` (never a dev photo) and of
rendered clutter, each photo as the search sees it (enlarged to its 1,280 px) and at its own size
(C394's crops and loss). Taught the maps alone, thin students lose faint real dice (search-look
recall on train 0.947 -> 0.881), so the last stage (`--labelled`) also lifts, at each labelled
train die, the cell where the teacher's heat peaks inside its box to at least `--labelled-target`.

The batch norms stay frozen throughout: the cut student's norms are the teacher file's folded
ones (identity, `from_onnx.load_folded`), which batch statistics would undo. Writes `search.pt`
and `search.onnx` (the teacher's peak threshold) with its twin `search_x2.onnx` into OUT.

The shipped file was made by three stages of the scripts this module replaces (sessions 93-94):

    P444: prune_search.py OUT --widths 16,32 --minutes 45
    P445: prune_search.py OUT --minutes 30 --lr 5e-4 --init P444/search.pt --sym 20
    P447: pos_search.py OUT --init P445/search.pt --minutes 40      (lr 5e-4, sym 20, pos-weight 1, pos-target 0.6)

which are, with this module:

    python -m dicecam.training.learn.search_student runs/p444 --widths 16,32 --minutes 45
    python -m dicecam.training.learn.search_student runs/p445 --minutes 30 --lr 5e-4 --init runs/p444/search.pt --sym 20
    python -m dicecam.training.learn.search_student runs/p447 --init runs/p445/search.pt --minutes 40 --lr 5e-4 \\
        --sym 20 --labelled 1
    cp runs/p447/search.onnx models/free_search.onnx; cp runs/p447/search_x2.onnx models/free_search_x2.onnx

Each schedule ends on the clock (a cosine over `--minutes`), so a rerun takes as many steps as
its machine manages (P444 16,549, P445 10,131, P447 14,234 steps): the same recipe, not the same
bytes.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from dicecam.training.data.caches import DATASETS
from dicecam.training.data.sources import synth_scene_source
from dicecam.training.learn import from_onnx
from dicecam.training.learn.export import export_search
from dicecam.training.learn.nets import SearchDetector, SepBlock, coarse_layers
from dicecam.training.shapes import SEARCH_STRIDE as STRIDE
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detector import shrink
from dicecam.vision.halvings import Halvings
from dicecam.vision.onnx import metadata, session
from dicecam.vision.reader import DEFAULT_MODELS, SEARCH_FILE

SETS = ("roboflow_dice", "byler_d6", "matteop65_wood")
CROP = 384
EDGE_CELLS = 3  # cells this near a crop's cut edge see padding the whole photo does not have
SAMPLE = 60  # views whose activations choose the channels the cut keeps
#: Module -> the streams (channel sets) its input and output lie in: a residual block's output
#: is its input's stream, the summed laterals share the stream of the block after them.
LAYERS = {
    "patch.0": (None, "S4"), "patch.1": ("S4", "S4"), "near": ("S4", "S4"),
    "down8.0": ("S4", "S8"), "down8.1": ("S8", "S8"), "down8.2": ("S8", "S8"),
    "down16.0": ("S8", "S16"), "down16.1": ("S16", "S16"), "down16.2": ("S16", "S16"),
    "down32.0": ("S16", "S32"), "down32.1": ("S32", "S32"),
    "lat16": ("S16", "S16b"), "lat16b": ("S32", "S16b"), "fuse16": ("S16b", "S16b"),
    "lat8": ("S8", "S8b"), "up8": ("S16b", "S8b"), "fuse8": ("S8b", "S8b"),
    "head": ("S8b", None),
}
#: The module whose output each stream's channels are measured at.
STREAMS = {"near": "S4", "down8": "S8", "down16": "S16", "down32": "S32", "fuse16": "S16b", "fuse8": "S8b"}

View = tuple[np.ndarray, np.ndarray, np.ndarray]  # uint8 photo, the teacher's maps (float16), positive cells


class Thin(SearchDetector):
    """`SearchDetector` at `c2` channels at stride 4 and `c3` at stride 8 (it has 32 and 64):
    the same layers under the same names, so it exports and cuts as the search network does."""

    def __init__(self, c2: int, c3: int) -> None:
        torch.nn.Module.__init__(self)  # SearchDetector's own __init__ fixes its widths
        self.patch = torch.nn.Sequential(torch.nn.Conv2d(3, c2, 4, 4, 0, bias=False), torch.nn.BatchNorm2d(c2),
                                         torch.nn.ReLU(inplace=True))
        self.near = SepBlock(c2, c2)
        (self.down8, self.down16, self.down32, self.lat16, self.lat16b, self.fuse16,
         self.lat8, self.up8, self.fuse8) = coarse_layers(c2, c3)
        self.head = torch.nn.Conv2d(c2, 5, 1)
        assert self.head.bias is not None
        torch.nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0


def search_view(image: np.ndarray, *, side: int = 1280, first_side: int = 512, scale: float = 2.5) -> np.ndarray:
    """The photo as the count's search gives it to its network (`DieDetector.search`)."""
    h, w = image.shape[:2]
    zscale = min(scale * first_side / max(h, w), side / max(h, w))
    source, own = Halvings(image).for_scale(zscale)
    return shrink(source, zscale / own, averaged=own < 1)


def padded(image: np.ndarray) -> np.ndarray:
    """CHW float32 in 0..1, padded with zeros to multiples of 32 as the detector pads."""
    h, w = image.shape[:2]
    x = np.zeros((3, -(-h // 32) * 32, -(-w // 32) * 32), np.float32)
    x[:, :h, :w] = image.transpose(2, 0, 1) * np.float32(1 / 255)
    return x


def positive_cells(heat: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """A uint8 mask over `heat`'s cells: for each box (view pixels) that covers a cell, the cell
    inside it where `heat` is highest (where the teacher places the die, however faintly)."""
    pos = np.zeros(heat.shape, np.uint8)
    for b in boxes:
        x0, y0 = int(max(b[0] // STRIDE, 0)), int(max(b[1] // STRIDE, 0))
        x1, y1 = int(min(-(-b[2] // STRIDE), heat.shape[1])), int(min(-(-b[3] // STRIDE), heat.shape[0]))
        if x1 <= x0 or y1 <= y0:
            continue
        part = heat[y0:y1, x0:x1]
        k = np.unravel_index(np.argmax(part), part.shape)
        pos[y0 + k[0], x0 + k[1]] = 1
    return pos


def teacher_views(shared: Path, scenes: int, teacher_path: Path, *, labelled: bool) -> list[View]:
    """The train photos of `SETS` and `scenes` rendered clutter scenes, each as the search sees it
    and (up to 1,280 px) at its own size, with the teacher's maps; the positive cells of the
    labelled dice with `labelled` (all zero without, and for the scenes)."""
    items: list[tuple[np.ndarray, np.ndarray | None]] = [
        (load_image(p.path), np.asarray(p.dice.boxes, np.float32).reshape(-1, 4))
        for name in SETS for p in read_dataset(shared / name, split="train") if not p.crop]
    draw = synth_scene_source(upright=True, clutter=1.0) if scenes else None
    if draw is not None:
        rng = np.random.default_rng([394, 80])  # a seed the benchmarks' scenes do not use
        items += [(draw(rng).image, None) for _ in range(scenes)]
    teacher = session(teacher_path, 2)
    out = []
    for image, boxes in items:
        for view in [search_view(image)] + ([image] if max(image.shape[:2]) <= 1280 else []):
            maps = teacher.run(None, {"image": padded(view)[None]})[0][0]
            pos = np.zeros(maps.shape[1:], np.uint8)
            if labelled and boxes is not None:
                pos = positive_cells(maps[0], boxes * (view.shape[1] / image.shape[1]))
            out.append((view, maps.astype(np.float16), pos))
    return out


def load_teacher(path: Path) -> SearchDetector:
    """The search network in `path` as torch layers, its norms identity ones that carry the
    folded biases (`from_onnx.load_folded`)."""
    # Its file is stamped as a detector's (`input_side`); its layers are named as its own.
    teacher = from_onnx.load_folded(path, network=SearchDetector())
    assert isinstance(teacher, SearchDetector)
    return teacher


def importance(teacher: SearchDetector, views: list[View]) -> dict[str, torch.Tensor]:
    """Each stream's channels' mean absolute activation, summed over `views`."""
    acts: dict[str, torch.Tensor] = {}

    def hook(key: str):
        def record(_module: torch.nn.Module, _inputs: object, out: torch.Tensor) -> None:
            acts[key] = acts.get(key, 0) + out.detach().abs().mean(dim=(0, 2, 3))
        return record

    hooks = [teacher.get_submodule(name).register_forward_hook(hook(key)) for name, key in STREAMS.items()]
    with torch.no_grad():
        for view, _maps, _pos in views:
            teacher(torch.from_numpy(padded(view))[None])
    for h in hooks:
        h.remove()
    return acts


def strongest(acts: dict[str, torch.Tensor], c2: int, c3: int) -> dict[str, torch.Tensor]:
    """Per stream, the indices (ascending) of the channels a `Thin(c2, c3)` keeps: the most active."""
    widths = {"S4": c2, "S8": c3, "S16": 2 * c3, "S32": 2 * c3, "S16b": c3, "S8b": c2}
    return {k: torch.sort(torch.argsort(acts[k], descending=True)[:n]).values for k, n in widths.items()}


def cut(teacher: SearchDetector, student: Thin, keep: dict[str, torch.Tensor]) -> None:
    """Load `student` with the teacher's weights at the channels `keep` holds for each stream."""
    state = teacher.state_dict()
    out = {}
    for name in student.state_dict():
        layer = max((p for p in LAYERS if name.startswith(p + ".")), key=len)
        sin, sout = LAYERS[layer]
        if name[len(layer) + 1:].startswith("dw."):
            sout = sin  # a block's depthwise layer: one filter for each of its input channels
        w = state[name]
        if w.dim() and sout is not None:
            w = w[keep[sout]]
        if w.dim() == 4 and w.shape[1] > 1 and sin is not None:
            w = w[:, keep[sin]]
        out[name] = w.clone()
    student.load_state_dict(out)


def freeze_norms(model: torch.nn.Module) -> None:
    """Batch norms on their running statistics (their scale and shift still learn)."""
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


def crop_corner(rng: np.random.Generator, heat: np.ndarray, pos: np.ndarray, shape: tuple[int, int], *,
                labelled: bool) -> tuple[int, int]:
    """A crop's top-left corner (y, x) on the padded photo of `shape`, on the 32 px grid."""
    ph, pw = shape
    peaks = np.nonzero(heat > 0.2)
    if labelled:
        # pos_search.py: one draw, 40% around a labelled die, up to 70% around a teacher's peak.
        u = rng.random()
        near = np.nonzero(pos) if pos.any() and u < 0.4 else peaks if len(peaks[0]) and u < 0.7 else None
    else:
        # prune_search.py (distil_search.py's crops): 60% around a peak, drawn only where there is one.
        near = peaks if len(peaks[0]) and rng.random() < 0.6 else None
    if near is not None:
        k = rng.integers(len(near[0]))
        y0 = near[0][k] * STRIDE - rng.integers(64, CROP - 64)
        x0 = near[1][k] * STRIDE - rng.integers(64, CROP - 64)
    else:
        y0, x0 = rng.integers(-64, max(ph - CROP, 0) + 64), rng.integers(-64, max(pw - CROP, 0) + 64)
    # Offsets on the 32 px grid keep every stride's cells where the whole photo has them.
    return int(np.clip(y0 // 32 * 32, 0, max(ph - CROP, 0))), int(np.clip(x0 // 32 * 32, 0, max(pw - CROP, 0)))


def batch(views: list[View], rng: np.random.Generator, size: int, *, labelled: bool
          ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """`size` crops: inputs (N, 3, CROP, CROP), the teacher's maps there, each cell's weight
    (none near a cut edge) and the positive cells."""
    cells = CROP // STRIDE
    xs = np.zeros((size, 3, CROP, CROP), np.float32)
    ts = np.zeros((size, 5, cells, cells), np.float32)
    ws = np.zeros((size, cells, cells), np.float32)
    ps = np.zeros((size, cells, cells), np.float32)
    for n in range(size):
        view, maps, pos = views[rng.integers(len(views))]
        x = padded(view)
        _, ph, pw = x.shape
        heat = 1 / (1 + np.exp(-maps[0].astype(np.float32)))
        y0, x0 = crop_corner(rng, heat, pos, (ph, pw), labelled=labelled)
        part = x[:, y0:y0 + CROP, x0:x0 + CROP]
        xs[n, :, :part.shape[1], :part.shape[2]] = part
        rows, cols = slice(y0 // STRIDE, (y0 + CROP) // STRIDE), slice(x0 // STRIDE, (x0 + CROP) // STRIDE)
        m = maps[:, rows, cols].astype(np.float32)
        ts[n, :, :m.shape[1], :m.shape[2]] = m
        ps[n, :m.shape[1], :m.shape[2]] = pos[rows, cols]
        w = ws[n]
        w[:m.shape[1], :m.shape[2]] = 1.0
        if y0 > 0:
            w[:EDGE_CELLS] = 0
        if x0 > 0:
            w[:, :EDGE_CELLS] = 0
        if y0 + CROP < ph:
            w[m.shape[1] - EDGE_CELLS:] = 0
        if x0 + CROP < pw:
            w[:, m.shape[2] - EDGE_CELLS:] = 0
    return torch.from_numpy(xs), torch.from_numpy(ts), torch.from_numpy(ws), torch.from_numpy(ps)


def distil_loss(out: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Soft-target BCE on the heat map, heavier where the teacher sees a die, and L1 on the
    sizes and offsets where it does (they only matter at its peaks)."""
    p = torch.sigmoid(target[:, 0])
    heat = F.binary_cross_entropy_with_logits(out[:, 0], p, reduction="none")
    heat = (heat * weight * (1 + 20 * p)).sum() / weight.sum().clamp(min=1)
    at = weight * p
    rest = ((out[:, 1:] - target[:, 1:]).abs().sum(1) * at).sum() / at.sum().clamp(min=1e-3)
    return heat + 0.5 * rest


def student_loss(out: torch.Tensor, target: torch.Tensor, weight: torch.Tensor, pos: torch.Tensor, *,
                 box: float = 0.0, sym: float = 0.0, labelled: float = 0.0, labelled_target: float = 0.6
                 ) -> torch.Tensor:
    """`distil_loss`, plus `box` x more L1 on the sizes and offsets at the teacher's peaks, `sym` x
    the heat's BCE where the student's heat exceeds the teacher's (its false peaks), and `labelled`
    x the BCE towards heat of at least `labelled_target` at the positive cells."""
    loss = distil_loss(out, target, weight)
    pt = torch.sigmoid(target[:, 0])
    if box:
        at = weight * pt
        loss = loss + box * ((out[:, 1:] - target[:, 1:]).abs().sum(1) * at).sum() / at.sum().clamp(min=1e-3)
    if sym:
        q = torch.sigmoid(out[:, 0]).detach()
        bce = F.binary_cross_entropy_with_logits(out[:, 0], pt, reduction="none")
        # Not at a positive cell: there the student is meant to see more than the teacher.
        loss = loss + sym * (bce * weight * torch.relu(q - pt) * (1 - pos)).sum() / weight.sum().clamp(min=1)
    on = pos * weight
    if labelled and on.sum() > 0:
        bce = F.binary_cross_entropy_with_logits(out[:, 0], torch.clamp(pt, min=labelled_target), reduction="none")
        loss = loss + labelled * (bce * on).sum() / on.sum()
    return loss


def parser() -> argparse.ArgumentParser:
    """The command line; `--lr` and `--sym` default to each stage's own (see `main`)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path)
    p.add_argument("--init", default="cut", help="'cut' from the teacher, or a student's state dict (search.pt)")
    p.add_argument("--widths", default="16,32", help="channels at stride 4 and stride 8")
    p.add_argument("--minutes", type=float, default=40.0)
    p.add_argument("--lr", type=float, default=None, help="default 1e-3, with --labelled 5e-4")
    p.add_argument("--batch", type=int, default=12)
    p.add_argument("--scenes", type=int, default=300, help="rendered clutter scenes beside the photos")
    p.add_argument("--sym", type=float, default=None, help="weight on the student's false peaks (default 0, "
                   "with --labelled 20)")
    p.add_argument("--box", type=float, default=0.0,
                   help="extra weight on the sizes and offsets at the teacher's peaks")
    p.add_argument("--labelled", type=float, default=0.0, help="weight on the labelled dice's positive cells "
                   "(0: the teacher's maps alone)")
    p.add_argument("--labelled-target", type=float, default=0.6, help="the heat a positive cell is taught at least")
    p.add_argument("--steps", type=int, default=None, help="stop after this many steps (a quick run)")
    p.add_argument("--shared", type=Path, default=DATASETS)
    p.add_argument("--teacher", type=Path, default=DEFAULT_MODELS / SEARCH_FILE)
    return p


def main(argv: list[str] | None = None) -> None:
    """Train one stage (the module's docstring gives the three) and write its files into OUT."""
    args = parser().parse_args(argv)
    labelled = args.labelled > 0
    # Each stage as its script ran it: prune_search.py (P444, P445) seed 444, lr 1e-3, no --sym;
    # pos_search.py (P447) seed 447, lr 5e-4, --sym 20. Both: warm-up 100 steps, weight decay 1e-5,
    # norms frozen (distil_search.py's 200 steps and 1e-4 were for a fresh student).
    seed = 447 if labelled else 444
    lr = args.lr if args.lr is not None else 5e-4 if labelled else 1e-3
    sym = args.sym if args.sym is not None else 20.0 if labelled else 0.0
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    start = time.time()
    views = teacher_views(args.shared, args.scenes, args.teacher, labelled=labelled)
    positives = sum(int(pos.sum()) for _view, _maps, pos in views)
    print(f"{len(views)} views, {positives} positive cells, in {time.time() - start:.0f} s", flush=True)
    c2, c3 = (int(v) for v in args.widths.split(","))
    student = Thin(c2, c3)
    # prune_search.py drew the views to cut by even when --init then replaced the cut (P445),
    # pos_search.py only to cut: so each stage's crops follow the same draws as its script's.
    cutting = args.init == "cut"
    sample = rng.choice(len(views), min(SAMPLE, len(views)), replace=False) if cutting or not labelled else np.arange(0)
    if cutting:
        teacher = load_teacher(args.teacher).eval()
        cut(teacher, student, strongest(importance(teacher, [views[i] for i in sample]), c2, c3))
    else:
        student.load_state_dict(torch.load(args.init, map_location="cpu"))
    args.out.mkdir(parents=True, exist_ok=True)
    opt = torch.optim.AdamW(student.parameters(), lr=lr, weight_decay=1e-5)
    budget, begun, step, seen = args.minutes * 60, time.time(), 0, []
    while time.time() - begun < budget and (args.steps is None or step < args.steps):
        done = (time.time() - begun) / budget
        for group in opt.param_groups:  # cosine over the time budget, after a short warm-up
            group["lr"] = lr * min(1.0, (step + 1) / 100) * 0.5 * (1 + math.cos(math.pi * min(done, 1.0)))
        student.train()
        freeze_norms(student)
        x, t, w, pos = batch(views, rng, args.batch, labelled=labelled)
        loss = student_loss(student(x), t, w, pos, box=args.box, sym=sym, labelled=args.labelled,
                            labelled_target=args.labelled_target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen.append(float(loss.detach()))
        step += 1
        if step % 100 == 0:
            print(f"step {step} ({time.time() - begun:.0f} s): loss {np.mean(seen[-100:]):.4f}", flush=True)
            torch.save(student.state_dict(), args.out / "search.pt")
    torch.save(student.state_dict(), args.out / "search.pt")
    min_score = metadata(session(args.teacher, 1), "min_score", 0.25)
    export_search(student.eval(), args.out / "search.onnx", min_score=min_score)
    print(f"{step} steps; wrote {args.out / 'search.onnx'} and its twin", flush=True)


if __name__ == "__main__":
    main()
