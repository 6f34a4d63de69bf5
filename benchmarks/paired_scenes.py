"""Compare two readings of the same rendered throws, with a bootstrap interval.

    python benchmarks/paired_scenes.py [--option NAME=VALUE ...] [--against DIR] [--scenes 1000]
        [--seed A,B] [--upright] [--models DIR] [--resamples 2000] [--json]

Every scene (drawn as `rendered_scenes.py` draws them) is read twice: with the models in
`--models` (the shipped ones by default) at the reader's defaults, and with the models in
`--against` (the same ones if not given) at the `--option` settings. Both readings see
the same pixels, so the difference in read F1 carries no noise but which scenes were
drawn; resampling the scenes (a paired bootstrap) says how far that moves the difference. Reported: both read
F1, the gain, its 95% interval, and both counts of extra boxes on a die's picture.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from paired import COUNTED, counts, paired_gain, read_f1
from reader_options import reader_options, reader_settings
from rendered_scenes import SEED, rendered, score_scene

from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[1]

def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a DiceReader setting of the reading compared with the defaults")
    p.add_argument("--against", type=Path, default=None, metavar="DIR",
                   help="a models folder whose reading is compared with --models'")
    p.add_argument("--scenes", type=int, default=1000)
    p.add_argument("--seed", default=",".join(map(str, SEED)), metavar="A,B")
    p.add_argument("--upright", action="store_true", help="the phone held upright, as rendered_scenes.py --upright")
    p.add_argument("--models", type=Path, default=None)
    p.add_argument("--resamples", type=int, default=2000)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if not args.option and args.against is None:
        p.error("nothing to compare: give --option NAME=VALUE, --against DIR, or both")
    options = reader_options(args.option)
    readers = (DiceReader(args.models), DiceReader(args.against or args.models, settings=reader_settings(options)))
    rows: tuple[list[list[int]], list[list[int]]] = ([], [])
    extras = [0, 0]
    for s, readable in rendered(args.seed, args.scenes, upright=args.upright):
        assert s.boxes is not None  # a rendered scene knows its boxes
        for k, reader in enumerate(readers):
            score, on_dice, _, _ = score_scene(reader, s.image, s.boxes, s.values, readable, s.die_boxes)
            rows[k].append(counts(score))
            extras[k] += on_dice
    base, other = (np.array(c, np.int64).reshape(-1, len(COUNTED)) for c in rows)
    gain, low, high = paired_gain(base, other, resamples=args.resamples)
    compared = " ".join([*([f"--against {args.against}"] if args.against else []), *args.option])
    result = {"scenes": args.scenes, "seed": args.seed, "upright": args.upright, "options": options,
              "against": None if args.against is None else str(args.against),
              "read_f1": [round(float(read_f1(c.sum(axis=0))), 4) for c in (base, other)],
              "gain": round(gain, 4), "interval_95": [round(low, 4), round(high, 4)],
              "extra_boxes_on_dice": extras}
    if args.json:
        print(json.dumps(result))
    else:
        view = "upright " if args.upright else ""
        print(f"{args.scenes} {view}rendered scenes (seed {args.seed}), defaults vs {compared}: read F1 "
              f"{result['read_f1'][0]:.4f} -> {result['read_f1'][1]:.4f}, gain {gain:+.4f} (95% interval "
              f"{low:+.4f} to {high:+.4f}); extra boxes on a die's picture {extras[0]} -> {extras[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
