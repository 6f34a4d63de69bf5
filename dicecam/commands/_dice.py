"""How many dice a command line names (`recognize --dice`, `eval --max-dice`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def dice_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of dice from `low` (to `high`, where given); anything
    else is refused with what it must be."""
    bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = low - 1
        if n < low or (high is not None and n > high):
            raise argparse.ArgumentTypeError(f"the number of dice must be a whole number {bounds}, not {text!r}")
        return n

    return parse
