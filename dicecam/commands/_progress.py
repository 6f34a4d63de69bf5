"""A one-line progress display on the terminal for commands that take a while.

Shown on stderr, and only when both stdout and stderr are terminals and the command
was not asked for `--json`: piped or scripted output stays exactly as it was.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

_BAR = 20


class Progress:
    """`update(label, done, total)` redraws one line; `clear()` removes it.

    Redraws at most ten times a second, so a fast loop does not flood the terminal.
    Does nothing at all when `enabled` is false.
    """

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self._last = 0.0
        self._width = 0

    def update(self, label: str, done: int, total: int, *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1 and done < total:
            return
        self._last = now
        frac = min(max(done / total, 0.0), 1.0) if total else 0.0
        filled = round(frac * _BAR)
        line = f"{label} [{'#' * filled}{'.' * (_BAR - filled)}] {done}/{total}"
        self._write("\r" + line + " " * max(self._width - len(line), 0))
        self._width = len(line)

    def clear(self) -> None:
        """Remove the line, before a result is printed or when the work is done."""
        if self.enabled and self._width:
            self._write("\r" + " " * self._width + "\r")
            self._width = 0

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False  # a closed terminal is no reason to fail the command


def for_command(json_output: bool = False) -> Progress:
    """The progress display a command should use, given whether it prints JSON."""
    return Progress(not json_output and _is_tty(sys.stdout) and _is_tty(sys.stderr))


def _is_tty(stream: TextIO | None) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError):
        return False


def advisor_label(what: str) -> str:
    """The progress line's words for one of the advisor's builds ("table:spiffel")."""
    kind, _, variant = what.partition(":")
    if kind == "passes":
        return f"building the {variant} pass tables (once, then cached)"
    return f"building the {variant} advisor table (once, then cached)"
