"""Small builders shared by the scoring tests (no logic under test lives here)."""

from __future__ import annotations

from dicecam.scoring import Game

# Five dice that score nothing in any upper box but `face`, and no lower combination
# beyond chance; used when a test only needs "some" throw.
FILLER = {1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 5}


def upper_dice(face: int, count: int) -> list[int]:
    """Dice with exactly `count` dice showing `face` (the rest show another face)."""
    return [face] * count + [FILLER[face]] * (5 - count)


def fill(game: Game, dice: list[int], box: str, column: int | None = None) -> Game:
    """The current player writes `dice` into `box`."""
    event: dict[str, object] = {"player": game.current_player, "dice": dice, "box": box}
    if column is not None:
        event["column"] = column
    return game.play(event)


def fill_for(game: Game, player: str, fills: list[tuple[list[int], str]]) -> Game:
    """`player` makes `fills` in order; everyone else scratches their next open box."""
    for dice, box in fills:
        while (current := game.current_player) != player:
            assert current is not None, "the game ended before all fills were made"
            other = game.sheet_of(current)
            game = fill(game, [1, 2, 3, 4, 6], other.open_boxes()[-1])
        game = fill(game, dice, box)
    return game
