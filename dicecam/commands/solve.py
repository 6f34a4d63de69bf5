"""`dicecam solve VARIANT`: build (or load) the advisor's table and print its value."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "solve",
        help="solve a game for optimal play and print the expected score",
        description="Build (or load from the cache) the optimal-play table of VARIANT and "
        "print the expected final score of a new game. Würfelspiel (three columns) is "
        "measured by simulating its policy; Würfelpoker gives the expected points of a turn.",
    )
    p.add_argument("variant", help="game id or alias, e.g. yahtzee, kniffel, wuerfelspiel")
    p.add_argument("--no-cache", action="store_true", help="build afresh (and refresh the cache)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--games", type=int, default=10_000,
                   help="Würfelspiel: games to simulate (default 10000)")
    p.add_argument("--seed", type=int, default=0, help="Würfelspiel: random seed")
    p.set_defaults(run=run)


def _solve(variant, args) -> dict:
    import time

    import numpy as np

    from dicecam.scoring.advisor.cache import load_or_build
    from dicecam.scoring.advisor.tables import column_rules

    start = time.perf_counter()
    if variant.family == "push":
        from dicecam.scoring.advisor.poker import solve_turn

        return {"variant": variant.id,
                "expected_turn_score": solve_turn().expected_turn_score,
                "seconds": round(time.perf_counter() - start, 3)}
    table, cached = load_or_build(column_rules(variant.id), use_cache=not args.no_cache)
    out = {"variant": variant.id}
    if variant.columns == 1:
        out.update(expected_score=table.expected_score, cached=cached)
    else:
        from dicecam.scoring.advisor.cache import load_or_build_passes
        from dicecam.scoring.advisor.wuerfelspiel import MAX_PASSES, simulate_wuerfelspiel

        if args.games < 1:
            raise ValueError("--games must be at least 1")
        load_or_build_passes(table.rules, MAX_PASSES, use_cache=not args.no_cache)
        scores = simulate_wuerfelspiel(args.games, seed=args.seed)
        out.update(expected_score=float(scores.mean()), games=args.games,
                   std_error=float(scores.std(ddof=1) / np.sqrt(len(scores)))
                   if len(scores) > 1 else None,
                   column_expected_score=table.expected_score, cached=cached)
    out["seconds"] = round(time.perf_counter() - start, 3)
    return out


def run(args: argparse.Namespace) -> int:
    from dicecam.commands._progress import advisor_label, for_command
    from dicecam.scoring import ScoringError, get_variant
    from dicecam.scoring.advisor.progress import listening

    progress = for_command(args.json)
    try:
        variant = get_variant(args.variant)
        with listening(lambda what, done, total: progress.update(advisor_label(what), done, total)):
            result = _solve(variant, args)
    except (ScoringError, ValueError) as e:
        progress.clear()
        print(f"dicecam solve: {e}", file=sys.stderr)
        return 2
    progress.clear()
    if args.json:
        print(json.dumps(result))
        return 0
    if "expected_turn_score" in result:
        print(f"{variant.name('de')}: expected points per turn {result['expected_turn_score']:.4f}")
    elif "games" in result:
        se = result["std_error"]
        print(f"{variant.name('de')}: mean {result['expected_score']:.2f}"
              + (f" ± {se:.2f}" if se is not None else "")
              + f" over {result['games']} simulated games"
              f" (one column: {result['column_expected_score']:.4f})")
    else:
        print(f"{variant.name('de')}: expected score {result['expected_score']:.4f}")
    print(f"({result['seconds']:.2f} s)")
    return 0
