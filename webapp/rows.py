"""What the store keeps, as typed rows: a game and its throws (the evidence).

Rows are frozen: a change is a new row (`dataclasses.replace`) written back by the
store. JSON columns come back decoded (dice as lists of dicts, histories as lists),
so nothing outside the store parses stored text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

# A die as stored: {"value": 1-6, "box": [x1, y1, x2, y2] | None, "confidence": float | None}.
Die = dict[str, Any]

OPEN, REROLLED, ENTERED, VOID = "open", "rerolled", "entered", "void"
LIVE = (OPEN, REROLLED)  # throws of the turn still in play


@dataclass(frozen=True)
class Summary:
    """What the start page shows of a game, kept beside its log so listing never replays it."""

    players: tuple[str, ...]
    current_player: str | None
    totals: dict[str, int]
    finished: bool
    winner: str | list[str] | None
    events: int

    @classmethod
    def of_state(cls, state: dict, events: int) -> Summary:
        return cls(
            players=tuple(state["players"]),
            current_player=state["current_player"],
            totals=dict(state["totals"]),
            finished=bool(state["finished"]),
            winner=state["winner"],
            events=events,
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "players": list(self.players),
                "current_player": self.current_player,
                "totals": self.totals,
                "finished": self.finished,
                "winner": self.winner,
                "events": self.events,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Summary:
        data = json.loads(text)
        return cls(
            players=tuple(data["players"]),
            current_player=data["current_player"],
            totals=dict(data["totals"]),
            finished=bool(data["finished"]),
            winner=data["winner"],
            events=int(data["events"]),
        )


@dataclass(frozen=True)
class GameRow:
    """A stored game without its log (the log is fetched only when it is not cached)."""

    id: str
    variant: str
    version: int
    summary: Summary
    created: str
    updated: str

    @property
    def finished(self) -> bool:
        return self.summary.finished


@dataclass(frozen=True)
class ThrowRow:
    """One throw: what was photographed, what was read, who changed what, what it became."""

    id: str
    game_id: str
    seq: int                      # 1, 2, ... within the game
    base_event: int               # number of log events when it was thrown
    number: int                   # throw of the turn (1..3 on a sheet; 1.. in Würfelpoker)
    player: str
    source: str                   # "photo" or "manual"
    status: str = OPEN            # OPEN, REROLLED, ENTERED, VOID
    photo_sha256: str | None = None
    photo_type: str | None = None
    annotated_sha256: str | None = None
    width: int | None = None      # of the annotated photo; dice boxes are in it
    height: int | None = None
    dice_read: list[Die] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    corrections: list[dict] = field(default_factory=list)
    entry: dict | None = None
    entry_event: int | None = None
    history: list[dict] = field(default_factory=list)
    low_confidence: float | None = None
    read_ms: float | None = None
    created: str = ""
    created_by: str | None = None
    left_out: int | None = None   # dice seen beyond the count (None: a throw read before it was kept)
    left_out_dice: list[Die] | None = None  # those dice as read (None: a throw read before they were kept)

    # The columns held as JSON text in the database.
    JSON_COLUMNS = ("dice_read", "dice", "corrections", "entry", "history", "left_out_dice")

    def to_columns(self) -> dict[str, Any]:
        """Every column as the database stores it (JSON columns as text)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = json.dumps(value) if f.name in self.JSON_COLUMNS and value is not None else value
        return out

    @classmethod
    def from_columns(cls, columns: dict[str, Any]) -> ThrowRow:
        values = dict(columns)
        for name in cls.JSON_COLUMNS:
            if values.get(name) is not None:
                values[name] = json.loads(values[name])
        return cls(**values)
