"""`dicecam export-throws`: the games' checked photo throws as a labelled photo folder."""

from __future__ import annotations

import argparse
import sys

from dicecam.commands._games import GamesRefused, add_games_args, data_folder, opened_games


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "export-throws",
        help="write the checked photo throws as a labelled photo folder",
        description="Write the photo throws the players checked (entered on the sheet or corrected; "
        "with --corrected-only those corrected) into OUT_DIR as a labelled photo folder in the shared "
        "datasets' format: images/ and labels.jsonl, each throw's dice as the players left them, in the "
        "photo as it was read. Measure the reader on it with `dicecam eval OUT_DIR --split dev`. "
        "Throws with a die typed in, or with more dice in the photo than in the throw, are left out: "
        "a label file must hold every die of its photo. Games are read from DICECAM_DATA (else the "
        "per-user data folder).",
    )
    p.add_argument("out", metavar="OUT_DIR", help="a new or empty folder to write into")
    p.add_argument("--corrected-only", action="store_true", help="only throws whose dice a player corrected")
    p.add_argument("--split", default="dev", help="the split every row gets (default: dev)")
    p.add_argument("--game", action="append", metavar="ID", help="only this game (repeatable)")
    add_games_args(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from dicecam.webapp.evidence import PhotoStore
    from dicecam.webapp.export import ExportError, export_throws

    if not args.split.strip():
        print("dicecam export-throws: --split needs a name, e.g. dev or train", file=sys.stderr)
        return 2
    data = data_folder(args)
    out = Path(args.out).expanduser()
    try:
        with opened_games(args) as store:
            if store is None:
                print(f"dicecam export-throws: no games in {data}")
                return 0
            report = export_throws(store, PhotoStore(data / "photos"), out, split=args.split,
                                   corrected_only=args.corrected_only, game_ids=args.game)
    except (GamesRefused, ExportError) as exc:
        print(f"dicecam export-throws: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # OUT_DIR cannot be made or written (no such parent, read-only, full)
        print(f"dicecam export-throws: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {report.photos} photo(s), {report.dice} dice ({report.corrected} corrected by players) to {out}")
    for why, n in sorted(report.left_out.items(), key=lambda item: -item[1]):
        print(f"  left out {n}: {why}")
    if report.photos:
        print(f"measure the reader on them: dicecam eval {out} --split {args.split}")
    return 0
