"""How long a set's real photos take, one by one: the budget is every photo, not a median.

    python benchmarks/photo_times.py ../shared/datasets/roboflow_dice [--split dev] [--dice]
        [--max-dice N] [--reads 3] [--budget 50] [--models DIR] [--vs-models DIR]
        [--option NAME=VALUE ...] [--vs-option NAME=VALUE ...] [--json]

`bench_vision.py` times four scenes at phone sizes in fresh processes; real photos of a
cluttered table can cost more than any of them (a Catan throw whose small dice get the
closer look, a square photo searched at 1,280 px, a board's tokens read with their views).
This reads each photo of the split `--reads` times with one warm reader (after one read to
warm it) and keeps its fastest read, so another process's moment on the CPU does not count
against a photo: what is left is what the photo itself costs. `--dice` tells the reader each
photo's labelled count, as the page does for a throw. Printed: photos, median, 90th
percentile and slowest time in ms, how many photos take longer than `--budget` ms, and the
slowest five by name. `--vs-models DIR` times a candidate's networks in the same process, the
two readers taking turns on each photo: two separate runs put five photos more or fewer over
50 ms with the same files (session 77), so a candidate is judged by the paired difference and
by which photos cross the budget. `--vs-option NAME=VALUE` does the same for a candidate
setting: the second reader has the first's networks and settings with it changed; both
together time a candidate's networks read with its settings.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from reader_options import reader_options, reader_settings

#: The issue's budget for one photo's recognition, in ms, on 2 cores.
BUDGET_MS = 50.0


@dataclass(frozen=True)
class PhotoTime:
    """One photo's fastest read in ms, and how many dice it was labelled with."""

    image: str
    ms: float
    dice: int


def fastest_each(calls: Sequence[Callable[[], object]], reads: int) -> list[float]:
    """The fastest of `reads` timed calls of each of `calls`, in ms (each called once untimed
    first, to warm it). The calls take turns within each round, so a moment the machine is
    busy falls on all of them alike."""
    if reads < 1:
        raise ValueError(f"a photo is read at least once, not {reads} times")
    for call in calls:
        call()
    best = [float("inf")] * len(calls)
    for _ in range(reads):
        for i, call in enumerate(calls):
            start = time.perf_counter()
            call()
            best[i] = min(best[i], time.perf_counter() - start)
    return [b * 1000 for b in best]


def fastest(read: Callable[[], object], reads: int) -> float:
    """The fastest of `reads` timed calls of `read`, in ms (one untimed call first, to warm it)."""
    return fastest_each([read], reads)[0]


def time_photos(reader, folder: Path, split: str, *, dice: bool = False, max_dice: int | None = None,
                reads: int = 3) -> list[PhotoTime]:
    """Each whole photo of `folder`'s `split` (at most `max_dice` labelled dice), its fastest
    of `reads` reads, told its labelled count where `dice`."""
    return _timed([reader], folder, split, dice=dice, max_dice=max_dice, reads=reads)[0]


def time_pair(reader, vs, folder: Path, split: str, *, dice: bool = False, max_dice: int | None = None,
              reads: int = 3) -> tuple[list[PhotoTime], list[PhotoTime]]:
    """`time_photos` of two readers taking turns on each photo: `reader`'s times and `vs`'s."""
    times, vs_times = _timed([reader, vs], folder, split, dice=dice, max_dice=max_dice, reads=reads)
    return times, vs_times


def _timed(readers: Sequence, folder: Path, split: str, *, dice: bool, max_dice: int | None,
           reads: int) -> list[list[PhotoTime]]:
    """Each reader's times of the photos `time_photos` reads, the readers in turn on each photo."""
    from dicecam.vision.dataset import read_dataset
    from dicecam.vision.decode import load_image

    out: list[list[PhotoTime]] = [[] for _ in readers]
    for photo in read_dataset(folder, split=None if split == "all" else split):
        if photo.crop or (max_dice is not None and len(photo.dice) > max_dice):
            continue
        image = load_image(photo.path)
        count = len(photo.dice) if dice else None
        times = fastest_each([partial(r.read, image, count=count) for r in readers], reads)
        for times_of, ms in zip(out, times):
            times_of.append(PhotoTime(photo.image, ms, len(photo.dice)))
    return out


def paired(times: list[PhotoTime], vs_times: list[PhotoTime], budget: float = BUDGET_MS) -> dict[str, Any]:
    """Two readers' times of the same photos: the median of the differences (vs minus the
    first, in ms) and the photos on one side of `budget` for one reader and the other for the other."""
    diff = np.array([b.ms - a.ms for a, b in zip(times, vs_times)])
    flips = [{"image": Path(a.image).name, "ms": round(a.ms, 1), "vs_ms": round(b.ms, 1)}
             for a, b in zip(times, vs_times) if (a.ms > budget) != (b.ms > budget)]
    return {"median_diff_ms": round(float(np.median(diff)), 2) if len(diff) else None, "flips": flips}


def summary(times: Iterable[PhotoTime], budget: float = BUDGET_MS) -> dict[str, Any]:
    """Photos, median / 90th percentile / slowest ms, how many over `budget`, the slowest five."""
    times = list(times)
    if not times:
        return {"photos": 0, "median_ms": None, "p90_ms": None, "max_ms": None, "over_budget": 0, "slowest": []}
    ms = np.array([t.ms for t in times])
    slowest = sorted(times, key=lambda t: -t.ms)[:5]
    return {"photos": len(times), "median_ms": round(float(np.median(ms)), 1),
            "p90_ms": round(float(np.percentile(ms, 90)), 1), "max_ms": round(float(ms.max()), 1),
            "over_budget": int((ms > budget).sum()),
            "slowest": [{"image": Path(t.image).name, "ms": round(t.ms, 1), "dice": t.dice} for t in slowest]}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--split", default="dev", help="which split (default: dev; 'all' for every photo)")
    p.add_argument("--dice", action="store_true", help="tell the reader each photo's labelled count")
    p.add_argument("--max-dice", type=int, default=None, metavar="N", help="only photos of at most N labelled dice")
    p.add_argument("--reads", type=int, default=3, help="timed reads a photo, the fastest kept (default 3)")
    p.add_argument("--budget", type=float, default=BUDGET_MS, help=f"ms a photo may take (default {BUDGET_MS:g})")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--vs-models", type=Path, default=None, metavar="DIR",
                   help="a candidate's models folder, timed in turn with --models on each photo")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting, e.g. free_look_side=640")
    p.add_argument("--vs-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a candidate setting, timed in turn with the reader without it on each photo")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.reads < 1:
        p.error("--reads is how many timed reads a photo: 1 or more")
    if args.max_dice is not None and args.max_dice < 0:
        p.error("--max-dice is a number of dice: 0 or more")
    for folder in (args.models, args.vs_models):
        if folder is not None and not folder.is_dir():
            p.error(f"no such folder: {folder}")
    from dicecam.vision.reader import DiceReader

    try:
        settings = reader_settings(reader_options(args.option))
        vs_settings = settings.but(**reader_options(args.vs_option)) if args.vs_option else None
    except ValueError as err:
        p.error(str(err))
    reader = DiceReader(args.models, threads=2, settings=settings)
    # The candidate as printed: its models folder, then its settings.
    candidate = " ".join([*([str(args.vs_models)] if args.vs_models is not None else []), *args.vs_option])
    key = "vs_models" if args.vs_models is not None else "vs_option"
    if candidate:
        vs = DiceReader(args.vs_models or args.models, threads=2, settings=vs_settings or settings)
        times, vs_times = time_pair(reader, vs, args.dataset, args.split, dice=args.dice, max_dice=args.max_dice,
                                    reads=args.reads)
        result = {**summary(times, args.budget), key: summary(vs_times, args.budget),
                  **paired(times, vs_times, args.budget)}
    else:
        times = time_photos(reader, args.dataset, args.split, dice=args.dice, max_dice=args.max_dice,
                            reads=args.reads)
        result = summary(times, args.budget)
    if args.json:
        print(json.dumps({"dataset": str(args.dataset), "split": args.split, "dice": args.dice,
                          "budget_ms": args.budget, **result}))
        return
    told = "told each photo's count" if args.dice else "without a count"
    print(f"{args.dataset.name} ({args.split}, {told}): {result['photos']} photos, median {result['median_ms']} ms, "
          f"p90 {result['p90_ms']}, slowest {result['max_ms']}; {result['over_budget']} over {args.budget:g} ms")
    for row in result["slowest"]:
        print(f"  {row['image']}: {row['ms']} ms ({row['dice']} dice)")
    if candidate:
        vs = result[key]
        print(f"{candidate}, in turn on each photo: median {vs['median_ms']} ms, p90 {vs['p90_ms']}, "
              f"slowest {vs['max_ms']}; {vs['over_budget']} over {args.budget:g} ms; median difference "
              f"{result['median_diff_ms']} ms; on the other side of the budget:")
        for row in result["flips"]:
            print(f"  {row['image']}: {row['ms']} -> {row['vs_ms']} ms")


if __name__ == "__main__":
    main()
