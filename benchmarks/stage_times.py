"""Where one reading's time goes, stage by stage, on the photos of `bench_vision.py`.

    python benchmarks/stage_times.py [--repeats 20] [--models DIR] [--dice | --frames]
        [--scene NAME ...] [--json]

`bench_vision.py` says how long a photo takes and `bench_option.py` what a setting costs;
this says which part of the reading to make cheaper. One reader reads each photo
`--repeats` times (after one warm-up) and every stage is timed inside each reading:

- `first look`: the detector's first passes (full and half size, and the closer look at
  small dice), photo shrinks included (`DieDetector.find`);
- `search`: told a count the rules do not fill, the pass over the whole photo, enlarged
  (`DieDetector.search`); `frame look`: a live frame's cheaper one (`look_closer`);
- `reader net`: the face reader's network over every crop and view (`FaceReader.classify`);
- `crops`: cutting the reader's crops from the photo (`FaceReader.crops`);
- `check`: the whole-die check, crops and network (`WholeDieCheck.probability`);
- `rest`: what the reading took beyond these (rules, merging, halvings, ranking).

Each column is the median over the readings, so the stages need not add up to `total`
exactly. `--dice` tells the reader each photo's count (`bench_vision.DICE`), as a photo
throw at the table does; `--frames` reads as the live camera reads a frame (the count,
no search).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable

from bench_vision import DICE, SIZES, scene_photo
from reader_options import reader_options

#: (column, the DiceReader attribute that does it, its method timed): the stages, none inside another.
STAGES: tuple[tuple[str, str, str], ...] = (
    ("first look", "detector", "find"),
    ("search", "detector", "search"),
    ("frame look", "detector", "look_closer"),
    ("reader net", "face", "classify"),
    ("crops", "face", "crops"),
    ("check", "whole_die", "probability"),
)
#: The stages' columns, in order.
COLUMNS = tuple(column for column, _owner, _method in STAGES)


class StageClock:
    """Milliseconds spent in each of `STAGES` during one reading, summed over its calls."""

    def __init__(self, reader) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        for column, owner, method in STAGES:
            target = getattr(reader, owner)
            if target is not None:
                # An instance attribute shadows the class's method for this reader only.
                setattr(target, method, self._timed(column, getattr(target, method)))

    def _timed(self, column: str, method: Callable) -> Callable:
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.spent[column] += (time.perf_counter() - start) * 1000

        return timed

    def reading(self, read: Callable[[], object]) -> dict[str, float]:
        """Run one `read` and return its stages' ms, `total` and `rest` among them."""
        self.spent.clear()
        start = time.perf_counter()
        read()
        total = (time.perf_counter() - start) * 1000
        stages = {column: self.spent[column] for column in COLUMNS}
        return {"total": total, **stages, "rest": total - sum(stages.values())}


def stage_medians(readings: list[dict[str, float]]) -> dict[str, float]:
    """The median of each column over `readings`, in ms to a tenth."""
    return {column: round(statistics.median(r[column] for r in readings), 1) for column in readings[0]}


def main(argv: list[str] | None = None) -> int:
    from dicecam.vision.decode import decode_image
    from dicecam.vision.reader import DiceReader

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument("--models", default=None, help="folder with the ONNX models (default: the shipped ones)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting, e.g. search_max_side=1024")
    told = p.add_mutually_exclusive_group()
    told.add_argument("--dice", action="store_true", help="tell the reader each photo's count, as a photo throw does")
    told.add_argument("--frames", action="store_true", help="read as the live camera reads a frame")
    p.add_argument("--scene", action="append", choices=sorted(DICE), help="only these scenes (default: all)")
    p.add_argument("--json", action="store_true", help="one JSON object a photo")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    reader = DiceReader(args.models, **reader_options(args.option))
    clock = StageClock(reader)
    columns = ["total", *COLUMNS, "rest"]
    if not args.json:
        mode = "told each photo's count" if args.dice else "as live frames" if args.frames else "without a count"
        print(f"{args.repeats} readings each, {mode}; median ms per stage\n")
        print("| scene | photo | " + " | ".join(columns) + " |")
        print("|---|---|" + "---|" * len(columns))
    for scene in args.scene or DICE:
        count = DICE[scene] if args.dice or args.frames else None
        for width, height in SIZES:
            image = decode_image(scene_photo(scene, width, height))

            def read(image=image, count=count) -> object:
                return reader.read(image, count=count, search=not args.frames)

            read()  # warm-up: first runs allocate
            medians = stage_medians([clock.reading(read) for _ in range(args.repeats)])
            if args.json:
                print(json.dumps({"scene": scene, "size": f"{width}x{height}", "count": count, **medians}))
            else:
                print(f"| {scene} | {width}x{height} | " + " | ".join(f"{medians[c]:.1f}" for c in columns) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
