"""Read rendered throws that no training run has seen, and score them by the datasets' rule.

    python benchmarks/rendered_scenes.py [--scenes 300] [--seed A,B] [--models DIR] [--option NAME=VALUE ...]
        [--by-tilt] [--upright] [--clutter SHARE] [--objects {table,grid,both,tiles,all}] [--dice] [--json]

The renderer (`training/synth*.py`) draws throws the shared photos lack: oblique views up
to 55 degrees (far dice look smaller), dice of every colour and material, touching and
cocked dice, many tables. Training draws its scenes from small integer seeds; these come
from a seed no run uses, so every scene is new to the model. Dice the renderer marks
unreadable (cocked, hidden) are left out of the score either way: reporting one or not
is both fine. Extra boxes whose centre lies on a die's picture (a side face read as a
die, part of a die) are counted apart, and so are the mistakes and right dice marked
unsure (players check those: a mistake left unmarked is a silent one). `--seed` draws other unseen scenes, to choose a
setting on them and keep the benchmark's own for measuring it. `--option` passes a reader setting (e.g.
`--option min_relative_size=0` to see what the size prior does). `--by-tilt` scores the
scenes again by how steeply the camera looked (degrees from straight down). The camera is
turned about its axis any way; `--upright` draws the scenes as a phone held upright
takes them (the table's far side at the photo's top), as players' photos come.
`--clutter 1` puts every throw on a game table's clutter (printed cloths and boards, number
tokens, pieces, cards, numeral dice, tray hardware: `training.render.clutter`) and counts
the boxes reported on those decoys, and how many of them sure, by kind of decoy (each box
goes to the smallest decoy holding its centre); `--objects grid` lays other things on those
tables instead (keypads, toy bricks, buttons, coins: `training.render.grid_objects`), things
made of rows of round marks that training's tables never held, and `--objects tiles` game
pieces a die's face's size (tiles, chips, score sheets: `training.render.tiles`); `--dice`
tells the reader how many dice each throw has.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import pairwise
from pathlib import Path

import numpy as np
from reader_options import reader_options, reader_settings

from dicecam.training.calibrate import right_readings
from dicecam.training.data.photos import Sample
from dicecam.training.data.sources import synth_scene_source
from dicecam.training.render.objects import OBJECT_SETS
from dicecam.vision.boxes import centres, inside
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import Score, match_boxes, score_photo, total, unsure_counts
from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[1]

SEED = (987654321, 4242)  # never used by training, which seeds with small integers
TILT_BANDS = (0, 10, 25, 40, 55)  # degrees; the renderer tilts the camera from 0 up to (not including) 55


def rendered(seed: str, count: int, *, upright: bool = False,
             clutter: float = 0.0, objects: str = "table") -> Iterator[tuple[Sample, np.ndarray]]:
    """`count` scenes drawn from `seed` ("A,B"), each with its mask of readable dice;
    `upright`: taken with the phone held upright; `clutter`: the share on a cluttered game
    table, with `objects` on it (`training.render.objects.OBJECT_SETS`). Exits with a message
    if the renderer is not installed.
    """
    draw = synth_scene_source(upright=upright, clutter=clutter, objects=objects)
    if draw is None:
        sys.exit("the renderer (training/synth.py) is not installed")
    rng = np.random.default_rng([int(part) for part in seed.split(",")])
    for _ in range(count):
        s = draw(rng)
        yield s, (s.readable if s.readable is not None else np.ones(len(s.values), bool))


def fooled_by(boxes: np.ndarray, sure: np.ndarray, decoys: np.ndarray | None,
              kinds: Sequence[str] | None) -> Counter[tuple[str, bool]]:
    """How many of `boxes` (extra boxes, none on a die) lie on a decoy, by (the decoy's kind,
    whether the box was reported `sure`). A box goes to the smallest decoy holding its centre:
    a token printed on a board is the token. Decoys of unknown kind count as "clutter"."""
    fooled: Counter[tuple[str, bool]] = Counter()
    if decoys is None or not len(decoys) or not len(boxes):
        return fooled
    holds = inside(centres(boxes), decoys)  # (boxes, decoys)
    area = (decoys[:, 2] - decoys[:, 0]) * (decoys[:, 3] - decoys[:, 1])
    for i in np.flatnonzero(holds.any(axis=1)):
        smallest = int(np.flatnonzero(holds[i])[np.argmin(area[holds[i]])])
        fooled[(kinds[smallest] if kinds is not None else "clutter", bool(sure[i]))] += 1
    return fooled


def score_scene(reader: DiceReader, image: np.ndarray, boxes: np.ndarray, values: np.ndarray,
                readable: np.ndarray, die_boxes: np.ndarray | None = None, *, decoys: np.ndarray | None = None,
                decoy_kinds: Sequence[str] | None = None,
                count: int | None = None) -> tuple[Score, int, tuple[int, int], Counter[tuple[str, bool]]]:
    """One scene's score, unreadable dice and the readings on them left out; how many of
    its extra boxes lie on a die's picture (a side face or part of a die, not the table);
    how many of its mistakes and of its right dice are marked unsure; and the boxes
    reported on `decoys` (clutter) by kind and sureness (`fooled_by`). `count`: the reader
    is told how many dice there are."""
    truth = Dice(boxes, values, np.ones(len(values), np.float32))
    found = reader.read(image, count=count)
    pairs = match_boxes(truth.boxes, found.boxes)
    extra = np.ones(len(found), bool)
    extra[pairs[:, 1]] = False
    on_dice = 0 if die_boxes is None else int(inside(centres(found.boxes[extra]), die_boxes).any(axis=1).sum())
    fooled = fooled_by(found.boxes[extra], found.confidences[extra] >= reader.low_confidence, decoys, decoy_kinds)
    found = found[right_readings(found.boxes, found.values, boxes, values, readable)[1]]
    return (score_photo(truth[readable], found), on_dice, unsure_counts(truth[readable], found, reader.low_confidence),
            fooled)


def by_kind(fooled: Counter[tuple[str, bool]], shown: Counter[str]) -> dict[str, dict[str, int]]:
    """Per kind of decoy: how many were `shown`, how many boxes were reported on them, how many sure."""
    kinds = sorted(set(shown) | {kind for kind, _ in fooled}, key=lambda k: (-shown[k], k))
    return {kind: {"shown": shown[kind], "boxes": fooled[(kind, True)] + fooled[(kind, False)],
                   "sure": fooled[(kind, True)]} for kind in kinds}


def by_tilt(scores: list[Score], tilts: list[float]) -> dict[str, Score]:
    """The scenes' scores summed per band of camera tilt (`TILT_BANDS`), keyed like "10-25"."""
    bands = {}
    for lo, hi in pairwise(TILT_BANDS):
        bands[f"{lo}-{hi}"] = total(s for s, t in zip(scores, tilts) if lo <= t < hi)
    return bands


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenes", type=int, default=300)
    p.add_argument("--seed", default=",".join(map(str, SEED)), metavar="A,B",
                   help="the scenes' random seed (default: the benchmark's own)")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting, e.g. min_relative_size=0")
    p.add_argument("--by-tilt", action="store_true", help="scores per band of camera tilt too")
    p.add_argument("--upright", action="store_true",
                   help="the phone held upright (the table's far side at the photo's top), not turned any way")
    p.add_argument("--clutter", type=float, default=0.0, metavar="SHARE",
                   help="share of throws on a cluttered game table (default 0: the plain tables)")
    p.add_argument("--objects", choices=tuple(OBJECT_SETS), default="table",
                   help="what lies on a cluttered table (default: training's tables' things)")
    p.add_argument("--dice", action="store_true", help="tell the reader how many dice each throw has")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    options = reader_options(args.option)
    reader = DiceReader(args.models, settings=reader_settings(options))
    scores, tilts, on_dice, marked = [], [], 0, np.zeros(2, np.int64)
    fooled: Counter[tuple[str, bool]] = Counter()
    shown: Counter[str] = Counter()
    for s, readable in rendered(args.seed, args.scenes, upright=args.upright, clutter=args.clutter,
                                objects=args.objects):
        assert s.boxes is not None and s.tilt_deg is not None  # a rendered scene knows both
        score, extra_on_dice, unsure, on_decoys = score_scene(
            reader, s.image, s.boxes, s.values, readable, s.die_boxes, decoys=s.decoys, decoy_kinds=s.decoy_kinds,
            count=len(s.values) if args.dice else None)
        scores.append(score)
        tilts.append(s.tilt_deg)
        on_dice += extra_on_dice
        fooled += on_decoys
        shown.update(s.decoy_kinds or ())
        marked += unsure
    result = total(scores)
    on_decoys_total = sum(fooled.values())
    kinds = by_kind(fooled, shown)
    bands = by_tilt(scores, tilts) if args.by_tilt else {}
    if args.json:
        print(json.dumps({"scenes": args.scenes, "options": options, **result.to_dict(),
                          "clutter": args.clutter, "objects": args.objects, "count_given": args.dice,
                          "extra_boxes_on_dice": on_dice, "boxes_on_decoys": on_decoys_total,
                          "decoys_by_kind": kinds,
                          "mistakes_unsure": int(marked[0]), "right_unsure": int(marked[1]),
                          **({"by_tilt": {k: v.to_dict() for k, v in bands.items()}} if bands else {})}))
    else:
        print(f"{args.scenes} rendered scenes{' with ' + ', '.join(args.option) if args.option else ''}: "
              f"recall {result.recall:.4f}, precision {result.precision:.4f}, value accuracy "
              f"{result.value_accuracy:.4f}, read F1 {result.read_f1:.4f}, "
              f"exact-roll rate {result.exact_roll_rate:.3f}; {on_dice} extra boxes on a die's picture "
              f"(side faces, parts of dice), {on_decoys_total} on clutter; marked unsure "
              f"{marked[0]}/{result.mistakes} mistakes, {marked[1]}/{result.right} right dice")
        if kinds:
            print("  boxes on clutter by kind (boxes, of them sure / decoys shown): " + ", ".join(
                f"{kind} {k['boxes']}, {k['sure']} sure / {k['shown']}" for kind, k in kinds.items()))
        for band, score in bands.items():
            print(f"  tilt {band:>5} degrees, {score.photos:4d} scenes: recall {score.recall:.4f}, precision "
                  f"{score.precision:.4f}, value accuracy {score.value_accuracy:.4f}, read F1 {score.read_f1:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
