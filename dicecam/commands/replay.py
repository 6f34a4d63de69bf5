"""`dicecam replay GAME.json`: check a game file event by event and print every sheet."""

from __future__ import annotations

import argparse
import json
import sys

_TEXT = {
    "de": {"upper": "Summe oben", "bonus": "Bonus", "lower": "Summe unten", "column": "Spalte",
           "sum": "Summe", "extra": "Extrapunkte", "total": "Gesamt", "next": "Am Zug: {p} (Runde {t})",
           "winner": "Gewinner: {p}", "tie": "Gleichstand: {p}", "score": "Punkte",
           "turns": "Runden", "turn_total": "Runde bisher: {n}, noch {d} Würfel{hot}",
           "hot": " (alle sechs neu)"},
    "en": {"upper": "Upper sum", "bonus": "Bonus", "lower": "Lower sum", "column": "Column",
           "sum": "Sum", "extra": "Extra bonus", "total": "Total", "next": "Next: {p} (turn {t})",
           "winner": "Winner: {p}", "tie": "Tie: {p}", "score": "Score",
           "turns": "Turns", "turn_total": "Turn so far: {n}, {d} dice left{hot}",
           "hot": " (hot dice)"},
}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "replay", help="check a game file and print every player's sheet",
        description="Replay GAME (a JSON game file, '-' for stdin), refusing the first event "
        "the rules forbid, and print every player's sheet.",
    )
    p.add_argument("game", metavar="GAME.json", help="game file, or - for stdin")
    p.add_argument("--json", action="store_true", help="print the game state as JSON")
    p.add_argument("--lang", choices=("de", "en"), default="de", help="label language")
    p.set_defaults(run=run)


def _load(path: str) -> object:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def run(args: argparse.Namespace) -> int:
    from dicecam.scoring import Game, GameFileError

    try:
        game = Game.from_dict(_load(args.game))
    except OSError as e:
        print(f"dicecam replay: cannot read {args.game}: {e.strerror or e}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        print(f"dicecam replay: {args.game} is not a JSON game file: {e}", file=sys.stderr)
        return 2
    except GameFileError as e:
        print(f"dicecam replay: {args.game}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(game.state(), ensure_ascii=False))
    else:
        print("\n".join(render(game, args.lang)))
    return 0


def render(game, lang: str = "de") -> list[str]:
    """The game's sheets as text lines."""
    t = _TEXT[lang]
    lines = [f"{game.variant.name(lang)}: {', '.join(game.players)}"]
    if game.variant.family == "sheet":
        lines += _sheet_lines(game, lang)
    else:
        for p, s in game.state()["sheet"].items():
            turns = " ".join(str(n) for n in s["turns"]) or "-"
            lines.append(f"  {p}: {t['score']} {s['score']}  ({t['turns']}: {turns})")
        ts = game.turn_state
        if not game.finished and ts.turn_total:
            lines.append("  " + t["turn_total"].format(
                n=ts.turn_total, d=ts.dice_left, hot=t["hot"] if ts.hot_dice else ""))
    if game.finished:
        w = game.winner
        lines.append(t["tie"].format(p=", ".join(w)) if isinstance(w, list)
                     else t["winner"].format(p=w))
    else:
        lines.append(t["next"].format(p=game.current_player, t=game.turn))
    return lines


def _sheet_lines(game, lang: str) -> list[str]:
    from dicecam.scoring import BOXES, UPPER

    t = _TEXT[lang]
    v = game.variant
    sheets = [game.sheet_of(p) for p in game.players]
    cols = range(1, v.columns + 1)
    header = [p if v.columns == 1 else f"{p} {c}" for p in game.players for c in cols]
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, value) -> None:
        rows.append((label, [value(s, c) for s in sheets for c in cols]))

    def cell(box):
        return lambda s, c: "" if s.box(box, c) is None else str(s.box(box, c))

    for box in UPPER:
        row(v.label(box, lang), cell(box))
    row(t["upper"], lambda s, c: str(s.upper_subtotal(c)))
    row(t["bonus"], lambda s, c: str(s.upper_bonus(c)))
    for box in BOXES[len(UPPER):]:
        row(v.label(box, lang), cell(box))
    row(t["lower"], lambda s, c: str(s.lower_subtotal(c)))
    row(t["sum"], lambda s, c: str(s.column_total(c)))
    width = max(len(label) for label, _ in rows)
    colw = max(6, *(len(h) for h in header))
    out = ["  " + " " * width + "".join(f"{h:>{colw + 1}}" for h in header)]
    out += ["  " + f"{label:<{width}}" + "".join(f"{x:>{colw + 1}}" for x in cells)
            for label, cells in rows]
    for p, s in zip(game.players, sheets):
        extra = f", {t['extra']} {s.extra_bonus}" if s.extra_bonus else ""
        out.append(f"  {p}: {t['total']} {s.total}{extra}")
    return out
