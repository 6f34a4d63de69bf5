"""`dicecam variants [GAME]`: every game dicecam scores, or one game's sheet and rules."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "variants", help="list the games, their aliases and rules",
        description="List every game with its aliases and rules, one line each; with GAME "
        "(an id or alias), that game's sheet: its boxes, bonuses and why an alias has the "
        "names it has.")
    p.add_argument("game", nargs="?", metavar="GAME", help="one game's id or alias, e.g. kniffel")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=("de", "en"), default="de", help="language")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dicecam.scoring import ScoringError, all_variants, get_variant

    if args.game is not None:
        try:
            variant = get_variant(args.game)
        except ScoringError as e:
            print(f"dicecam variants: {e}", file=sys.stderr)
            return 2
        return _one(variant, args)
    variants = all_variants()
    if args.json:
        print(json.dumps([
            {"id": v.id, "aliases": list(v.aliases), "family": v.family.value,
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


def _one(variant, args: argparse.Namespace) -> int:
    lang = args.lang
    display = variant.display(lang)
    note = variant.alias_note(args.game, lang)
    if args.json:
        print(json.dumps({**display.to_dict(), "aliases": list(variant.aliases), "alias_note": note},
                         ensure_ascii=False))
        return 0
    de = lang == "de"
    print(f"{display.name} ({', '.join((variant.id, *variant.aliases))})")
    if note:
        print(f"  {note}")
    print(f"  {display.summary}")
    if display.push is not None:
        print(f"  {display.push.goal}")
        for c in display.push.combinations:
            print(f"    {c.label:<28} {c.points}")
        return 0
    if len(display.columns) > 1:
        head = "Spalten" if de else "Columns"
        print(f"  {head}: {'  '.join(c.label for c in display.columns)}")
    for section, title in (("upper", "oben" if de else "upper"), ("lower", "unten" if de else "lower")):
        boxes = [b for b in display.boxes if b.section == section]
        print(f"  {title}: " + ", ".join(b.label for b in boxes))
    if display.upper_bonus is not None:
        print(f"  {display.upper_bonus.label}: {display.upper_bonus.rule}")
    if display.extra_bonus is not None:
        print(f"  {display.extra_bonus.label}: {display.extra_bonus.rule}")
    if display.scratch_mark:
        scratched = "gestrichen" if de else "scratched"
        print(f"  0 = {scratched}: {display.scratch_mark}")
    return 0
