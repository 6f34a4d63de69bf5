"""The `dicecam` command line.

Each subcommand lives in its own module under `dicecam.commands` and exposes
`add_parser(subparsers)` and `run(args) -> int`. Command modules import only
argparse at module level; heavy imports (OpenCV, onnxruntime, Flask) happen
inside `run`, so that `dicecam score` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Order is the order shown by `dicecam --help`.
COMMANDS = (
    "score",
    "replay",
    "variants",
    "recognize",
    "eval",
    "serve",
    "prune",
    "copy_games",
    "export_throws",
    "solve",
    "advise",
)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="dicecam",
        description="Read real dice from photos and keep the score sheet.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"dicecam.commands.{name}")
        except ModuleNotFoundError as exc:
            # A command whose module is not written yet is simply not offered.
            if exc.name == f"dicecam.commands.{name}":
                continue
            raise
        module.add_parser(sub)
    return parser


class _Version(argparse.Action):
    """`--version`, looked up only when asked (importlib.metadata costs every start-up)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            text = version("dicecam")
        except PackageNotFoundError:  # run from a checkout that was never installed
            text = "(not installed)"
        print(f"dicecam {text}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `dicecam ... | head` closes stdout early; that is not an error.
        sys.stderr.close()
        return 0
