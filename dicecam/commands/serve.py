"""`dicecam serve`: the table's web page for every phone on the network."""

from __future__ import annotations

import argparse
import sys


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run the web page for the phones at the table",
        description="Serve the score sheet to the phones on this network (production WSGI server). "
        "Games are kept in DICECAM_DATA (else the per-user data folder).",
    )
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all interfaces)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument(
        "--https",
        action="store_true",
        help="serve HTTPS with a self-signed certificate, so phone browsers allow the live camera",
    )
    p.add_argument("--data", metavar="DIR", help="data folder (overrides DICECAM_DATA)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dicecam.webapp import DataFolderError, create_app
    from dicecam.webapp.serve import serve
    from dicecam.webapp.sqlite_store import SchemaTooNew

    if not 0 <= args.port <= 65535:
        print(f"dicecam serve: port must be 0-65535, not {args.port}", file=sys.stderr)
        return 2
    config = {"DATA_DIR": args.data} if args.data else None
    try:
        app = create_app(config)
        if app.config["READ_ONLY"]:
            # Players would see a page where nothing they enter is kept: refuse to start.
            print(
                f"dicecam serve: the data folder {app.config['DATA_DIR']} is read-only; "
                "choose a writable one with --data DIR or DICECAM_DATA",
                file=sys.stderr,
            )
            return 2
        serve(app, args.host, args.port, https=args.https)
    except (OSError, DataFolderError, SchemaTooNew) as exc:
        # A taken port or an unusable data folder: the user's to fix, not a crash.
        print(f"dicecam serve: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ndicecam serve: stopped", file=sys.stderr)
    return 0
