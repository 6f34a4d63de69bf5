"""`dicecam variants`: every game dicecam scores, with aliases and rules, one line each."""

from __future__ import annotations

import argparse
import json


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("variants", help="list the games, their aliases and rules",
                              description="List every game with its aliases and rules.")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=("de", "en"), default="de", help="language")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dicecam.scoring import all_variants

    variants = all_variants()
    if args.json:
        print(json.dumps([
            {"id": v.id, "aliases": list(v.aliases), "family": v.family,
             "name": v.name(args.lang), "summary": v.summary(args.lang),
             "dice_count": v.dice_count, "columns": v.columns, "min_players": v.min_players,
             "default_options": v.default_options}
            for v in variants
        ], ensure_ascii=False))
        return 0
    for v in variants:
        ids = ", ".join((v.id, *v.aliases))
        print(f"{ids}: {v.name(args.lang)}. {v.summary(args.lang)}")
    return 0
