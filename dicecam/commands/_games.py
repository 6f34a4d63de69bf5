"""The games a command works on: the data folder's SQLite file, or the server's PostgreSQL."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dicecam.webapp.store import Store


class GamesRefused(Exception):
    """The games could not be opened; the message says why."""


def add_games_args(p: argparse.ArgumentParser) -> None:
    """`--data` and `--database`, as `dicecam serve` takes them."""
    p.add_argument("--data", metavar="DIR", help="data folder (overrides DICECAM_DATA)")
    p.add_argument("--database", metavar="URL",
                   help="the PostgreSQL database the server uses (overrides DICECAM_DATABASE_URL)")


def data_folder(args: argparse.Namespace) -> Path:
    """The data folder the command's `--data` names, else the server's default."""
    from dicecam.webapp.datadir import default_data_dir

    return Path(args.data).expanduser() if args.data else default_data_dir()


@contextmanager
def opened_games(args: argparse.Namespace) -> Iterator[Store | None]:
    """The games' store (None where the data folder has no games and no database is named),
    closed on leaving; `GamesRefused` where it cannot be opened."""
    import os

    from dicecam.webapp.backend import DatabaseError, backend_for
    from dicecam.webapp.store import SchemaTooNew

    database = data_folder(args) / "dicecam.sqlite3"
    url = args.database or os.environ.get("DICECAM_DATABASE_URL")
    if not url and not database.exists():
        yield None
        return
    try:
        backend = backend_for({"DATABASE_URL": url, "DATABASE": str(database)})
        backend.start(read_only=False)
        store = backend.store()
    except (OSError, SchemaTooNew, DatabaseError) as exc:
        raise GamesRefused(str(exc)) from exc
    except Exception as exc:
        raise GamesRefused(f"cannot open {database}: {exc}") from exc
    try:
        yield store
    finally:
        store.close()
        backend.close()
