"""What both kinds of table share: whose turn it is, and who leads a finished game."""

from __future__ import annotations

from dicecam.scoring.errors import RuleError


def check_not_over(table) -> None:
    if table.finished:
        raise RuleError("The game is over; no more throws can be entered", code="game_over")


def check_turn(table, player: str) -> None:
    """RuleError unless `player` may act now at `table` (game on, known name, their turn)."""
    check_not_over(table)
    if player not in table.players:
        raise RuleError(f"No player named {player!r} in this game", code="unknown_player",
                        player=player)
    if player != table.current_player:
        raise RuleError(f"It is {table.current_player}'s turn, not {player}'s",
                        code="not_your_turn", player=player, current=table.current_player)


def winner_of(totals: dict[str, int]) -> str | list[str]:
    """The player with the highest total, or the list (seating order) of those tied for it."""
    best = max(totals.values())
    top = [p for p, t in totals.items() if t == best]
    return top[0] if len(top) == 1 else top
