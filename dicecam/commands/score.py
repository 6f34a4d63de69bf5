"""`dicecam score VARIANT D1 ... Dn`: what one throw scores by the plain rules."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "score",
        help="points of one throw in every box (or every set-aside)",
        description="Print what a throw scores in every box of VARIANT by the plain rules "
        "(no joker, no bonus); for wuerfelpoker every legal set-aside and the best one.",
    )
    p.add_argument("variant", help="game id or alias, e.g. spiffel, kniffel, wuerfelpoker")
    p.add_argument("dice", nargs="+", metavar="D", help="die values 1-6")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=("de", "en"), default="de", help="label language")
    p.set_defaults(run=run)


def _parse_dice(values: list[str]) -> list[int]:
    from dicecam.scoring import RuleError

    try:
        return [int(v) for v in values]
    except ValueError:
        raise RuleError("Dice must be numbers 1 to 6") from None


def run(args: argparse.Namespace) -> int:
    from dicecam.scoring import ScoringError, SheetVariant, get_variant
    from dicecam.scoring.dice import check_dice

    try:
        variant = get_variant(args.variant)
        dice = check_dice(_parse_dice(args.dice),
                          count=variant.dice_count if isinstance(variant, SheetVariant) else None)
    except ScoringError as e:
        print(f"dicecam score: {e}", file=sys.stderr)
        return 2
    note = variant.alias_note(args.variant, args.lang)
    if isinstance(variant, SheetVariant):
        scores = variant.plain_scores(dice)
        if args.json:
            print(json.dumps({box.value: pts for box, pts in scores.items()}))
        else:
            width = max(len(variant.label(b, args.lang)) for b in scores)
            print(f"{variant.name(args.lang)}: {' '.join(map(str, dice))}")
            if note:
                print(f"  ({note})")
            for box, pts in scores.items():
                print(f"  {variant.label(box, args.lang):<{width}}  {pts:>3}")
        return 0
    return _print_push(variant, dice, args)


def _print_push(variant, dice, args) -> int:
    from dicecam.scoring import keep_options

    options = keep_options(dice)
    best = options[0].points if options else 0
    if args.json:
        print(json.dumps({"best": best, "bust": not options,
                          "options": [o.to_dict() for o in options]}))
        return 0
    de = args.lang == "de"
    print(f"{variant.name(args.lang)}: {' '.join(map(str, dice))}")
    note = variant.alias_note(args.variant, args.lang)
    if note:
        print(f"  ({note})")
    if not options:
        print("  Nichts wertet: die Runde ist verloren." if de else
              "  Nothing scores: bust, the turn is lost.")
        return 0
    print(f"  {'Bestes' if de else 'Best'}: {best}")
    for o in options:
        print(f"  {' '.join(map(str, o.keep)):<12} {o.points:>6}")
    return 0
