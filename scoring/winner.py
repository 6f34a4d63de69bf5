"""Who leads a finished game."""

from __future__ import annotations


def winner_of(totals: dict[str, int]) -> str | list[str]:
    """The player with the highest total, or the list (seating order) of those tied for it."""
    best = max(totals.values())
    top = [p for p, t in totals.items() if t == best]
    return top[0] if len(top) == 1 else top
