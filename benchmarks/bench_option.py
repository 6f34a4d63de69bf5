"""What a reader setting, or a models folder, costs in time, measured so that the machine's drift cancels out.

    python benchmarks/bench_option.py --option NAME=VALUE [--option ...] [--repeats 60]
        [--models DIR] [--dice | --frames] [--more N] [--json]
    python benchmarks/bench_option.py --vs-models CANDIDATE_DIR [--models DIR] [--repeats 60]

`bench_vision.py` times one reading per process; on this shared 2-core machine a run can
be slower by a third, so two runs taken a minute apart differ by more than a small change
costs. Here both readers (the defaults and the defaults with `--option`) live in one
process and read the same photo in turn, `--repeats` times each, so whatever slows the
machine slows both alike. Reported per photo (the photos of `bench_vision.py`): each
reader's median recognition time and the median of the paired differences, default minus
option (what the default costs over the option; negative: it saves time). `--vs-models`
gives the second reader a candidate's networks instead (e.g. a folder with a whole-die
check): the same settings, other files. `--dice` tells both readers each photo's count
(`bench_vision.DICE`), as a throw at the table does; `--frames` reads as the live camera
reads a frame: with the count, without the search for missing dice; `--more N` tells
each photo N dice more than it shows (a count it cannot fill: every look runs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench_vision import DICE, SIZES, scene_photo, told_count
from reader_options import reader_options, reader_settings

ROOT = Path(__file__).resolve().parents[1]


def paired_times(first: Callable[[], object], second: Callable[[], object], repeats: int) -> dict:
    """Run `first` and `second` in turn `repeats` times (after one warm-up each): their
    median times and the median of the paired differences (first - second), in ms."""
    first(), second()
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeats):
        for fn, out in ((first, a), (second, b)):
            start = time.perf_counter()
            fn()
            out.append((time.perf_counter() - start) * 1000)
    return {"first_ms": round(statistics.median(a), 1), "second_ms": round(statistics.median(b), 1),
            "difference_ms": round(statistics.median(x - y for x, y in zip(a, b)), 1), "repeats": repeats}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting to time against the defaults, e.g. check_below=0")
    p.add_argument("--vs-models", type=Path, default=None, metavar="DIR",
                   help="time a reader with this folder's networks against --models' (the shipped ones)")
    p.add_argument("--repeats", type=int, default=60)
    p.add_argument("--models", type=Path, default=None)
    told = p.add_mutually_exclusive_group()
    told.add_argument("--dice", action="store_true",
                      help="tell both readers how many dice each photo shows, as a throw at the table does")
    told.add_argument("--frames", action="store_true",
                      help="read as the live camera reads a frame: with the count, no search for missing dice")
    p.add_argument("--more", type=int, default=0, metavar="N",
                   help="tell each photo N dice more than it shows (a count it cannot fill)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        counts = {scene: told_count(scene, dice=args.dice or args.frames, more=args.more) for scene in DICE}
    except ValueError as exc:
        p.error(str(exc))
    if not args.option and args.vs_models is None:
        p.error("give --option NAME=VALUE, --vs-models DIR, or both")
    if args.vs_models is not None and not args.vs_models.is_dir():
        p.error(f"--vs-models: no such folder: {args.vs_models}")
    from dicecam.vision.decode import decode_image
    from dicecam.vision.reader import DiceReader

    default = DiceReader(args.models)
    other = DiceReader(args.vs_models or args.models, settings=reader_settings(reader_options(args.option)))
    against = ", ".join([*args.option, *([f"the networks of {args.vs_models}"] if args.vs_models else [])])
    rows = []
    for scene in DICE:
        for width, height in SIZES:
            image = decode_image(scene_photo(scene, width, height))
            first = partial(default.read, image, count=counts[scene], search=not args.frames)
            second = partial(other.read, image, count=counts[scene], search=not args.frames)
            times = paired_times(first, second, args.repeats)
            rows.append({"scene": scene, "size": f"{width}x{height}", **times})
            if args.json:
                print(json.dumps(rows[-1]), flush=True)
    if not args.json:
        print(f"defaults against {against}, {args.repeats} turns each, recognition in ms (median)\n")
        print("| scene | photo | defaults | changed | defaults minus changed (median of pairs) |")
        print("|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['scene']} | {r['size']} | {r['first_ms']} | {r['second_ms']} | {r['difference_ms']:+.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
