"""What a reader setting costs in time, measured so that the machine's drift cancels out.

    python benchmarks/bench_option.py --option NAME=VALUE [--option ...] [--repeats 60]
        [--models DIR] [--json]

`bench_vision.py` times one reading per process; on this shared 2-core machine a run can
be slower by a third, so two runs taken a minute apart differ by more than a small change
costs. Here both readers (the defaults and the defaults with `--option`) live in one
process and read the same photo in turn, `--repeats` times each, so whatever slows the
machine slows both alike. Reported per photo (the photos of `bench_vision.py`): each
reader's median recognition time and the median of the paired differences, default minus
option (what the default costs over the option; negative: it saves time).
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

from bench_vision import SCENES, SIZES, table_photo
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
    p.add_argument("--option", action="append", required=True, metavar="NAME=VALUE",
                   help="a DiceReader setting to time against the defaults, e.g. check_below=0")
    p.add_argument("--repeats", type=int, default=60)
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    from dicecam.vision.decode import decode_image
    from dicecam.vision.reader import DiceReader

    default = DiceReader(args.models)
    other = DiceReader(args.models, settings=reader_settings(reader_options(args.option)))
    rows = []
    for scene, source in SCENES.items():
        for width, height in SIZES:
            image = decode_image(table_photo(width, height, source=source))
            times = paired_times(partial(default.read, image), partial(other.read, image), args.repeats)
            rows.append({"scene": scene, "size": f"{width}x{height}", **times})
            if args.json:
                print(json.dumps(rows[-1]), flush=True)
    if not args.json:
        print(f"defaults against {', '.join(args.option)}, {args.repeats} turns each, recognition in ms (median)\n")
        print("| scene | photo | defaults | with the option | defaults minus option (median of pairs) |")
        print("|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['scene']} | {r['size']} | {r['first_ms']} | {r['second_ms']} | {r['difference_ms']:+.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
