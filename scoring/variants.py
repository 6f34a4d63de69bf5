"""The rule variants: one base class, a small subclass per game, a registry by id and alias.

Written in the spirit of python-chess's `chess/variant.py`: each variant states only what
differs from its base. Everything a game decides is asked of its variant here (dice per
throw, throws per turn, boxes and sections, bonuses, jokers, labels, how a player's entry
becomes an event); the tables that replay a log (`sheet_table`, `push_table`) and every
front end read it from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import dicecam.scoring.labels as labels
import dicecam.scoring.phrases as phrases
from dicecam.scoring.boxes import BOXES, Box, is_five_kind, joker_score, score_all, score_box, upper_box
from dicecam.scoring.display import (
    BoxInfo,
    ColumnInfo,
    Combination,
    Display,
    ExtraBonusInfo,
    PushInfo,
    UpperBonusInfo,
)
from dicecam.scoring.errors import RuleError, UnknownVariant
from dicecam.scoring.players import MAX_PLAYERS, check_players
from dicecam.scoring.rules import ExtraBonus, Family, Joker
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
    family: ClassVar[Family]
    #: Dice in a throw at the start of a turn (Würfelpoker: fewer once dice are set aside;
    #: `Game.expected_dice` says how many the current throw needs).
    dice_count: ClassVar[int] = 5
    #: Throws a player may make in one turn; None: as many as the player dares.
    throws_per_turn: ClassVar[int | None] = None
    columns: ClassVar[int] = 1
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = MAX_PLAYERS
    _labels: ClassVar[dict[str, dict[Box, str]]] = {}

    @property
    def boxes(self) -> tuple[str, ...]:
        return ()

    @property
    def default_options(self) -> dict:
        return {}

    def name(self, lang: str = "de") -> str:
        return labels.NAMES[self.id][_lang(lang)]

    def summary(self, lang: str = "de", options: Mapping[str, Any] | None = None) -> str:
        """The rules in a sentence; with a game's `options` (checked) as that game plays them."""
        lang = _lang(lang)
        values = {**self.default_options, **(options or {})}
        written = {name: phrases.number(value, lang) if type(value) is int else value
                   for name, value in values.items()}
        return labels.SUMMARIES[self.id][lang].format(**written)

    def label(self, box: Box | str, lang: str = "de") -> str:
        """The box's name on this variant's sheet."""
        table = self._labels[_lang(lang)]
        try:
            return table[Box(box)]
        except (ValueError, KeyError):
            raise RuleError(f"{self.name('en')} has no box {box!r}", code="unknown_box",
                            name=str(box)) from None

    def alias_note(self, alias: str, lang: str = "de") -> str | None:
        """Why `alias` opens this game and what differs in its names; None if it is the id."""
        key = alias.strip().lower()
        if key == self.id or key not in self.aliases:
            return None
        return phrases.ALIAS_NOTE[(key, self.id)][_lang(lang)]

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

    def check_players(self, players: object) -> tuple[str, ...]:
        """The seating list, every name checked (see `players.check_name`)."""
        return check_players(players, min_players=self.min_players, game=self.name("en"))

    def entry_event(self, player: str, dice: Sequence[int], choice: Mapping[str, Any]) -> dict:
        """The log event for `player`'s entry of `dice` with `choice` (see each family)."""
        raise NotImplementedError

    def display(self, lang: str = "de", options: Mapping[str, Any] | None = None) -> Display:
        """What a page needs to draw this game's sheet (docs/ARCHITECTURE.md, "Display")."""
        raise NotImplementedError

    def _display(self, lang: str, *, options: Mapping[str, Any] | None = None, **facts: Any) -> Display:
        return Display(variant=self.id, lang=_lang(lang), name=self.name(lang),
                       summary=self.summary(lang, options), family=self.family.value,
                       dice_per_throw=self.dice_count, throws_per_turn=self.throws_per_turn,
                       min_players=self.min_players, max_players=self.max_players, **facts)

    def __repr__(self) -> str:
        return f"<Variant {self.id}>"


def _lang(lang: str) -> str:
    if lang not in labels.LANGS:
        raise ValueError(f"language must be one of {', '.join(labels.LANGS)}, not {lang!r}")
    return lang


def _check_choice_keys(choice: object, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(choice, Mapping):
        raise RuleError("The entry must be an object", code="event_shape")
    unknown = sorted(set(choice) - allowed)
    if unknown:
        raise RuleError(
            f"Unknown field {unknown[0]!r} in the entry; allowed are: {', '.join(sorted(allowed))}",
            code="event_field", field=str(unknown[0]),
        )
    return choice


class SheetVariant(Variant):
    """The Kniffel family: 5 dice, up to 3 throws, 13 boxes per column, one box per turn."""

    family = Family.SHEET
    throws_per_turn = 3
    bonus_threshold: ClassVar[int] = 63
    upper_bonus: ClassVar[int] = 35
    column_weights: ClassVar[tuple[int, ...]] = (1,)
    #: Points for five of a kind while the five_kind box holds 50, and how often.
    extra_bonus_points: ClassVar[int] = 100
    extra_bonus_rule: ClassVar[ExtraBonus] = ExtraBonus.NONE
    #: Where such a throw may go (see `joker`).
    joker_rule: ClassVar[Joker] = Joker.NONE
    #: How a scratched box (0) is written on this game's block; None: as 0.
    scratch_mark: ClassVar[str | None] = None

    @property
    def boxes(self) -> tuple[str, ...]:
        return tuple(b.value for b in BOXES)

    @property
    def turns(self) -> int:
        """Turns per player: one per box."""
        return len(BOXES) * self.columns

    @property
    def extra_bonus_once(self) -> bool:
        return self.extra_bonus_rule is ExtraBonus.ONCE

    def plain_scores(self, dice: Sequence[int]) -> dict[Box, int]:
        """Points of the throw in every box by the plain rules (no joker, no bonus)."""
        return score_all(dice)

    def extra_bonus(self, sheet: Sheet, dice: Sequence[int]) -> int:
        """Extra points earned by ending a turn with `dice` on `sheet`."""
        # A scratched five_kind box (0) never leads to an extra bonus.
        if (self.extra_bonus_rule is ExtraBonus.NONE or not is_five_kind(dice)
                or sheet.box(Box.FIVE_KIND) != 50
                or (self.extra_bonus_once and sheet.extra_bonus_earned)):
            return 0
        return self.extra_bonus_points

    def joker(self, sheet: Sheet, dice: Sequence[int]) -> Joker:
        """Whether `dice` on `sheet` are a joker, and which kind (RULES.md per game).

        A free joker (Spiffel) is only the five of a kind that earns the extra bonus; a
        forced one (Yahtzee) is any five of a kind once the five_kind box is filled.
        """
        if self.joker_rule is Joker.FREE:
            return Joker.FREE if self.extra_bonus(sheet, dice) else Joker.NONE
        if self.joker_rule is Joker.FORCED:
            forced = is_five_kind(dice) and not sheet.is_open(Box.FIVE_KIND)
            return Joker.FORCED if forced else Joker.NONE
        return Joker.NONE

    def forced_joker_message(self, sheet: Sheet, dice: Sequence[int]) -> str:
        upper = upper_box(dice[0])
        if sheet.is_open(upper):
            return f"Joker: this {self.label(Box.FIVE_KIND, 'en')} must go into " \
                   f"{self.label(upper, 'en')} while it is open"
        return f"Joker: this {self.label(Box.FIVE_KIND, 'en')} must go into an open box " \
               "of the lower section"

    # Derived.

    def _allowed(self, sheet: Sheet, dice: Sequence[int], joker: Joker):
        cells = sheet.open_cells()
        return _forced_joker_cells(cells, dice) if joker is Joker.FORCED else cells

    @staticmethod
    def _points(box: Box, dice: Sequence[int], joker: Joker) -> int:
        if joker is not Joker.NONE and not box.is_upper:
            return joker_score(box, dice)
        return score_box(box, dice)

    def choices(self, sheet: Sheet, dice: Sequence[int]) -> list[Choice]:
        """Every box (and column) `dice` may legally fill on `sheet`, best first."""
        joker = self.joker(sheet, dice)
        extra = self.extra_bonus(sheet, dice)
        out = []
        for box, column in self._allowed(sheet, dice, joker):
            points = self._points(box, dice, joker)
            after = sheet.filled(box, column, points).with_extra_bonus(extra)
            out.append(Choice(box, column if self.columns > 1 else None, points,
                              joker is not Joker.NONE, after.total - sheet.total))
        out.sort(key=lambda c: (-c.gain, -c.points, c.column or 0, BOXES.index(c.box)))
        return out

    def fill(self, sheet: Sheet, dice: Sequence[int], box: Box, column: int) -> Sheet:
        """`sheet` after ending a turn with `dice` in the open `box` of `column`.

        RuleError if a forced joker sends the throw elsewhere.
        """
        joker = self.joker(sheet, dice)
        if joker is Joker.FORCED and (box, column) not in self._allowed(sheet, dice, joker):
            raise RuleError(self.forced_joker_message(sheet, dice), code="forced_joker",
                            box=box.value)
        return sheet.filled(box, column, self._points(box, dice, joker)).with_extra_bonus(
            self.extra_bonus(sheet, dice))

    def entry_event(self, player: str, dice: Sequence[int], choice: Mapping[str, Any]) -> dict:
        """`{"player", "dice", "box", "column"?}` from a choice `{"box", "column"?}`."""
        choice = _check_choice_keys(choice, {"box", "column"})
        event: dict[str, Any] = {"player": player, "dice": list(dice), "box": choice.get("box")}
        if choice.get("column") is not None:
            event["column"] = choice["column"]
        return event

    def extra_bonus_label(self, lang: str = "de") -> str:
        """The extra bonus's row, named for this game's five-of-a-kind box as its block
        calls it (WÜRFELWARE's "ERP bonus", not "ERP (five of a kind) bonus")."""
        return phrases.EXTRA_BONUS_LABEL[_lang(lang)].format(box=self.label(Box.FIVE_KIND, "de"))

    def display(self, lang: str = "de", options: Mapping[str, Any] | None = None) -> Display:
        weights = self.column_weights
        extra = None
        if self.extra_bonus_rule is not ExtraBonus.NONE:
            box_label = self.label(Box.FIVE_KIND, lang)
            rule = phrases.EXTRA_BONUS_RULE[(self.extra_bonus_rule.value, self.joker_rule.value)]
            block_name = self.label(Box.FIVE_KIND, "de")
            extra = ExtraBonusInfo(
                box=Box.FIVE_KIND.value, box_label=box_label, points=self.extra_bonus_points,
                once=self.extra_bonus_once, joker=self.joker_rule.value,
                label=self.extra_bonus_label(lang),
                rule=rule[lang].format(box=block_name, points=self.extra_bonus_points),
            )
        return self._display(
            lang,
            turns_per_player=self.turns,
            columns=tuple(ColumnInfo(c, w, phrases.COLUMN_LABEL.format(weight=w))
                          for c, w in enumerate(weights, 1)),
            boxes=tuple(BoxInfo(b.value, self.label(b, lang), b.section.value) for b in BOXES),
            upper_bonus=UpperBonusInfo(
                threshold=self.bonus_threshold, points=self.upper_bonus,
                label=phrases.UPPER_BONUS_LABEL[lang].format(points=self.upper_bonus),
                rule=phrases.UPPER_BONUS_RULE[lang].format(points=self.upper_bonus,
                                                           threshold=self.bonus_threshold),
            ),
            extra_bonus=extra,
            scratch_mark=self.scratch_mark,
        )


def _forced_joker_cells(cells, dice):
    """Yahtzee's joker order: matching upper box, else any open lower box, else any upper."""
    matching = [(b, c) for b, c in cells if b is upper_box(dice[0])]
    lower = [(b, c) for b, c in cells if not b.is_upper]
    return matching or lower or list(cells)


class Spiffel(SheetVariant):
    id = "spiffel"
    aliases = ("kniffel",)
    extra_bonus_rule = ExtraBonus.ONCE
    joker_rule = Joker.FREE
    scratch_mark = "XXX"
    _labels = labels.SPIFFEL


class Wuerfelware(SheetVariant):
    id = "wuerfelware"
    min_players = 2
    bonus_threshold = 65
    extra_bonus_rule = ExtraBonus.EACH
    _labels = labels.WUERFELWARE


class Wuerfelspiel(SheetVariant):
    id = "wuerfelspiel"
    columns = 3
    column_weights = (1, 2, 3)
    _labels = labels.WUERFELSPIEL


class Yahtzee(SheetVariant):
    id = "yahtzee"
    extra_bonus_rule = ExtraBonus.EACH
    joker_rule = Joker.FORCED
    _labels = labels.YAHTZEE


class Wuerfelpoker(Variant):
    """Push your luck with 6 dice: set scoring dice aside, bank or throw again."""

    id = "wuerfelpoker"
    aliases = ("zehntausend",)
    family = Family.PUSH
    dice_count = 6
    min_players = 2

    @property
    def default_options(self) -> dict:
        return {"target": 10_000, "finish_round": False}

    def check_options(self, options: object) -> dict:
        merged = super().check_options(options)
        target = merged["target"]
        if isinstance(target, bool) or not isinstance(target, int) or not 50 <= target <= 1_000_000:
            raise RuleError("The target must be a whole number of points from 50 to 1,000,000",
                            code="option_target")
        if not isinstance(merged["finish_round"], bool):
            raise RuleError("finish_round must be true or false", code="option_finish_round")
        return merged

    def label(self, box: Box | str, lang: str = "de") -> str:
        raise RuleError("Würfelpoker has no boxes", code="unknown_box", name=str(box))

    def entry_event(self, player: str, dice: Sequence[int], choice: Mapping[str, Any]) -> dict:
        """From a choice `{"keep": [...]}` (empty or left out: a bust) or `{"bank": true}`."""
        choice = _check_choice_keys(choice, {"keep", "bank"})
        if choice.get("bank") is True:
            if choice.get("keep"):
                raise RuleError('A bank is {"bank": true} and nothing else', code="event_shape")
            return {"player": player, "bank": True}
        event: dict[str, Any] = {"player": player, "throw": list(dice)}
        keep = choice.get("keep")
        if keep:
            event["keep"] = list(keep) if isinstance(keep, (list, tuple)) else keep
        return event

    def display(self, lang: str = "de", options: Mapping[str, Any] | None = None) -> Display:
        settings = self.check_options(dict(options) if options else None)
        goal = phrases.PUSH_GOAL_ROUND if settings["finish_round"] else phrases.PUSH_GOAL
        return self._display(
            lang,
            options=settings,
            turns_per_player=None,
            push=PushInfo(
                target=settings["target"], finish_round=settings["finish_round"],
                goal=goal[_lang(lang)].format(target=phrases.number(settings["target"], _lang(lang))),
                combinations=tuple(Combination(*c) for c in phrases.PUSH_COMBINATIONS[lang]),
            ),
        )


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
