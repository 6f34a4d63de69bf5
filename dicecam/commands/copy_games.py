"""`dicecam copy-games`: move the games of the data folder's SQLite file into PostgreSQL (or back)."""

from __future__ import annotations

import argparse
import sys


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "copy-games",
        help="copy games between SQLite and PostgreSQL",
        description="Copy every game, with its throws and their evidence, from the data folder's SQLite "
        "file into a PostgreSQL database (--to URL), or from PostgreSQL into the SQLite file (--from URL). "
        "Games already there are left alone, so it can run again; photos stay in the data folder. "
        "Stop the server first, or games changed meanwhile are copied as they were.",
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--to", metavar="URL", help="the PostgreSQL database to copy into")
    where.add_argument("--from", dest="source", metavar="URL", help="the PostgreSQL database to copy from")
    p.add_argument("--data", metavar="DIR", help="data folder (overrides DICECAM_DATA)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from dicecam.webapp.backend import DatabaseError, backend_for
    from dicecam.webapp.datadir import default_data_dir
    from dicecam.webapp.errors import WebError
    from dicecam.webapp.store import SchemaTooNew
    from dicecam.webapp.transfer import copy_games

    data = Path(args.data).expanduser() if args.data else default_data_dir()
    database = data / "dicecam.sqlite3"
    sqlite = {"DATABASE_URL": None, "DATABASE": str(database)}
    postgres = {"DATABASE_URL": args.to or args.source, "DATABASE": ""}
    if args.to and not database.exists():
        print(f"dicecam copy-games: no games in {data}")
        return 0
    source_config, target_config = (sqlite, postgres) if args.to else (postgres, sqlite)
    backends, stores = [], []
    try:
        for config in (source_config, target_config):
            backend = backend_for(config)
            backend.start(read_only=False)
            backends.append(backend)
            stores.append(backend.store())
        done = copy_games(stores[0], stores[1])
    except (OSError, DatabaseError, SchemaTooNew) as exc:
        print(f"dicecam copy-games: {exc}", file=sys.stderr)
        return 2
    except WebError as exc:
        from dicecam.webapp.error_texts import ERROR_TEXTS

        print(f"dicecam copy-games: {ERROR_TEXTS.get(exc.key, {}).get('en', exc.key)}", file=sys.stderr)
        return 2
    finally:
        for store in stores:
            store.close()
        for backend in backends:
            backend.close()
    where = backends[1].where()
    print(f"copied {done.copied} game(s) with {done.throws} throw(s) to {where}"
          + (f"; {done.already_there} were there already" if done.already_there else ""))
    return 0
