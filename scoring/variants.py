"""The rule variants: one base class, a small subclass per game, a registry by id and alias.

Written in the spirit of python-chess's `chess/variant.py`: each variant states only what
differs from its base.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from dicecam.scoring import labels
from dicecam.scoring.boxes import BOXES, Box, is_five_kind, joker_score, score_all, score_box, upper_box
from dicecam.scoring.errors import RuleError, UnknownVariant
from dicecam.scoring.sheet import Sheet


@dataclass(frozen=True)
class Choice:
    """A box (and column) the current throw may legally go into, and what it brings.

    `points` is what is written in the box; `gain` is how much the player's total rises,
    counting the column weight, an upper bonus reached and any extra bonus.
    """

    box: Box
    column: int | None
    points: int
    joker: bool
    gain: int

    def to_dict(self) -> dict:
        return {"box": self.box.value, "column": self.column, "points": self.points,
                "joker": self.joker, "gain": self.gain}


class Variant:
    """What every game variant has: names, labels, dice, players, options."""

    id: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    family: ClassVar[str]
    dice_count: ClassVar[int] = 5
    columns: ClassVar[int] = 1
    min_players: ClassVar[int] = 1
    _labels: ClassVar[dict[str, dict[Box, str]]] = {}

    @property
    def boxes(self) -> tuple[str, ...]:
        return ()

    @property
    def default_options(self) -> dict:
        return {}

    def name(self, lang: str = "de") -> str:
        return labels.NAMES[self.id][_lang(lang)]

    def summary(self, lang: str = "de") -> str:
        return labels.SUMMARIES[self.id][_lang(lang)].format(**self.default_options)

    def label(self, box: Box | str, lang: str = "de") -> str:
        """The box's name on this variant's sheet."""
        table = self._labels[_lang(lang)]
        try:
            return table[Box(box)]
        except (ValueError, KeyError):
            raise RuleError(f"{self.name('en')} has no box {box!r}", code="unknown_box",
                            name=str(box)) from None

    def check_options(self, options: object) -> dict:
        """The game options with defaults filled in; RuleError for unknown or bad ones."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RuleError("The options must be an object", code="options")
        merged = self.default_options
        for key, value in options.items():
            if key not in merged:
                allowed = ", ".join(merged) or "none"
                raise RuleError(f"{self.name('en')} has no option {key!r} (options: {allowed})",
                                code="option_unknown", option=str(key))
            merged[key] = value
        return merged

    def new_table(self, players: tuple[str, ...], options: dict):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Variant {self.id}>"


def _lang(lang: str) -> str:
    if lang not in labels.LANGS:
        raise ValueError(f"language must be one of {', '.join(labels.LANGS)}, not {lang!r}")
    return lang


class SheetVariant(Variant):
    """The Kniffel family: 5 dice, 13 boxes per column, one box filled per turn."""

    family = "sheet"
    bonus_threshold: ClassVar[int] = 63
    upper_bonus: ClassVar[int] = 35
    column_weights: ClassVar[tuple[int, ...]] = (1,)
    # Points for five of a kind while the five_kind box holds 50 (0: no such bonus),
    # and whether a player can earn them only once.
    extra_bonus_points: ClassVar[int] = 0
    extra_bonus_once: ClassVar[bool] = False

    @property
    def boxes(self) -> tuple[str, ...]:
        return tuple(b.value for b in BOXES)

    @property
    def turns(self) -> int:
        """Turns per player: one per box."""
        return len(BOXES) * self.columns

    def plain_scores(self, dice: Sequence[int]) -> dict[Box, int]:
        """Points of the throw in every box by the plain rules (no joker, no bonus)."""
        return score_all(dice)

    def extra_bonus(self, sheet: Sheet, dice: Sequence[int]) -> int:
        """Extra points earned by ending a turn with `dice` on `sheet`."""
        # A scratched five_kind box (0) never leads to an extra bonus.
        if (not self.extra_bonus_points or not is_five_kind(dice)
                or sheet.box(Box.FIVE_KIND) != 50
                or (self.extra_bonus_once and sheet.extra_bonus_earned)):
            return 0
        return self.extra_bonus_points

    # Hooks the subclasses override.

    def joker(self, sheet: Sheet, dice: Sequence[int]) -> str | None:
        """None, "free" (any box, lower ones at full value) or "forced" (Yahtzee order)."""
        return None

    def forced_joker_message(self, sheet: Sheet, dice: Sequence[int]) -> str:
        return "The joker rules do not allow that box"

    # Derived.

    def _allowed(self, sheet: Sheet, dice: Sequence[int], joker: str | None):
        cells = sheet.open_cells()
        return _forced_joker_cells(cells, dice) if joker == "forced" else cells

    @staticmethod
    def _points(box: Box, dice: Sequence[int], joker: str | None) -> int:
        return joker_score(box, dice) if joker and not box.is_upper else score_box(box, dice)

    def choices(self, sheet: Sheet, dice: Sequence[int]) -> list[Choice]:
        """Every box (and column) `dice` may legally fill on `sheet`, best first."""
        joker = self.joker(sheet, dice)
        extra = self.extra_bonus(sheet, dice)
        out = []
        for box, column in self._allowed(sheet, dice, joker):
            points = self._points(box, dice, joker)
            after = sheet.filled(box, column, points).with_extra_bonus(extra)
            out.append(Choice(box, column if self.columns > 1 else None, points,
                              joker is not None, after.total - sheet.total))
        out.sort(key=lambda c: (-c.gain, -c.points, c.column or 0, BOXES.index(c.box)))
        return out

    def fill(self, sheet: Sheet, dice: Sequence[int], box: Box, column: int) -> Sheet:
        """`sheet` after ending a turn with `dice` in the open `box` of `column`.

        RuleError if a forced joker sends the throw elsewhere.
        """
        joker = self.joker(sheet, dice)
        if joker == "forced" and (box, column) not in self._allowed(sheet, dice, joker):
            raise RuleError(self.forced_joker_message(sheet, dice), code="forced_joker",
                            box=box.value)
        return sheet.filled(box, column, self._points(box, dice, joker)).with_extra_bonus(
            self.extra_bonus(sheet, dice))

    def new_table(self, players: tuple[str, ...], options: dict):
        from dicecam.scoring.sheet_table import SheetTable

        return SheetTable.start(self, players)


def _forced_joker_cells(cells, dice):
    """Yahtzee's joker order: matching upper box, else any open lower box, else any upper."""
    matching = [(b, c) for b, c in cells if b is upper_box(dice[0])]
    lower = [(b, c) for b, c in cells if not b.is_upper]
    return matching or lower or list(cells)


class Spiffel(SheetVariant):
    id = "spiffel"
    aliases = ("kniffel",)
    extra_bonus_points = 100
    extra_bonus_once = True
    _labels = labels.SPIFFEL

    def joker(self, sheet, dice):
        # Only the Spiffel that earns the once-only bonus is a joker.
        return "free" if self.extra_bonus(sheet, dice) else None


class Wuerfelware(SheetVariant):
    id = "wuerfelware"
    min_players = 2
    bonus_threshold = 65
    extra_bonus_points = 100
    _labels = labels.WUERFELWARE


class Wuerfelspiel(SheetVariant):
    id = "wuerfelspiel"
    columns = 3
    column_weights = (1, 2, 3)
    _labels = labels.WUERFELSPIEL


class Yahtzee(SheetVariant):
    id = "yahtzee"
    extra_bonus_points = 100
    _labels = labels.YAHTZEE

    def joker(self, sheet, dice):
        return "forced" if is_five_kind(dice) and not sheet.is_open(Box.FIVE_KIND) else None

    def forced_joker_message(self, sheet, dice):
        upper = upper_box(dice[0])
        if sheet.is_open(upper):
            return f"Joker: this Yahtzee must go into {self.label(upper, 'en')} while it is open"
        return "Joker: this Yahtzee must go into an open box of the lower section"


class Wuerfelpoker(Variant):
    """Push your luck with 6 dice: set scoring dice aside, bank or throw again."""

    id = "wuerfelpoker"
    aliases = ("zehntausend",)
    family = "push"
    dice_count = 6
    min_players = 2

    @property
    def default_options(self) -> dict:
        return {"target": 10_000, "finish_round": False}

    def check_options(self, options):
        merged = super().check_options(options)
        target = merged["target"]
        if isinstance(target, bool) or not isinstance(target, int) or not 50 <= target <= 1_000_000:
            raise RuleError("The target must be a whole number of points from 50 to 1,000,000",
                            code="option_target")
        if not isinstance(merged["finish_round"], bool):
            raise RuleError("finish_round must be true or false", code="option_finish_round")
        return merged

    def label(self, box, lang="de"):
        raise RuleError("Würfelpoker has no boxes", code="unknown_box", name=str(box))

    def new_table(self, players, options):
        from dicecam.scoring.push_table import PushTable

        return PushTable.start(self, players, options)


_VARIANTS: tuple[Variant, ...] = (Spiffel(), Wuerfelware(), Wuerfelspiel(), Yahtzee(), Wuerfelpoker())
_BY_NAME: dict[str, Variant] = {
    name: v for v in _VARIANTS for name in (v.id, *v.aliases)
}


def get_variant(name: str | Variant) -> Variant:
    """The variant with this id or alias (case-insensitive); UnknownVariant otherwise."""
    if isinstance(name, Variant):
        return name
    key = name.strip().lower() if isinstance(name, str) else name
    try:
        return _BY_NAME[key]
    except (KeyError, TypeError):
        known = ", ".join(_BY_NAME)
        raise UnknownVariant(f"Unknown game {name!r}; known games: {known}",
                             code="unknown_variant", name=str(name)) from None


def all_variants() -> tuple[Variant, ...]:
    """Every variant in display order."""
    return _VARIANTS
