"""`dicecam replay GAME.json...`: check game files event by event and print every sheet."""

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
        "replay", help="check game files and print every player's sheet",
        description="Replay each GAME (a JSON game file, '-' for stdin), refusing the first "
        "event the rules forbid, and print every player's sheet. A file that cannot be "
        "replayed is reported and skipped; the exit status is then 2.",
    )
    p.add_argument("games", nargs="+", metavar="GAME.json", help="game file, or - for stdin")
    p.add_argument("--json", action="store_true",
                   help="print the game state as JSON (one object per line, with its file, "
                        "when several files are given)")
    p.add_argument("--lang", choices=("de", "en"), default="de", help="label language")
    p.set_defaults(run=run)


def _load(path: str) -> object:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _replay(path: str):
    """The replayed game, or None after printing why the file was refused."""
    from dicecam.scoring import Game, GameFileError

    try:
        return Game.from_dict(_load(path)), None
    except OSError as e:
        return None, f"cannot read {path}: {e.strerror or e}"
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return None, f"{path} is not a JSON game file: {e}"
    except RecursionError:
        return None, f"{path} is not a game file: its JSON is nested too deeply"
    except GameFileError as e:
        return None, f"{path}: {e}"


def run(args: argparse.Namespace) -> int:
    several = len(args.games) > 1
    failed = False
    for n, path in enumerate(args.games):
        game, error = _replay(path)
        if error is not None:
            failed = True
            print(f"dicecam replay: {error}", file=sys.stderr, flush=True)
            if args.json and several:
                print(json.dumps({"file": path, "error": error}, ensure_ascii=False), flush=True)
            continue
        if args.json:
            state = game.state()
            print(json.dumps({"file": path, "state": state} if several else state, ensure_ascii=False))
            continue
        if several:
            print(("\n" if n else "") + f"== {path} ==")
        print("\n".join(render(game, args.lang)), flush=True)
    return 2 if failed else 0


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
    display = v.display(lang)
    sheets = [game.sheet_of(p) for p in game.players]
    cols = range(1, v.columns + 1)
    header = [p if v.columns == 1 else f"{p} {c}" for p in game.players for c in cols]
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, value) -> None:
        rows.append((label, [value(s, c) for s in sheets for c in cols]))

    mark = display.scratch_mark  # Spiffel writes a scratched box as XXX

    def cell(box):
        def text(s, c) -> str:
            points = s.box(box, c)
            return "" if points is None else (mark if mark and points == 0 else str(points))
        return text

    for box in UPPER:
        row(v.label(box, lang), cell(box))
    row(t["upper"], lambda s, c: str(s.upper_subtotal(c)))
    row(display.upper_bonus.label if display.upper_bonus else t["bonus"],
        lambda s, c: str(s.upper_bonus(c)))
    for box in BOXES[len(UPPER):]:
        row(v.label(box, lang), cell(box))
    row(t["lower"], lambda s, c: str(s.lower_subtotal(c)))
    row(t["sum"], lambda s, c: str(s.column_total(c)))
    width = max(len(label) for label, _ in rows)
    colw = max(6, *(len(h) for h in header))
    out = ["  " + " " * width + "".join(f"{h:>{colw + 1}}" for h in header)]
    out += ["  " + f"{label:<{width}}" + "".join(f"{x:>{colw + 1}}" for x in cells)
            for label, cells in rows]
    extra_label = display.extra_bonus.label if display.extra_bonus else t["extra"]
    for p, s in zip(game.players, sheets):
        extra = f", {extra_label} {s.extra_bonus}" if s.extra_bonus else ""
        out.append(f"  {p}: {t['total']} {s.total}{extra}")
    return out
