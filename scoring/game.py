"""A game: a variant, its players and options, and the ordered log of events.

Everything else (sheets, totals, whose turn it is, the winner) is derived by replaying
the log, so the log's JSON form is all a game file needs. Playing an event costs the
same however long the log already is: the log is a chain that each new game extends,
never a tuple that is copied (a 100,000-event file loads in linear time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

import dicecam.scoring.phrases as phrases
from dicecam.scoring.display import Display
from dicecam.scoring.errors import GameFileError, RuleError, ScoringError
from dicecam.scoring.events import Event
from dicecam.scoring.players import MAX_NAME_LENGTH, MAX_PLAYERS
from dicecam.scoring.push_table import PushTable, TurnState
from dicecam.scoring.recaps import FillRecap, Recap
from dicecam.scoring.rules import Family
from dicecam.scoring.sheet import Sheet
from dicecam.scoring.sheet_table import SheetTable
from dicecam.scoring.variants import Choice, SheetVariant, Variant, get_variant

__all__ = ["MAX_NAME_LENGTH", "MAX_PLAYERS", "Game"]

_FILE_KEYS = {"variant", "players", "options", "events"}


@dataclass(frozen=True, slots=True, eq=False)
class _Logged:
    """One played event, what it did, and the entry before it."""

    event: Event
    recap: Recap
    before: _Logged | None
    count: int


def _start_table(variant: Variant, players: tuple[str, ...], options: dict) -> SheetTable | PushTable:
    if variant.family is Family.PUSH:
        return PushTable.start(variant, players, options)
    assert isinstance(variant, SheetVariant)
    return SheetTable.start(variant, players)


@dataclass(frozen=True, eq=False)
class Game:
    """An immutable game; `play` and `undo` return a new one and leave this one untouched.

    Two games are equal when they have the same variant, players, options and events.
    """

    variant: Variant
    players: tuple[str, ...]
    settings: Mapping[str, Any]
    _last: _Logged | None = field(default=None, repr=False)
    _table: SheetTable | PushTable = field(default=None, repr=False)  # type: ignore[assignment]

    # -- making ----------------------------------------------------------------

    @classmethod
    def new(cls, variant: str | Variant, players: Sequence[str],
            options: Mapping[str, Any] | None = None) -> Game:
        """A game with no events yet; RuleError/UnknownVariant for bad players or options."""
        v = get_variant(variant)
        names = v.check_players(players)
        settings = v.check_options(dict(options) if isinstance(options, Mapping) else options)
        return cls(v, names, MappingProxyType(settings), None, _start_table(v, names, settings))

    @classmethod
    def from_dict(cls, data: object) -> Game:
        """Replay a game file; GameFileError names the first event that is refused."""
        if not isinstance(data, dict):
            raise GameFileError("A game file must be a JSON object with variant, players, events")
        unknown = sorted(set(data) - _FILE_KEYS)
        if unknown:
            raise GameFileError(f"Unknown field {unknown[0]!r} in the game file")
        if "variant" not in data or "players" not in data:
            raise GameFileError("The game file must name the variant and the players")
        try:
            game = cls.new(data["variant"], data["players"], data.get("options"))
        except ScoringError as e:
            raise GameFileError.refusing(e) from None
        events = data.get("events", [])
        if not isinstance(events, list):
            raise GameFileError("The game file's events must be a list")
        for n, event in enumerate(events, 1):
            try:
                game = game.play(event)
            except RuleError as e:
                raise GameFileError.refusing(e, f"Event {n}: {e}", event_number=n) from None
        return game

    def to_dict(self) -> dict:
        """The game file: `{"variant", "players", "options", "events"}`."""
        return {
            "variant": self.variant.id,
            "players": list(self.players),
            "options": dict(self.settings),
            "events": [e.to_dict() for e in self.events],
        }

    # -- changing --------------------------------------------------------------

    def play(self, event: Mapping[str, Any]) -> Game:
        """The game after `event`; RuleError (and nothing changes) if the rules forbid it."""
        parsed, table, recap = self._table.play(event)
        count = self._last.count + 1 if self._last else 1
        return Game(self.variant, self.players, self.settings,
                    _Logged(parsed, recap, self._last, count), table)

    def enter(self, dice: Sequence[int], choice: Mapping[str, Any]) -> Game:
        """The current player's entry: `dice` with `choice` (see `Variant.entry_event`)."""
        return self.play(self.entry_event(dice, choice))

    def entry_event(self, dice: Sequence[int], choice: Mapping[str, Any]) -> dict:
        """The log event for the current player's entry of `dice` with `choice`.

        Kniffel family `{"box", "column"?}`; Würfelpoker `{"keep": [...]}` (empty: a bust)
        or `{"bank": true}`. RuleError once the game is over or for unknown fields; the
        rules themselves are checked by `play`.
        """
        if self.current_player is None:
            raise RuleError("The game is over; no more throws can be entered", code="game_over")
        return self.variant.entry_event(self.current_player, dice, choice)

    def undo(self) -> Game:
        """The game without its last event."""
        if self._last is None:
            raise RuleError("Nothing to undo", code="undo_empty")
        game = Game.new(self.variant, self.players, self.settings)
        for event in self.events[:-1]:
            game = game.play(event.to_dict())
        return game

    # -- reading ---------------------------------------------------------------

    @cached_property
    def _log(self) -> tuple[_Logged, ...]:
        entries = []
        node = self._last
        while node is not None:
            entries.append(node)
            node = node.before
        return tuple(reversed(entries))

    @property
    def events(self) -> tuple[Event, ...]:
        """The parsed events, oldest first (each has `to_dict()`)."""
        return tuple(e.event for e in self._log)

    @property
    def event_count(self) -> int:
        """How many events have been played (without walking the log)."""
        return self._last.count if self._last else 0

    @property
    def recaps(self) -> tuple[Recap, ...]:
        """What each event did, oldest first (see `dicecam.scoring.recaps`)."""
        return tuple(e.recap for e in self._log)

    def recap(self, index: int = -1) -> Recap:
        """What event `index` did (Python indexing: -1 is the last); IndexError if none."""
        if index == -1 and self._last is not None:
            return self._last.recap
        return self._log[index].recap

    def describe(self, index: int = -1, lang: str = "de") -> dict:
        """`recap(index).to_dict()` plus `text`, the line a page shows, e.g.
        "Anna: Full House ×3 · 25 (75)" (and `label`, the box's name, for a fill)."""
        recap = self.recap(index)
        out = recap.to_dict()
        extra = {}
        if isinstance(recap, FillRecap):
            assert isinstance(self.variant, SheetVariant)
            out["label"] = self.variant.label(recap.box, lang)
            extra = {"box_label": out["label"], "scratch_mark": self.variant.scratch_mark,
                     "extra_label": self.variant.extra_bonus_label(lang)}
        out["text"] = phrases.recap_text(recap, lang, **extra)
        return out

    def display(self, lang: str = "de") -> Display:
        """The variant's display facts with this game's options (`Variant.display`)."""
        return self.variant.display(lang, self.settings)

    @property
    def expected_dice(self) -> int:
        """How many dice the current throw must have (Würfelpoker: those still in play)."""
        ts = self.turn_state
        return ts.dice_left if ts is not None else self.variant.dice_count

    @property
    def current_player(self) -> str | None:
        """Whose turn it is; None once the game is over."""
        return self._table.current_player

    @property
    def turn(self) -> int:
        return self._table.turn

    @property
    def finished(self) -> bool:
        return self._table.finished

    @property
    def winner(self) -> str | list[str] | None:
        """The winner once the game is over; a list of names on a tie."""
        return self._table.winner

    @property
    def totals(self) -> dict[str, int]:
        return self._table.totals

    def sheet_of(self, player: str) -> Sheet:
        """The Kniffel-family sheet of `player`."""
        if not isinstance(self._table, SheetTable):
            raise RuleError(f"{self.variant.name('en')} has no box sheet", code="no_sheet")
        if player not in self.players:
            raise RuleError(f"No player named {player!r} in this game", code="unknown_player",
                            player=player)
        return self._table.sheet_of(player)

    @property
    def turn_state(self) -> TurnState | None:
        """Würfelpoker: the current player's turn so far; None in the Kniffel family."""
        return self._table.turn_state if isinstance(self._table, PushTable) else None

    def choices(self, dice: Sequence[int]) -> list[Choice]:
        """Kniffel family: the legal boxes for the current player's dice, best first."""
        if not isinstance(self._table, SheetTable):
            raise RuleError(f"{self.variant.name('en')} has no boxes to choose", code="no_sheet")
        return self._table.choices(dice)

    def options(self, dice: Sequence[int]) -> list[dict]:
        """What the current player may do with `dice`, best first (see docs/ARCHITECTURE.md)."""
        return self._table.options(dice)

    def state(self) -> dict:
        """Everything derived from the log, JSON-ready (see docs/ARCHITECTURE.md)."""
        return {
            "variant": self.variant.id,
            "players": list(self.players),
            "options": dict(self.settings),
            "current_player": self.current_player,
            "turn": self.turn,
            "finished": self.finished,
            "winner": self.winner,
            "totals": self.totals,
            **self._table.state(),
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.variant is other.variant and self.players == other.players
                and dict(self.settings) == dict(other.settings)
                and self.event_count == other.event_count and self.events == other.events)

    __hash__ = None  # type: ignore[assignment]  # a game's options are a mapping
