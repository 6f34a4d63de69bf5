"""Games and throws in the database: the rules of the table around `scoring.Game`.

A game is stored as its replay file; its state is always `Game.from_dict(log)`.
Every change runs in one `BEGIN IMMEDIATE` transaction that re-reads the game,
checks, plays and writes it back with a bumped `version`, so two phones acting on
the same turn at once are serialised: one wins, the other gets `Conflict`.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from dicecam.scoring import Game, GameFileError, RuleError, ScoringError, get_variant

from dicecam.webapp.db import transaction
from dicecam.webapp.errors import BadRequest, Conflict, NotFound, Unprocessable

MAX_NAME = 40
MAX_PLAYERS = 12
SHEET_THROWS = 3


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_id(nbytes: int = 16) -> str:
    """An unguessable id (URL-safe)."""
    return secrets.token_urlsafe(nbytes)


@dataclass(frozen=True)
class Stored:
    """A game as stored: its id, the rules object and the row's bookkeeping."""

    id: str
    game: Game
    version: int
    created: str
    updated: str

    @property
    def events(self) -> list[dict]:
        return self.game.to_dict()["events"]

    @property
    def variant(self):
        return get_variant(self.game.to_dict()["variant"])


# ---------------------------------------------------------------- dice


def parse_dice(raw: Any, *, max_count: int = 6) -> list[dict]:
    """Client dice (`[3, 5]` or `[{"value": 3, "box": [...]}, ...]`) -> stored dice."""
    if not isinstance(raw, list):
        raise BadRequest("err_dice")
    if len(raw) > max_count:
        raise Unprocessable("err_too_many_dice", n=max_count)
    dice = []
    for item in raw:
        value = item.get("value") if isinstance(item, dict) else item
        # bool is an int in Python; `true` is not a die.
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise Unprocessable("err_dice")
        box = item.get("box") if isinstance(item, dict) else None
        if box is not None and not (
            isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box)
        ):
            raise BadRequest("err_field", field="box")
        dice.append({"value": value, "box": box, "confidence": None})
    return dice


def apply_values(dice: list[dict], values: list[dict]) -> list[dict]:
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
            out.append(new)
            continue
        # The model's confidence no longer applies once a player changed the value.
        conf = old["confidence"] if new["value"] == old["value"] else None
        out.append({"value": new["value"], "box": old["box"], "confidence": conf})
    return out


def values_of(dice: list[dict]) -> list[int]:
    return [d["value"] for d in dice]


# ---------------------------------------------------------------- reading


def _row_to_stored(row: sqlite3.Row) -> Stored:
    try:
        game = Game.from_dict(json.loads(row["log"]))
    except (GameFileError, ValueError) as exc:  # pragma: no cover - only if the file was edited by hand
        raise Conflict("err_generic", detail=f"stored game is damaged: {exc}") from exc
    return Stored(row["id"], game, row["version"], row["created"], row["updated"])


def load(db: sqlite3.Connection, game_id: str) -> Stored:
    row = db.execute("SELECT * FROM game WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise NotFound("err_not_found")
    return _row_to_stored(row)


def list_games(db: sqlite3.Connection) -> list[dict]:
    """All games, most recently played first, for the start page."""
    rows = db.execute("SELECT * FROM game ORDER BY updated DESC, created DESC").fetchall()
    out = []
    for row in rows:
        stored = _row_to_stored(row)
        state = stored.game.state()
        out.append(
            {
                "id": row["id"],
                "variant": state["variant"],
                "players": state["players"],
                "current_player": state["current_player"],
                "finished": state["finished"],
                "winner": state["winner"],
                "totals": state["totals"],
                "created": row["created"],
                "updated": row["updated"],
            }
        )
    return out


def expected_dice(stored: Stored, state: dict | None = None) -> int:
    """How many dice the current throw must have."""
    variant = stored.variant
    if variant.family == "push":
        state = state or stored.game.state()
        return int(state.get("turn_state", {}).get("dice_left") or variant.dice_count)
    return int(variant.dice_count)


def throws_of_turn(db: sqlite3.Connection, stored: Stored) -> list[sqlite3.Row]:
    """The live throws since the last entry, oldest first."""
    return db.execute(
        "SELECT * FROM throw WHERE game_id = ? AND base_event = ? AND status IN ('open', 'rerolled')"
        " ORDER BY seq",
        (stored.id, len(stored.events)),
    ).fetchall()


def open_throw(db: sqlite3.Connection, stored: Stored) -> sqlite3.Row | None:
    """The throw waiting for an entry, if any."""
    rows = [r for r in throws_of_turn(db, stored) if r["status"] == "open"]
    return rows[-1] if rows else None


def get_throw(db: sqlite3.Connection, game_id: str, throw_id: str) -> sqlite3.Row:
    row = db.execute(
        "SELECT * FROM throw WHERE game_id = ? AND id = ?", (game_id, throw_id)
    ).fetchone()
    if row is None:
        raise NotFound("err_throw_not_found")
    return row


def options_for(stored: Stored, values: list[int]) -> list[dict]:
    """Legal entries for these dice, best first; empty if the dice count is wrong."""
    if len(values) != expected_dice(stored):
        return []
    try:
        return stored.game.options(values)  # already best first
    except RuleError:
        return []


# ---------------------------------------------------------------- writing


def _write(db: sqlite3.Connection, stored: Stored, game: Game | None = None) -> Stored:
    """Store `game` (or just bump the version) with a compare-and-swap on `version`."""
    game = game or stored.game
    state = game.state()
    stamp = now()
    cur = db.execute(
        "UPDATE game SET log = ?, version = version + 1, finished = ?, updated = ?"
        " WHERE id = ? AND version = ?",
        (json.dumps(game.to_dict()), int(bool(state["finished"])), stamp, stored.id, stored.version),
    )
    if cur.rowcount != 1:
        raise Conflict("err_conflict")
    return Stored(stored.id, game, stored.version + 1, stored.created, stamp)


def _check_version(stored: Stored, version: int | None) -> None:
    if version is not None and version != stored.version:
        raise Conflict("err_conflict")


def _insert_game(db: sqlite3.Connection, game: Game) -> Stored:
    game_id = new_id()
    stamp = now()
    data = game.to_dict()
    db.execute(
        "INSERT INTO game (id, variant, players, log, version, finished, created, updated)"
        " VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
        (
            game_id,
            data["variant"],
            json.dumps(game.state()["players"]),
            json.dumps(data),
            int(bool(game.state()["finished"])),
            stamp,
            stamp,
        ),
    )
    return Stored(game_id, game, 1, stamp, stamp)


def clean_players(raw: Any, min_players: int) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise BadRequest("err_field", field="players")
    names = [" ".join(p.split()) for p in raw]
    names = [n for n in names if n]
    if any(len(n) > MAX_NAME for n in names):
        raise Unprocessable("err_name")
    unique = {n.casefold() for n in names}
    if len(names) < max(1, min_players) or len(unique) != len(names) or len(names) > MAX_PLAYERS:
        raise Unprocessable("err_players", n=max(1, min_players))
    return names


def create(db: sqlite3.Connection, variant_name: Any, players: Any, options: Any) -> Stored:
    if not isinstance(variant_name, str):
        raise BadRequest("err_field", field="variant")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadRequest("err_field", field="options")
    try:
        variant = get_variant(variant_name)
    except ScoringError as exc:
        raise rule_error(exc) from exc
    names = clean_players(players, variant.min_players)
    try:
        game = Game.new(variant.id, names, options or None)
    except ScoringError as exc:
        raise rule_error(exc, variant) from exc
    with transaction(db):
        return _insert_game(db, game)


def import_log(db: sqlite3.Connection, data: Any) -> Stored:
    """A new game from a replay file (the export of this or another table)."""
    if not isinstance(data, dict):
        raise BadRequest("err_field", field="events")
    try:
        game = Game.from_dict(data)
    except GameFileError as exc:
        # The message names the refused event; keep it whole.
        raise Unprocessable("err_game_file", detail=str(exc), reason=str(exc)) from exc
    with transaction(db):
        return _insert_game(db, game)


def _next_number(db: sqlite3.Connection, stored: Stored, player: str) -> int:
    """Throw number within the turn (1, 2, 3 ... ) for the next throw."""
    if stored.variant.family != "push":
        return len(throws_of_turn(db, stored)) + 1
    # Wuerfelpoker: a turn is throw, set aside, throw, ... until bank or bust.
    prev = db.execute(
        "SELECT * FROM throw WHERE game_id = ? AND status = 'entered' ORDER BY seq DESC LIMIT 1",
        (stored.id,),
    ).fetchone()
    if (
        prev is not None
        and prev["player"] == player
        and prev["entry_event"] == len(stored.events) - 1
        and json.loads(prev["entry"]).get("keep")
    ):
        return prev["number"] + 1
    return 1


def check_can_throw(db: sqlite3.Connection, stored: Stored, *, retake: bool = False) -> None:
    """Refuse a throw before any work is done on the photo (re-checked when stored)."""
    state = stored.game.state()
    if state["finished"]:
        raise Conflict("err_finished")
    if retake:
        if open_throw(db, stored) is None:
            raise Conflict("err_no_open_throw")
        return
    if stored.variant.family == "push":
        if open_throw(db, stored) is not None:
            raise Conflict("err_pending_push")
    elif len(throws_of_turn(db, stored)) >= SHEET_THROWS:
        raise Conflict("err_three_throws", player=state["current_player"])


def add_throw(
    db: sqlite3.Connection,
    game_id: str,
    *,
    dice: list[dict],
    by: str | None = None,
    version: int | None = None,
    retake: bool = False,
    photo: dict | None = None,
) -> tuple[Stored, str]:
    """Record a throw (from a photo or typed in) as the current throw of the turn.

    `photo` holds the evidence columns (photo_sha256, photo_type, annotated_sha256,
    width, height, low_confidence, read_ms). With `retake`, the open throw is discarded and the new
    one takes its place (a better photo of the same throw).
    """
    with transaction(db):
        stored = load(db, game_id)
        _check_version(stored, version)
        check_can_throw(db, stored, retake=retake)
        player = stored.game.state()["current_player"]
        stamp = now()
        if retake:
            old = open_throw(db, stored)
            history = json.loads(old["history"]) + [{"retaken": True, "at": stamp, "by": by}]
            db.execute(
                "UPDATE throw SET status = 'void', history = ? WHERE id = ?",
                (json.dumps(history), old["id"]),
            )
            number = old["number"]
        else:
            number = _next_number(db, stored, player)
            # The earlier throw of this turn was thrown again; keep it as evidence.
            db.execute(
                "UPDATE throw SET status = 'rerolled' WHERE game_id = ? AND base_event = ?"
                " AND status = 'open'",
                (stored.id, len(stored.events)),
            )
        seq = db.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM throw WHERE game_id = ?", (stored.id,)
        ).fetchone()[0]
        throw_id = new_id(12)
        photo = photo or {}
        db.execute(
            "INSERT INTO throw (id, game_id, seq, base_event, number, player, source, status,"
            " photo_sha256, photo_type, annotated_sha256, width, height, dice_read, dice,"
            " low_confidence, read_ms, created, created_by)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                throw_id,
                stored.id,
                seq,
                len(stored.events),
                number,
                player,
                "photo" if photo.get("photo_sha256") else "manual",
                photo.get("photo_sha256"),
                photo.get("photo_type"),
                photo.get("annotated_sha256"),
                photo.get("width"),
                photo.get("height"),
                json.dumps(dice),
                json.dumps(dice),
                photo.get("low_confidence"),
                photo.get("read_ms"),
                stamp,
                by,
            ),
        )
        return _write(db, stored), throw_id


def _current_open(db: sqlite3.Connection, stored: Stored, throw_id: str) -> sqlite3.Row:
    row = get_throw(db, stored.id, throw_id)
    current = open_throw(db, stored)
    if current is None or current["id"] != row["id"]:
        raise Conflict("err_stale_throw")
    return row


def _correct(db: sqlite3.Connection, row: sqlite3.Row, values: list[dict], by: str | None) -> list[dict]:
    """Lay corrected values over the throw's dice and record who changed what."""
    before = json.loads(row["dice"])
    after = apply_values(before, values)
    if values_of(after) != values_of(before) or len(after) != len(before):
        corrections = json.loads(row["corrections"]) + [
            {"by": by, "at": now(), "before": values_of(before), "after": values_of(after)}
        ]
        db.execute(
            "UPDATE throw SET dice = ?, corrections = ? WHERE id = ?",
            (json.dumps(after), json.dumps(corrections), row["id"]),
        )
    return after


def correct_throw(
    db: sqlite3.Connection,
    game_id: str,
    throw_id: str,
    values: list[dict],
    *,
    by: str | None = None,
    version: int | None = None,
) -> Stored:
    """Change the dice of the open throw (a misread die, a missed or extra die)."""
    with transaction(db):
        stored = load(db, game_id)
        _check_version(stored, version)
        row = _current_open(db, stored, throw_id)
        _correct(db, row, values, by)
        return _write(db, stored)


def enter(
    db: sqlite3.Connection,
    game_id: str,
    body: dict,
    *,
    by: str | None = None,
) -> Stored:
    """Make an entry: fill a box, set dice aside, bank, or accept a bust."""
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise BadRequest("err_field", field="version")
    with transaction(db):
        stored = load(db, game_id)
        _check_version(stored, version)
        state = stored.game.state()
        if state["finished"]:
            raise Conflict("err_finished")
        player = state["current_player"]
        claimed = body.get("player")
        if claimed is not None and claimed != player:
            raise Conflict("err_not_your_turn", claimed=claimed, player=player)
        family = stored.variant.family

        if family == "push" and body.get("bank") is True:
            game = _play(stored, {"player": player, "bank": True})
            return _write(db, stored, game)

        throw_id = body.get("throw_id")
        if not isinstance(throw_id, str):
            raise BadRequest("err_field", field="throw_id")
        row = _current_open(db, stored, throw_id)
        dice = json.loads(row["dice"])
        if "dice" in body:
            dice = _correct(db, row, parse_dice(body["dice"]), by)
        values = values_of(dice)
        need = expected_dice(stored, state)
        if len(values) != need:
            raise Unprocessable("err_dice_count", n=need, got=len(values))

        if family == "push":
            keep = body.get("keep") or []
            if not isinstance(keep, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in keep):
                raise BadRequest("err_field", field="keep")
            event: dict = {"player": player, "throw": values}
            if keep:
                event["keep"] = keep
            points = next(
                (o["points"] for o in options_for(stored, values) if sorted(o["keep"]) == sorted(keep)),
                0,
            )
            entry = {"keep": keep, "points": points} if keep else {"bust": True, "points": 0}
        else:
            box = body.get("box")
            column = body.get("column")
            if not isinstance(box, str):
                raise BadRequest("err_field", field="box")
            if column is not None and (isinstance(column, bool) or not isinstance(column, int)):
                raise BadRequest("err_field", field="column")
            event = {"player": player, "dice": values, "box": box}
            if column is not None:
                event["column"] = column
            points = next(
                (
                    o["points"]
                    for o in options_for(stored, values)
                    if o["box"] == box and o.get("column") == column
                ),
                0,
            )
            entry = {"box": box, "column": column, "points": points}

        game = _play(stored, event)
        entry.update(by=by, at=now())
        db.execute(
            "UPDATE throw SET status = 'entered', entry = ?, entry_event = ? WHERE id = ?",
            (json.dumps(entry), len(stored.events), row["id"]),
        )
        return _write(db, stored, game)


def rule_error(exc: ScoringError, variant=None) -> Unprocessable | Conflict:
    """A scoring error as a web error, translatable by its code."""
    values = dict(exc.params)
    if variant is not None and isinstance(values.get("box"), str):
        try:
            values["box_de"] = variant.label(values["box"], "de")
            values["box_en"] = variant.label(values["box"], "en")
        except RuleError:
            pass
    cls = Conflict if exc.code in ("not_your_turn", "game_over", "undo_empty") else Unprocessable
    return cls(f"rule_{exc.code}", detail=str(exc), **values)


def _play(stored: Stored, event: dict) -> Game:
    try:
        return stored.game.play(event)
    except RuleError as exc:
        raise rule_error(exc, stored.variant) from exc


def undo(
    db: sqlite3.Connection, game_id: str, *, by: str | None = None, version: int | None = None
) -> Stored:
    """Take back the last entry; its throw becomes the open throw again."""
    with transaction(db):
        stored = load(db, game_id)
        _check_version(stored, version)
        if not stored.events:
            raise Conflict("err_nothing_to_undo")
        game = stored.game.undo()
        n = len(game.to_dict()["events"])
        stamp = now()
        # Throws made after the undone entry belong to a turn that no longer exists.
        for row in db.execute(
            "SELECT * FROM throw WHERE game_id = ? AND base_event > ? AND status IN ('open', 'rerolled')",
            (stored.id, n),
        ).fetchall():
            history = json.loads(row["history"]) + [{"voided_by_undo": True, "at": stamp, "by": by}]
            db.execute(
                "UPDATE throw SET status = 'void', history = ? WHERE id = ?",
                (json.dumps(history), row["id"]),
            )
        row = db.execute(
            "SELECT * FROM throw WHERE game_id = ? AND entry_event = ? AND status = 'entered'",
            (stored.id, n),
        ).fetchone()
        if row is not None:
            history = json.loads(row["history"]) + [
                {"undone": json.loads(row["entry"]), "at": stamp, "by": by}
            ]
            db.execute(
                "UPDATE throw SET status = 'open', entry = NULL, entry_event = NULL, history = ?"
                " WHERE id = ?",
                (json.dumps(history), row["id"]),
            )
        return _write(db, stored, game)
