"""`dicecam prune`: delete finished games nobody has looked at for a while, and their photos."""

from __future__ import annotations

import argparse
import sys

from dicecam.commands._games import GamesRefused, add_games_args, data_folder, opened_games

DEFAULT_DAYS = 90


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "prune",
        help="delete old finished games and their photos",
        description="Delete the finished games whose last change is older than DAYS days, with their "
        "throws and the photos no other game shows. Unfinished games are never deleted. "
        "Games are kept in DICECAM_DATA (else the per-user data folder).",
    )
    p.add_argument(
        "--older-than", type=float, default=DEFAULT_DAYS, metavar="DAYS",
        help=f"age of the last change, in days (default: {DEFAULT_DAYS})",
    )
    add_games_args(p)
    p.add_argument("--dry-run", action="store_true", help="only list what would be deleted")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dicecam.webapp import games
    from dicecam.webapp.errors import WebError
    from dicecam.webapp.evidence import PhotoStore

    if not args.older_than >= 0:
        print(f"dicecam prune: --older-than must be 0 or more days, not {args.older_than}", file=sys.stderr)
        return 2
    data = data_folder(args)
    try:
        with opened_games(args) as store:
            if store is None:
                print(f"dicecam prune: no games in {data}")
                return 0
            old = games.old_finished(store, older_than_days=args.older_than)
            for row in old:
                players = ", ".join(row.summary.players)
                print(f"{'would delete' if args.dry_run else 'deleting'} {row.id}  {row.variant}  {players}  "
                      f"(last change {row.updated})")
            if args.dry_run:
                print(f"{len(old)} finished game(s) older than {args.older_than:g} days")
                return 0
            gone = games.prune(store, older_than_days=args.older_than, photos=PhotoStore(data / "photos"))
    except GamesRefused as exc:
        print(f"dicecam prune: {exc}", file=sys.stderr)
        return 2
    except WebError as exc:
        from dicecam.webapp.error_texts import ERROR_TEXTS

        print(f"dicecam prune: {ERROR_TEXTS.get(exc.key, {}).get('en', exc.key)}", file=sys.stderr)
        return 2
    print(f"deleted {len(gone)} finished game(s) older than {args.older_than:g} days")
    return 0
