"""What a page needs to draw a variant's sheet without knowing any rule: `Variant.display`.

Frozen values with `to_dict()`; the exact JSON shape is documented in docs/ARCHITECTURE.md
("Display").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ColumnInfo:
    """One score column: its number (1..), weight (x1, x2, x3) and header label."""

    column: int
    weight: int
    label: str

    def to_dict(self) -> dict:
        return {"column": self.column, "weight": self.weight, "label": self.label}


@dataclass(frozen=True)
class BoxInfo:
    """One box of the sheet, in sheet order: id, label on this variant's sheet, section."""

    box: str
    label: str
    section: str  # "upper" or "lower"

    def to_dict(self) -> dict:
        return {"box": self.box, "label": self.label, "section": self.section}


@dataclass(frozen=True)
class UpperBonusInfo:
    """The upper bonus: `points` once the upper boxes of a column reach `threshold`."""

    threshold: int
    points: int
    label: str  # the sum row's label, e.g. "Bonus (+35)"
    rule: str   # one line, e.g. "+35 at 63 or more in the upper section"

    def to_dict(self) -> dict:
        return {"threshold": self.threshold, "points": self.points, "label": self.label,
                "rule": self.rule}


@dataclass(frozen=True)
class ExtraBonusInfo:
    """Points for another five of a kind while the five-of-a-kind box holds 50.

    `box` is the five-of-a-kind box's id (`five_kind`) and `box_label` what this variant
    calls it (Spiffel, ERP, Yahtzee); `once` is true where it is earned only once;
    `joker` is "none", "free" or "forced".
    """

    box: str
    box_label: str
    points: int
    once: bool
    joker: str
    label: str  # the sum row's label, e.g. "Spiffel-Bonus"
    rule: str   # why it is there, in one line

    def to_dict(self) -> dict:
        return {"box": self.box, "box_label": self.box_label, "points": self.points,
                "once": self.once, "joker": self.joker, "label": self.label, "rule": self.rule}


@dataclass(frozen=True)
class Combination:
    """One scoring combination of Würfelpoker, as a line of the rules card."""

    id: str
    label: str
    points: str  # a number or a short rule ("face x 100")

    def to_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "points": self.points}


@dataclass(frozen=True)
class PushInfo:
    """The push family's facts: the target, whether the round is finished, what scores."""

    target: int
    finish_round: bool
    goal: str  # one line, e.g. "First to 10000 points wins"
    combinations: tuple[Combination, ...]

    def to_dict(self) -> dict:
        return {"target": self.target, "finish_round": self.finish_round, "goal": self.goal,
                "combinations": [c.to_dict() for c in self.combinations]}


@dataclass(frozen=True)
class Display:
    """Everything a page draws a variant's sheet from, in one language."""

    variant: str
    lang: str
    name: str
    summary: str
    family: str                   # "sheet" or "push"
    dice_per_throw: int           # at the start of a turn (push: fewer once dice are set aside)
    throws_per_turn: int | None   # None: as many as the player dares (push)
    turns_per_player: int | None  # None: until someone reaches the target (push)
    min_players: int
    max_players: int
    columns: tuple[ColumnInfo, ...] = ()
    boxes: tuple[BoxInfo, ...] = ()
    upper_bonus: UpperBonusInfo | None = None
    extra_bonus: ExtraBonusInfo | None = None
    scratch_mark: str | None = None  # how a scratched box (0) is written, e.g. "XXX"
    push: PushInfo | None = None

    def to_dict(self) -> dict:
        return {
            "variant": self.variant,
            "lang": self.lang,
            "name": self.name,
            "summary": self.summary,
            "family": self.family,
            "dice_per_throw": self.dice_per_throw,
            "throws_per_turn": self.throws_per_turn,
            "turns_per_player": self.turns_per_player,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "columns": [c.to_dict() for c in self.columns],
            "boxes": [b.to_dict() for b in self.boxes],
            "upper_bonus": self.upper_bonus.to_dict() if self.upper_bonus else None,
            "extra_bonus": self.extra_bonus.to_dict() if self.extra_bonus else None,
            "scratch_mark": self.scratch_mark,
            "push": self.push.to_dict() if self.push else None,
        }
