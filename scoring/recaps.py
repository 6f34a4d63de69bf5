"""What one event did, in player terms: the line a page or the CLI shows after an entry.

Each table returns one recap per event it plays; `Game.recap(n)` gives it back and
`Game.describe(n, lang)` adds the sentence ("Anna: Full House ×3 · 25 (75)").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from dicecam.scoring.boxes import Box


@dataclass(frozen=True, slots=True)
class FillRecap:
    """Kniffel family: a box filled.

    `points` is what was written in the box, `weight` the column's weight (1, 2, 3),
    `upper_bonus` the bonus this entry reached (0 or 35, before the weight),
    `extra_bonus` the extra points it earned, `gain` how much the player's total rose.
    """

    kind: ClassVar[str] = "fill"
    player: str
    box: Box
    column: int | None
    weight: int
    points: int
    joker: bool
    upper_bonus: int
    extra_bonus: int
    gain: int

    @property
    def weighted(self) -> int:
        """The box's points times the column weight."""
        return self.points * self.weight

    def to_dict(self) -> dict:
        return {"kind": self.kind, "player": self.player, "box": self.box.value,
                "column": self.column, "weight": self.weight, "points": self.points,
                "weighted": self.weighted, "joker": self.joker, "upper_bonus": self.upper_bonus,
                "extra_bonus": self.extra_bonus, "gain": self.gain}


@dataclass(frozen=True, slots=True)
class KeepRecap:
    """Würfelpoker: dice set aside from a throw; the turn goes on."""

    kind: ClassVar[str] = "keep"
    player: str
    throw: tuple[int, ...]
    keep: tuple[int, ...]
    points: int
    turn_total: int
    dice_left: int
    hot_dice: bool

    def to_dict(self) -> dict:
        return {"kind": self.kind, "player": self.player, "throw": list(self.throw),
                "keep": list(self.keep), "points": self.points, "turn_total": self.turn_total,
                "dice_left": self.dice_left, "hot_dice": self.hot_dice}


@dataclass(frozen=True, slots=True)
class BustRecap:
    """Würfelpoker: a throw with nothing to score; the turn's `lost` points are gone."""

    kind: ClassVar[str] = "bust"
    player: str
    throw: tuple[int, ...]
    lost: int

    def to_dict(self) -> dict:
        return {"kind": self.kind, "player": self.player, "throw": list(self.throw),
                "lost": self.lost}


@dataclass(frozen=True, slots=True)
class BankRecap:
    """Würfelpoker: the turn total banked; `score` is the player's score after it."""

    kind: ClassVar[str] = "bank"
    player: str
    points: int
    score: int
    reached_target: bool

    def to_dict(self) -> dict:
        return {"kind": self.kind, "player": self.player, "points": self.points,
                "score": self.score, "reached_target": self.reached_target}


Recap = FillRecap | KeepRecap | BustRecap | BankRecap
