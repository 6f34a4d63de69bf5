"""The Kniffel-family table: every player's sheet and whose turn it is, one event at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dicecam.scoring.dice import check_dice
from dicecam.scoring.errors import RuleError
from dicecam.scoring.events import Fill, parse_sheet_event
from dicecam.scoring.recaps import FillRecap
from dicecam.scoring.rules import Joker
from dicecam.scoring.sheet import Sheet
from dicecam.scoring.turns import check_not_over, check_turn, winner_of
from dicecam.scoring.variants import Choice, SheetVariant


@dataclass(frozen=True)
class SheetTable:
    """Players take turns in seating order; each turn fills exactly one open box."""

    variant: SheetVariant
    players: tuple[str, ...]
    sheets: tuple[Sheet, ...]
    moves: int = 0

    @classmethod
    def start(cls, variant: SheetVariant, players: tuple[str, ...]) -> SheetTable:
        return cls(variant, players, tuple(Sheet.empty(variant) for _ in players))

    @property
    def finished(self) -> bool:
        return all(s.is_full for s in self.sheets)

    @property
    def current_player(self) -> str | None:
        return None if self.finished else self.players[self.moves % len(self.players)]

    @property
    def turn(self) -> int:
        if self.finished:
            return self.variant.turns
        return self.moves // len(self.players) + 1

    @property
    def totals(self) -> dict[str, int]:
        return {p: s.total for p, s in zip(self.players, self.sheets)}

    @property
    def winner(self) -> str | list[str] | None:
        return winner_of(self.totals) if self.finished else None

    def sheet_of(self, player: str) -> Sheet:
        return self.sheets[self.players.index(player)]

    def choices(self, dice: Sequence[int]) -> list[Choice]:
        """The legal boxes for the current player's `dice`, best first."""
        check_not_over(self)
        dice = check_dice(dice, count=self.variant.dice_count)
        return self.variant.choices(self.sheets[self.moves % len(self.players)], dice)

    def options(self, dice: Sequence[int]) -> list[dict]:
        return [c.to_dict() for c in self.choices(dice)]

    def play(self, event: object) -> tuple[Fill, SheetTable, FillRecap]:
        """Validate `event`; return it parsed, the table after it, and what it did."""
        fill = parse_sheet_event(event)
        check_turn(self, fill.player)
        dice = check_dice(fill.dice, count=self.variant.dice_count, what="dice")
        column = self._column(fill.column)
        sheet = self.sheet_of(fill.player)
        if not sheet.is_open(fill.box, column):
            where = f" in column {column}" if self.variant.columns > 1 else ""
            raise RuleError(
                f"Box '{self.variant.label(fill.box, 'en')}'{where} is already filled for {fill.player}",
                code="box_filled", box=fill.box.value, column=column, player=fill.player,
            )
        after = self.variant.fill(sheet, dice, fill.box, column)
        i = self.players.index(fill.player)
        sheets = (*self.sheets[:i], after, *self.sheets[i + 1:])
        parsed = Fill(fill.player, dice, fill.box, fill.column)
        recap = FillRecap(
            player=fill.player, box=fill.box, column=fill.column,
            weight=self.variant.column_weights[column - 1],
            points=after.box(fill.box, column) or 0,
            joker=self.variant.joker(sheet, dice) is not Joker.NONE,
            upper_bonus=after.upper_bonus(column) - sheet.upper_bonus(column),
            extra_bonus=after.extra_bonus - sheet.extra_bonus,
            gain=after.total - sheet.total,
        )
        return parsed, SheetTable(self.variant, self.players, sheets, self.moves + 1), recap

    def _column(self, column: int | None) -> int:
        n = self.variant.columns
        if n == 1:
            if column is not None:
                raise RuleError(f"{self.variant.name('en')} has one column; leave out the column",
                                code="column")
            return 1
        if column is None:
            raise RuleError(f"Say which column to write into (1 to {n})", code="column_missing")
        if not 1 <= column <= n:
            raise RuleError(f"The column must be 1 to {n}, not {column}", code="column")
        return column

    def state(self) -> dict:
        return {
            "sheet": {p: s.to_dict() for p, s in zip(self.players, self.sheets)},
        }

