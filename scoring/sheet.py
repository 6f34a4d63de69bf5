"""One player's score sheet in the Kniffel family, with its derived subtotals and bonuses."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from dicecam.scoring.boxes import BOXES, UPPER, Box

Cells = tuple[int | None, ...]


class SheetRules(Protocol):
    """What a sheet asks of its variant (a `SheetVariant` is one); kept here so that the
    sheet never imports the variants."""

    @property
    def columns(self) -> int: ...

    @property
    def bonus_threshold(self) -> int: ...

    @property
    def upper_bonus(self) -> int: ...

    @property
    def column_weights(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Sheet:
    """The boxes of every column (None = open) and the extra bonus earned so far.

    Columns are numbered from 1; single-column variants have only column 1.
    Everything else (subtotals, upper bonus, totals) is derived.
    """

    variant: SheetRules
    cells: tuple[Cells, ...]
    extra_bonus: int = 0
    extra_bonus_count: int = 0

    @classmethod
    def empty(cls, variant: SheetRules) -> Sheet:
        return cls(variant, tuple((None,) * len(BOXES) for _ in range(variant.columns)))

    # -- reading ---------------------------------------------------------------

    def _cells(self, column: int) -> Cells:
        if not 1 <= column <= len(self.cells):
            raise ValueError(f"column must be 1 to {len(self.cells)}, not {column}")
        return self.cells[column - 1]

    def box(self, box: Box | str, column: int = 1) -> int | None:
        """Points written in `box` of `column`, or None while it is open."""
        return self._cells(column)[BOXES.index(Box(box))]

    def is_open(self, box: Box | str, column: int = 1) -> bool:
        return self.box(box, column) is None

    def open_boxes(self, column: int = 1) -> tuple[Box, ...]:
        """The boxes of `column` still open, in sheet order."""
        return tuple(b for b, v in zip(BOXES, self._cells(column)) if v is None)

    def open_cells(self) -> tuple[tuple[Box, int], ...]:
        """Every open (box, column) pair, column by column."""
        return tuple((b, c) for c in range(1, len(self.cells) + 1) for b in self.open_boxes(c))

    @property
    def filled_count(self) -> int:
        return sum(v is not None for col in self.cells for v in col)

    @property
    def is_full(self) -> bool:
        return all(v is not None for col in self.cells for v in col)

    def upper_subtotal(self, column: int = 1) -> int:
        """Sum of ones..sixes in `column` (open boxes count 0)."""
        return sum(v or 0 for v in self._cells(column)[: len(UPPER)])

    def upper_bonus(self, column: int = 1) -> int:
        v = self.variant
        return v.upper_bonus if self.upper_subtotal(column) >= v.bonus_threshold else 0

    def lower_subtotal(self, column: int = 1) -> int:
        return sum(v or 0 for v in self._cells(column)[len(UPPER):])

    def column_total(self, column: int = 1) -> int:
        """Upper + bonus + lower of one column, before its weight."""
        return self.upper_subtotal(column) + self.upper_bonus(column) + self.lower_subtotal(column)

    @property
    def extra_bonus_earned(self) -> bool:
        """Whether any extra bonus (second five of a kind) has been earned yet."""
        return self.extra_bonus_count > 0

    @property
    def total(self) -> int:
        """The player's score: weighted column totals plus the extra bonus."""
        weights = self.variant.column_weights
        return sum(w * self.column_total(c) for c, w in enumerate(weights, 1)) + self.extra_bonus

    # -- changing (returns a new sheet) ------------------------------------------

    def filled(self, box: Box | str, column: int, points: int) -> Sheet:
        """A copy with `points` written into the open `box` of `column`."""
        i = BOXES.index(Box(box))
        col = list(self._cells(column))
        if col[i] is not None:
            raise ValueError(f"{box} in column {column} is already filled")
        col[i] = points
        cells = list(self.cells)
        cells[column - 1] = tuple(col)
        return replace(self, cells=tuple(cells))

    def with_extra_bonus(self, points: int) -> Sheet:
        if not points:
            return self
        return replace(self, extra_bonus=self.extra_bonus + points,
                       extra_bonus_count=self.extra_bonus_count + 1)

    def to_dict(self) -> dict:
        """JSON form as in docs/ARCHITECTURE.md (`state()["sheet"][player]`)."""
        return {
            "columns": [
                {
                    "boxes": {b.value: v for b, v in zip(BOXES, self.cells[c - 1])},
                    "upper": self.upper_subtotal(c),
                    "bonus": self.upper_bonus(c),
                    "lower": self.lower_subtotal(c),
                    "total": self.column_total(c),
                }
                for c in range(1, len(self.cells) + 1)
            ],
            "extra_bonus": self.extra_bonus,
            "total": self.total,
        }

