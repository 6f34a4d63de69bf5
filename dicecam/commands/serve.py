"""`dicecam serve`: the table's web page for every phone on the network."""

from __future__ import annotations

import argparse
import os
import sys


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run the web page for the phones at the table",
        description="Serve the score sheet to the phones on this network (production WSGI server). "
        "Games are kept in DICECAM_DATA (else the per-user data folder), or in PostgreSQL with "
        "--database / DICECAM_DATABASE_URL (docs/DEPLOY.md).",
    )
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all interfaces)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument(
        "--https",
        action="store_true",
        help="serve HTTPS with a self-signed certificate, so phone browsers allow the live camera",
    )
    p.add_argument("--data", metavar="DIR", help="data folder (overrides DICECAM_DATA)")
    p.add_argument(
        "--database", metavar="URL",
        help="keep the games in PostgreSQL, e.g. postgresql://dicecam@localhost/dicecam "
        "(overrides DICECAM_DATABASE_URL; default: SQLite in the data folder)",
    )
    p.add_argument(
        "--models", metavar="DIR",
        help="folder with the ONNX models (overrides DICECAM_MODELS; default: the shipped ones)",
    )
    p.add_argument(
        "--workers", type=int, default=1, metavar="N",
        help="worker processes sharing the port (PostgreSQL only; default: 1)",
    )
    p.set_defaults(run=run)


def _fail(message: str) -> int:
    print(f"dicecam serve: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from dicecam.webapp import DatabaseError, DataFolderError, create_app, shutdown
    from dicecam.webapp.backend import is_postgres_url
    from dicecam.webapp.serve import serve, serve_workers
    from dicecam.webapp.store import SchemaTooNew

    if not 0 <= args.port <= 65535:
        return _fail(f"port must be 0-65535, not {args.port}")
    if args.workers < 1:
        return _fail(f"--workers must be 1 or more, not {args.workers}")
    config: dict = {}
    if args.data:
        config["DATA_DIR"] = args.data
    if args.database:
        config["DATABASE_URL"] = args.database
    if args.models:
        if not os.path.isdir(args.models):
            return _fail(f"--models {args.models}: no such folder")
        config["MODELS_DIR"] = args.models
    url = config.get("DATABASE_URL") or os.environ.get("DICECAM_DATABASE_URL")
    if args.workers > 1 and not (url and is_postgres_url(url)):
        return _fail(f"--workers {args.workers} needs PostgreSQL (--database postgresql://...); "
                     "with SQLite one process serves the table")
    if args.workers > 1 and not hasattr(os, "fork"):
        return _fail("--workers needs a system that can fork (Linux, macOS); serve with one worker here")
    try:
        app = create_app(config or None)
        if app.config["READ_ONLY"]:
            # Players would see a page where nothing they enter is kept: refuse to start.
            shutdown(app)
            return _fail(
                f"the data folder {app.config['DATA_DIR']} is read-only; "
                "choose a writable one with --data DIR or DICECAM_DATA"
            )
        if args.workers > 1:
            code = serve_workers(app, config or None, args.host, args.port, workers=args.workers, https=args.https)
            if code == 0:
                print("\ndicecam serve: stopped", file=sys.stderr)
            return code
        serve(app, args.host, args.port, https=args.https)
    except (OSError, DataFolderError, DatabaseError, SchemaTooNew) as exc:
        # A taken port, an unusable data folder or database: the user's to fix, not a crash.
        return _fail(str(exc))
    except KeyboardInterrupt:
        print("\ndicecam serve: stopped", file=sys.stderr)
    return 0
