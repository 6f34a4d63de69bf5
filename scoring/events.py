"""The events of a game log, parsed from and written back to their JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dicecam.scoring.boxes import BOXES, Box
from dicecam.scoring.errors import RuleError
from dicecam.scoring.players import normal_name


@dataclass(frozen=True, slots=True)
class Fill:
    """Kniffel family: the dice at the end of a turn and the box (and column) they go into."""

    player: str
    dice: tuple[int, ...]
    box: Box
    column: int | None = None

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"player": self.player, "dice": list(self.dice), "box": self.box.value}
        if self.column is not None:
            d["column"] = self.column
        return d


@dataclass(frozen=True, slots=True)
class Throw:
    """Würfelpoker: one throw and the dice set aside from it (`keep` None = bust)."""

    player: str
    throw: tuple[int, ...]
    keep: tuple[int, ...] | None = None

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"player": self.player, "throw": list(self.throw)}
        if self.keep is not None:
            d["keep"] = list(self.keep)
        return d


@dataclass(frozen=True, slots=True)
class Bank:
    """Würfelpoker: the player stops and adds the turn total to the score."""

    player: str

    def to_dict(self) -> dict:
        return {"player": self.player, "bank": True}


Event = Fill | Throw | Bank

_SHEET_KEYS = {"player", "dice", "box", "column"}
_PUSH_KEYS = {"player", "throw", "keep", "bank"}


def _check_keys(event: dict, allowed: set[str]) -> None:
    unknown = sorted(set(event) - allowed)
    if unknown:
        raise RuleError(
            f"Unknown field {unknown[0]!r} in the event; allowed are: {', '.join(sorted(allowed))}",
            code="event_field", field=unknown[0],
        )


def _player(event: dict) -> str:
    player = event.get("player")
    if not isinstance(player, str) or not player.strip():
        raise RuleError("The event must name its player", code="event_player")
    # Compared as the seating list was checked, so an exported log replays as it was.
    return normal_name(player)


def _ints(value: object, what: str) -> tuple:
    # Dice are checked in detail by the table, which knows how many there must be.
    if not isinstance(value, (list, tuple)):
        raise RuleError(f"The {what} must be a list of dice", code="dice_not_list")
    return tuple(value)


def parse_sheet_event(event: object) -> Fill:
    """A Kniffel-family event `{"player", "dice", "box", "column"?}`."""
    if not isinstance(event, dict):
        raise RuleError("An event must be an object with player, dice and box", code="event_shape")
    _check_keys(event, _SHEET_KEYS)
    player = _player(event)
    if "dice" not in event:
        raise RuleError("The event must give the dice", code="event_dice")
    dice = _ints(event["dice"], "dice")
    box = event.get("box")
    if box is None:
        raise RuleError("The event must name the box to fill", code="event_box")
    if not isinstance(box, str) or box not in {b.value for b in BOXES}:
        raise RuleError(
            f"Unknown box {box!r}; the boxes are: {', '.join(b.value for b in BOXES)}",
            code="unknown_box", name=str(box),
        )
    column = event.get("column")
    if column is not None and (isinstance(column, bool) or not isinstance(column, int)):
        raise RuleError("The column must be a number 1 to 3", code="column")
    return Fill(player, dice, Box(box), column)


def parse_push_event(event: object) -> Throw | Bank:
    """A Würfelpoker event: `{"player", "throw", "keep"?}` or `{"player", "bank": true}`."""
    if not isinstance(event, dict):
        raise RuleError("An event must be an object with player and throw or bank",
                        code="event_shape")
    _check_keys(event, _PUSH_KEYS)
    player = _player(event)
    if "bank" in event:
        if event["bank"] is not True or "throw" in event or "keep" in event:
            raise RuleError('A bank event is {"player": ..., "bank": true} and nothing else',
                            code="event_shape")
        return Bank(player)
    if "throw" not in event:
        raise RuleError("The event must give the throw, or bank", code="event_throw")
    throw = _ints(event["throw"], "throw")
    keep = event.get("keep")
    if keep is not None:
        keep = _ints(keep, "set-aside")
    return Throw(player, throw, keep)
