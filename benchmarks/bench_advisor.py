"""Advisor speed: our numpy table build against the Rust exact solver `yatzy-solver`
(variant american+forced-joker = our yahtzee), alternately in the same run; then the
cache load time and one advice query (Yahtzee, and Würfelspiel's policy).

    python benchmarks/bench_advisor.py [--repeats 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from functools import partial


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--queries", type=int, default=200)
    args = ap.parse_args()
    os.environ["DICECAM_CACHE"] = tempfile.mkdtemp(prefix="dicecam-bench-")

    from dicecam.scoring import Game
    from dicecam.scoring.advisor.advice import advise
    from dicecam.scoring.advisor.cache import load_or_build
    from dicecam.scoring.advisor.solver import solve_column
    from dicecam.scoring.advisor.tables import column_rules

    try:
        import yatzy_solver as ys
    except ImportError:
        ys = None
    rules = column_rules("yahtzee")
    ours, rust = [], []
    for _ in range(args.repeats):
        secs, table = _timed(lambda: solve_column(rules))
        ours.append(secs)
        if ys is not None:
            secs, solver = _timed(lambda: ys.Solver.build(ys.Variant("american+forced-joker")))
            rust.append(secs)
    result = {
        "cpus": os.cpu_count(),
        "ours_build_s": [round(s, 2) for s in ours],
        "ours_expected": table.expected_score,
    }
    if ys is not None:
        result.update(rust_build_s=[round(s, 2) for s in rust],
                      rust_expected=solver.state_value("upper 0 | filled -"),
                      ratio_ours_over_rust=round(min(ours) / min(rust), 2))
    load_or_build(rules)  # write the cache
    loads = [_timed(lambda: load_or_build(rules))[0] for _ in range(5)]
    result["cache_load_s"] = round(statistics.median(loads), 4)

    game = Game.new("yahtzee", ["Anna"]).play(
        {"player": "Anna", "dice": [1, 1, 2, 3, 4], "box": "ones"})
    advise(game, [3, 3, 5, 6, 6], 1)  # load the table once
    for throw in (1, 2, 3):
        times = [_timed(partial(advise, game, [3, 3, 5, 6, 6], throw))[0]
                 for _ in range(args.queries)]
        result[f"advice_throw{throw}_ms_median"] = round(1000 * statistics.median(times), 2)
    # Würfelspiel: the pass tables (built once, about 1.5 minutes) and its advice.
    from dicecam.scoring.advisor.cache import load_or_build_passes
    from dicecam.scoring.advisor.wuerfelspiel import MAX_PASSES

    ws = column_rules("wuerfelspiel")
    load_or_build_passes(ws, MAX_PASSES)
    loads = [_timed(lambda: load_or_build_passes(ws, MAX_PASSES))[0] for _ in range(5)]
    result["wuerfelspiel_pass_tables_load_s"] = round(statistics.median(loads), 4)
    game = Game.new("wuerfelspiel", ["Anna"])
    advise(game, [3, 3, 5, 6, 6], 3)
    for throw in (1, 2, 3):
        times = [_timed(partial(advise, game, [3, 3, 5, 6, 6], throw))[0]
                 for _ in range(args.queries // 4)]
        result[f"wuerfelspiel_advice_throw{throw}_ms_median"] = round(
            1000 * statistics.median(times), 2)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
