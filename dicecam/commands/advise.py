"""`dicecam advise GAME.json --dice ... --throw N`: the best moves, ranked."""

from __future__ import annotations

import argparse
import json
import sys


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "advise",
        help="rank every option of the player whose turn it is",
        description="Read a game file and rank the options of the current player with "
        "DICE after throw N (1-3): which dice to keep after throw 1 or 2, which box after "
        "throw 3; for Würfelpoker which dice to set aside and whether to bank. Each "
        "option shows its expected final score and what it loses against the best.",
    )
    p.add_argument("game", help="game file (JSON, as written by the web page or `replay`)")
    p.add_argument("--dice", nargs="+", required=True, metavar="D", help="die values 1-6")
    p.add_argument("--throw", type=int, default=3, choices=(1, 2, 3),
                   help="which throw of the turn the dice are (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=("de", "en"), default="de", help="label language")
    p.set_defaults(run=run)


def _load(path: str):
    from dicecam.scoring import Game, RuleError

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as e:
        raise RuleError(f"cannot read {path}: {e.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RuleError(f"{path} is not a JSON game file ({e})") from None
    return Game.from_dict(data)


def _describe(action, variant, lang: str) -> str:
    de = lang == "de"
    if action.box is not None:
        col = f" ({'Spalte' if de else 'column'} {action.column})" if action.column else ""
        return f"{variant.label(action.box, lang)}{col}: {action.points}"
    keep = " ".join(map(str, action.keep)) or ("nichts" if de else "nothing")
    if action.bank is None:
        return f"{'behalten' if de else 'keep'} {keep}"
    then = ("und schreiben" if de else "and bank") if action.bank else (
        "und weiterwürfeln" if de else "and throw on")
    return f"{'rauslegen' if de else 'set aside'} {keep} {then}"


def run(args: argparse.Namespace) -> int:
    from dicecam.commands._progress import advisor_label, for_command
    from dicecam.scoring import ScoringError
    from dicecam.scoring.advisor.progress import listening

    try:
        dice = [int(v) for v in args.dice]
    except ValueError:
        print("dicecam advise: Dice must be numbers 1 to 6", file=sys.stderr)
        return 2
    progress = for_command(args.json)
    try:
        game = _load(args.game)
        from dicecam.scoring.advisor.advice import advise

        # The first advice for a game builds its tables (Würfelspiel's take minutes).
        with listening(lambda what, done, total: progress.update(advisor_label(what), done, total)):
            advice = advise(game, dice, args.throw)
    except ScoringError as e:
        progress.clear()
        print(f"dicecam advise: {e}", file=sys.stderr)
        return 2
    progress.clear()
    if args.json:
        print(json.dumps(advice.to_dict()))
        return 0
    de = args.lang == "de"
    print(f"{advice.player}: {' '.join(map(str, advice.dice))}"
          + (f" ({'Wurf' if de else 'throw'} {advice.throw})" if advice.throw else ""))
    if not advice.actions:
        print("  Nichts wertet: die Runde ist verloren." if de else
              "  Nothing scores: bust, the turn is lost.")
        return 0
    head = ("Erwartung", "Verlust") if de else ("expected", "loss")
    print(f"  {head[0]:>10} {head[1]:>8}")
    for a in advice.actions:
        print(f"  {a.expected:>10.2f} {a.loss:>8.2f}  {_describe(a, game.variant, args.lang)}")
    if not advice.exact:
        print("  (Schätzung der Strategie, nicht exakt)" if de else
              "  (the policy's estimate, not exact)")
    return 0
