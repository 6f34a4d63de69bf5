"""A game: a variant, its players and options, and the ordered log of events.

Everything else (sheets, totals, whose turn it is, the winner) is derived by replaying
the log, so the log's JSON form is all a game file needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dicecam.scoring.errors import GameFileError, RuleError, ScoringError
from dicecam.scoring.events import Event
from dicecam.scoring.push_table import PushTable, TurnState
from dicecam.scoring.sheet import Sheet
from dicecam.scoring.sheet_table import SheetTable
from dicecam.scoring.variants import Choice, Variant, get_variant

MAX_NAME_LENGTH = 40
_FILE_KEYS = {"variant", "players", "options", "events"}


def _check_players(players: object, variant: Variant) -> tuple[str, ...]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise RuleError("The players must be a list of names", code="players")
    names = []
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise RuleError("Every player needs a name", code="player_name")
        name = p.strip()
        if len(name) > MAX_NAME_LENGTH:
            raise RuleError(f"Player names can have at most {MAX_NAME_LENGTH} characters",
                            code="player_name")
        if name.casefold() in (n.casefold() for n in names):
            raise RuleError(f"Two players are called {name!r}; give them different names",
                            code="player_duplicate", player=name)
        names.append(name)
    if len(names) < variant.min_players:
        need = variant.min_players
        raise RuleError(
            f"{variant.name('en')} needs at least {need} player{'s' if need > 1 else ''}",
            code="players_too_few", min_players=need,
        )
    return tuple(names)


@dataclass(frozen=True)
class Game:
    """An immutable game; `play` and `undo` return a new one and leave this one untouched."""

    variant: Variant
    players: tuple[str, ...]
    settings: Mapping[str, Any]
    events: tuple[Event, ...] = ()
    _table: SheetTable | PushTable = field(default=None, compare=False, repr=False)

    # -- making ----------------------------------------------------------------

    @classmethod
    def new(cls, variant: str | Variant, players: Sequence[str],
            options: Mapping[str, Any] | None = None) -> Game:
        """A game with no events yet; RuleError/UnknownVariant for bad players or options."""
        v = get_variant(variant)
        names = _check_players(players, v)
        settings = v.check_options(dict(options) if isinstance(options, Mapping) else options)
        return cls(v, names, MappingProxyType(settings), (), v.new_table(names, settings))

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
            raise GameFileError(str(e), code=e.code, **e.params) from None
        events = data.get("events", [])
        if not isinstance(events, list):
            raise GameFileError("The game file's events must be a list")
        for n, event in enumerate(events, 1):
            try:
                game = game.play(event)
            except RuleError as e:
                raise GameFileError(f"Event {n}: {e}", event_number=n, code=e.code,
                                    **e.params) from None
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
        parsed, table = self._table.play(event)
        return Game(self.variant, self.players, self.settings, self.events + (parsed,), table)

    def undo(self) -> Game:
        """The game without its last event."""
        if not self.events:
            raise RuleError("Nothing to undo", code="undo_empty")
        game = Game.new(self.variant, self.players, self.settings)
        for event in self.events[:-1]:
            game = game.play(event.to_dict())
        return game

    # -- reading ---------------------------------------------------------------

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
