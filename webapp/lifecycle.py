"""The life of a throw at the table, as plain functions over `ThrowRow`s (no database).

A throw is OPEN while it waits for an entry. Throwing again in the same turn makes
the open throw REROLLED (kept as evidence); a retake (a better photo of the same
throw) makes it VOID and takes its number; an entry makes it ENTERED; undoing that
entry opens it again and voids the throws made after it. `webapp.games` reads the
rows from the store, asks these functions, and writes back what they return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dicecam.webapp.errors import Conflict
from dicecam.webapp.rows import ENTERED, OPEN, REROLLED, VOID, Die, ThrowRow


def values_of(dice: Sequence[Die]) -> list[int]:
    return [d["value"] for d in dice]


def open_throw(turn: Sequence[ThrowRow]) -> ThrowRow | None:
    """The throw of the turn waiting for an entry, if any (`turn`: its live throws, in order)."""
    rows = [r for r in turn if r.status == OPEN]
    return rows[-1] if rows else None


def check_can_throw(
    turn: Sequence[ThrowRow], *, finished: bool, throws_per_turn: int | None, player: str | None, retake: bool
) -> None:
    """Refuse a throw the table does not allow now (Conflict, with the reason).

    `throws_per_turn` None: as many as the player dares, but one at a time (each must
    be entered, set aside, before the next).
    """
    if finished:
        raise Conflict("err_finished")
    if retake:
        if open_throw(turn) is None:
            raise Conflict("err_no_open_throw")
        return
    if throws_per_turn is None:
        if open_throw(turn) is not None:
            raise Conflict("err_pending_push")
    elif len(turn) >= throws_per_turn:
        raise Conflict("err_three_throws", player=player)


def next_number(
    turn: Sequence[ThrowRow], *, throws_per_turn: int | None, last_entered: ThrowRow | None, events: int, player: str
) -> int:
    """The number of the next throw within its turn (1, 2, 3, ...).

    On a sheet the turn's throws count; in a push game a turn runs over several
    entries (throw, set aside, throw, ...), so the next throw follows the last set-aside
    when that was this player's latest entry.
    """
    if throws_per_turn is not None:
        return len(turn) + 1
    if (
        last_entered is not None
        and last_entered.player == player
        and last_entered.entry_event == events - 1
        and (last_entered.entry or {}).get("keep")
    ):
        return last_entered.number + 1
    return 1


def rerolled(turn: Sequence[ThrowRow]) -> list[ThrowRow]:
    """The turn's open throw marked as thrown again (it stays as evidence)."""
    return [replace(r, status=REROLLED) for r in turn if r.status == OPEN]


def retaken(old: ThrowRow, *, by: str | None, at: str) -> ThrowRow:
    """The open throw replaced by a better photo of the same throw."""
    return replace(old, status=VOID, history=[*old.history, {"retaken": True, "at": at, "by": by}])


def apply_values(dice: Sequence[Die], values: Sequence[Die]) -> list[Die]:
    """Corrected dice laid over the read ones, keeping each die's box and confidence.

    A die sent with its box is matched to the read die with that box; one sent as a
    bare value takes the box of the die at the same position (so `[3, 5, 2, 6, 1, 4]`
    corrects five read dice and adds a sixth).
    """
    out = []
    for i, new in enumerate(values):
        if new["box"] is not None:
            old = next((d for d in dice if d["box"] == new["box"]), None)
        else:
            old = dice[i] if i < len(dice) else None
        if old is None:
            out.append(dict(new))
            continue
        # The model's confidence no longer applies once a player changed the value.
        conf = old["confidence"] if new["value"] == old["value"] else None
        out.append({"value": new["value"], "box": old["box"], "confidence": conf})
    return out


def corrected(row: ThrowRow, values: Sequence[Die], *, by: str | None, at: str) -> ThrowRow:
    """The throw with corrected dice, and who changed what; unchanged if nothing differs."""
    after = apply_values(row.dice, values)
    if values_of(after) == values_of(row.dice) and len(after) == len(row.dice):
        return row
    record = {"by": by, "at": at, "before": values_of(row.dice), "after": values_of(after)}
    return replace(row, dice=after, corrections=[*row.corrections, record])


def entered(row: ThrowRow, entry: dict, *, event: int) -> ThrowRow:
    """The throw that became the log's event number `event` (0-based)."""
    return replace(row, status=ENTERED, entry=entry, entry_event=event)


def undone(
    entered_row: ThrowRow | None, later: Sequence[ThrowRow], *, by: str | None, at: str
) -> list[ThrowRow]:
    """What undoing the last entry does to the throws.

    `entered_row` (the throw that made the entry, if it came from a throw) is open
    again; `later` (live throws of the turn after it) belong to a turn that no longer
    exists and become void.
    """
    out = [
        replace(r, status=VOID, history=[*r.history, {"voided_by_undo": True, "at": at, "by": by}])
        for r in later
    ]
    if entered_row is not None:
        out.append(
            replace(
                entered_row,
                status=OPEN,
                entry=None,
                entry_event=None,
                history=[*entered_row.history, {"undone": entered_row.entry, "at": at, "by": by}],
            )
        )
    return out
