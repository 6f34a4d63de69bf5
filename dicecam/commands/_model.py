"""Loading the dice model for the vision commands, with a one-line error instead of a traceback."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def load_reader(models: Path | None, **changes: Any):
    """The `DiceReader` for `models` (default: the shipped models) with these setting
    `changes`, or None after printing why not."""
    from dicecam.vision.reader import DiceReader

    try:
        return DiceReader(models, **changes)
    except (FileNotFoundError, ValueError) as exc:
        print(f"dicecam: cannot load the dice model: {exc}", file=sys.stderr)
        return None
