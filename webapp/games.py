"""The table's use cases: start, import, throw, correct, enter, undo, delete a game.

A game is stored as its replay file; its state is always a `scoring.Game` rebuilt
from that log (or taken from the cache of the version it is at). Every change runs
in one store transaction that re-reads the game, checks, plays and writes it back
with a bumped `version` (compare-and-swap), so two phones acting on the same turn at
once are serialised: one wins, the other gets `Conflict`. Request parsing lives in
`webapp.parse`, the throw lifecycle in `webapp.lifecycle`, the SQL in the store.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from dicecam.scoring import Game, GameFileError, RuleError, ScoringError, get_variant
from dicecam.scoring.players import name_key
from dicecam.webapp import lifecycle
from dicecam.webapp.cache import GameCache
from dicecam.webapp.errors import (
    BadRequest,
    Conflict,
    NotFound,
    Unprocessable,
    game_file_error,
    rule_error,
)
from dicecam.webapp.lifecycle import values_of
from dicecam.webapp.photos import Photos
from dicecam.webapp.rows import Die, GameRow, Summary, ThrowRow
from dicecam.webapp.store import Store

__all__ = [
    "Entry", "Photo", "Stored", "add_throw", "check_can_throw", "correct_throw",
    "create", "delete", "enter", "expected_dice", "get_throw", "import_log", "list_games", "load",
    "open_throw", "options_for", "prune", "throws_of_turn", "undo", "values_of",
]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_id(nbytes: int = 16) -> str:
    """An unguessable id (URL-safe): a game's id is the key to it."""
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
    def events(self) -> tuple:
        """The parsed events (walks the log: use `event_count` for how many)."""
        return self.game.events

    @property
    def event_count(self) -> int:
        return self.game.event_count

    @property
    def variant(self):
        return self.game.variant


@dataclass(frozen=True)
class Photo:
    """A photo's evidence for a throw: the bytes kept, the annotated copy and the reading."""

    data: bytes
    mime: str
    annotated: bytes
    width: int
    height: int
    low_confidence: float
    read_ms: float
    # Dice seen beyond the throw's count, as read (drawn grey on the annotated copy): a player
    # may take one the count passed over.
    left_out_dice: tuple[Die, ...] = ()


@dataclass(frozen=True)
class Entry:
    """What a player enters for the open throw (parsed from the request by `webapp.parse`)."""

    throw_id: str | None = None
    box: str | None = None
    column: int | None = None
    keep: tuple[int, ...] = ()
    bank: bool = False
    dice: tuple[Die, ...] | None = None  # corrected dice sent with the entry
    player: str | None = None             # whose entry the phone thinks it is
    version: int | None = None


# ---------------------------------------------------------------- reading


def _summary(game: Game) -> Summary:
    return Summary.of_state(game.state(), game.event_count)


def load(store: Store, game_id: str, cache: GameCache | None = None, *, lock: bool = False) -> Stored:
    """The stored game, replayed only when the cache does not hold its version."""
    for _ in range(3):
        row = store.game(game_id, lock=lock)
        if row is None:
            raise NotFound("err_not_found")
        game = cache.get(row.id, row.version) if cache is not None else None
        if game is None:
            log = store.game_log(row.id, row.version)
            if log is None:
                continue  # written between the two reads: read again
            try:
                game = Game.from_dict(json.loads(log))
            except (GameFileError, ValueError) as exc:  # edited by hand, or kept by a release with other rules
                raise Conflict("err_game_damaged", detail=str(exc)) from exc
            if cache is not None:
                cache.put(row.id, row.version, game)
        return Stored(row.id, game, row.version, row.created, row.updated)
    raise Conflict("err_conflict")


def summary_json(row: GameRow) -> dict:
    """A game as the start page and `GET /api/games` list it."""
    s = row.summary
    return {
        "id": row.id,
        "variant": row.variant,
        "players": list(s.players),
        "current_player": s.current_player,
        "finished": s.finished,
        "winner": s.winner,
        "totals": s.totals,
        "created": row.created,
        "updated": row.updated,
    }


def list_games(store: Store, ids: Collection[str] | None = None) -> list[dict]:
    """Games (all, or those of `ids`), most recently played first; nothing is replayed."""
    return [summary_json(row) for row in store.games(ids)]


def expected_dice(stored: Stored, state: dict | None = None) -> int:
    """How many dice the current throw must have (`state` is not needed any more)."""
    return stored.game.expected_dice


def throws_of_turn(store: Store, stored: Stored) -> list[ThrowRow]:
    """The live throws since the last entry, oldest first."""
    return store.throws(stored.id, base_event=stored.event_count, live=True)


def open_throw(store: Store, stored: Stored) -> ThrowRow | None:
    """The throw waiting for an entry, if any."""
    return lifecycle.open_throw(throws_of_turn(store, stored))


def get_throw(store: Store, game_id: str, throw_id: str) -> ThrowRow:
    row = store.throw(game_id, throw_id)
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


def _write(store: Store, stored: Stored, game: Game | None = None, cache: GameCache | None = None) -> Stored:
    """Store `game` (or just bump the version) with a compare-and-swap on `version`."""
    game = game or stored.game
    stamp = now()
    if not store.update_game(
        stored.id, version=stored.version, log=json.dumps(game.to_dict()), summary=_summary(game), updated=stamp
    ):
        raise Conflict("err_conflict")
    after = Stored(stored.id, game, stored.version + 1, stored.created, stamp)
    if cache is not None:
        cache.put(after.id, after.version, game)
    return after


def _check_version(stored: Stored, version: int | None) -> None:
    if version is not None and version != stored.version:
        raise Conflict("err_conflict")


def _insert(store: Store, game: Game, cache: GameCache | None) -> Stored:
    stamp = now()
    row = GameRow(new_id(), game.variant.id, 1, _summary(game), stamp, stamp)
    with store.transaction():
        store.add_game(row, json.dumps(game.to_dict()))
    if cache is not None:
        cache.put(row.id, 1, game)
    return Stored(row.id, game, 1, stamp, stamp)


def create(
    store: Store, variant_name: str, players: Sequence[str], options: dict | None, cache: GameCache | None = None
) -> Stored:
    """A new game; `players` come checked from the edge and are checked again by scoring."""
    try:
        variant = get_variant(variant_name)
    except ScoringError as exc:
        raise rule_error(exc) from exc
    try:
        game = Game.new(variant.id, list(players), options or None)
    except ScoringError as exc:
        raise rule_error(exc, variant) from exc
    return _insert(store, game, cache)


def import_log(store: Store, data: dict, cache: GameCache | None = None) -> Stored:
    """A new game from a replay file (the export of this or another table)."""
    try:
        game = Game.from_dict(data)
    except GameFileError as exc:
        try:
            name = data.get("variant")
            variant = get_variant(name) if isinstance(name, str) else None
        except (ScoringError, TypeError):
            variant = None
        raise game_file_error(exc, variant) from exc
    return _insert(store, game, cache)


def check_can_throw(store: Store, stored: Stored, *, retake: bool = False) -> None:
    """Refuse a throw before any work is done on the photo (checked again when stored)."""
    lifecycle.check_can_throw(
        throws_of_turn(store, stored),
        finished=stored.game.finished,
        throws_per_turn=stored.variant.throws_per_turn,
        player=stored.game.current_player,
        retake=retake,
    )


def _keep_photo(photos: Photos, photo: Photo, created: list[str]) -> dict[str, Any]:
    """Store the photo and its annotated copy; `created` collects the files that are new."""
    columns: dict[str, Any] = {"photo_type": photo.mime, "width": photo.width, "height": photo.height,
                               "low_confidence": photo.low_confidence, "read_ms": round(photo.read_ms, 1),
                               "left_out": len(photo.left_out_dice), "left_out_dice": list(photo.left_out_dice)}
    for column, data in (("photo_sha256", photo.data), ("annotated_sha256", photo.annotated)):
        sha, new = photos.add(data)
        if new:
            created.append(sha)
        columns[column] = sha
    return columns


def add_throw(
    store: Store,
    game_id: str,
    *,
    dice: list[Die],
    by: str | None = None,
    version: int | None = None,
    retake: bool = False,
    photo: Photo | None = None,
    photos: Photos | None = None,
    cache: GameCache | None = None,
) -> tuple[Stored, ThrowRow]:
    """Record a throw (from a photo or typed in) as the current throw of the turn.

    With `retake`, the open throw is discarded and the new one takes its place (a
    better photo of the same throw). The photo is written to the photo folder only
    once the throw is accepted, inside the same transaction: a refused throw leaves
    no file behind.
    """
    created: list[str] = []
    try:
        with store.transaction():
            stored = load(store, game_id, cache, lock=True)
            _check_version(stored, version)
            check_can_throw(store, stored, retake=retake)
            player = stored.game.current_player
            assert player is not None  # a game that is not finished has a current player
            stamp = now()
            turn = throws_of_turn(store, stored)
            if retake:
                old = lifecycle.open_throw(turn)
                assert old is not None  # check_can_throw refused a retake without one
                store.save_throw(lifecycle.retaken(old, by=by, at=stamp))
                number = old.number
            else:
                number = lifecycle.next_number(
                    turn,
                    throws_per_turn=stored.variant.throws_per_turn,
                    last_entered=store.last_entered(stored.id),
                    events=stored.event_count,
                    player=player,
                )
                for row in lifecycle.rerolled(turn):
                    store.save_throw(row)
            evidence = _keep_photo(photos, photo, created) if photo is not None and photos is not None else {}
            row = ThrowRow(
                id=new_id(12),
                game_id=stored.id,
                seq=store.next_seq(stored.id),
                base_event=stored.event_count,
                number=number,
                player=player,
                source="photo" if evidence else "manual",
                dice_read=list(dice),
                dice=list(dice),
                created=stamp,
                created_by=by,
                **evidence,
            )
            store.add_throw(row)
            after = _write(store, stored, cache=cache)
    except BaseException:
        if photos is not None:
            photos.discard(created)
        raise
    return after, row


def _current_open(store: Store, stored: Stored, throw_id: str) -> ThrowRow:
    row = get_throw(store, stored.id, throw_id)
    current = open_throw(store, stored)
    if current is None or current.id != row.id:
        raise Conflict("err_stale_throw")
    return row


def correct_throw(
    store: Store,
    game_id: str,
    throw_id: str,
    values: list[Die],
    *,
    by: str | None = None,
    version: int | None = None,
    cache: GameCache | None = None,
) -> tuple[Stored, ThrowRow]:
    """Change the dice of the open throw (a misread die, a missed or extra die)."""
    with store.transaction():
        stored = load(store, game_id, cache, lock=True)
        _check_version(stored, version)
        row = _current_open(store, stored, throw_id)
        fixed = lifecycle.corrected(row, values, by=by, at=now())
        if fixed is not row:
            store.save_throw(fixed)
        return _write(store, stored, cache=cache), fixed


def _play(stored: Stored, event: dict) -> Game:
    try:
        return stored.game.play(event)
    except RuleError as exc:
        raise rule_error(exc, stored.variant) from exc


def _choice(entry: Entry, family: str) -> dict[str, Any]:
    """The player's choice as the variant takes it (`Variant.entry_event`); on a sheet an
    entry without a box is one that names no box (not a set-aside nobody sent)."""
    if entry.bank:
        return {"bank": True}
    if entry.box is not None or entry.column is not None or (family == "sheet" and not entry.keep):
        return {"box": entry.box, "column": entry.column}
    return {"keep": list(entry.keep)}


def _record(recap: Any) -> dict[str, Any]:
    """What the throw's evidence keeps of its entry: the box (and column) or the set-aside, and the points."""
    data = recap.to_dict()
    if data["kind"] == "fill":
        return {"box": data["box"], "column": data["column"], "points": data["points"]}
    if data["kind"] == "keep":
        return {"keep": data["keep"], "points": data["points"]}
    return {"bust": True, "points": 0}


def enter(
    store: Store, game_id: str, entry: Entry, *, by: str | None = None, cache: GameCache | None = None
) -> Stored:
    """Make an entry: fill a box, set dice aside, bank, or accept a bust.

    What the entry means is the variant's to say (`Variant.entry_event`); the throw
    keeps what it became and its points (from scoring's recap of the event).
    """
    with store.transaction():
        stored = load(store, game_id, cache, lock=True)
        _check_version(stored, entry.version)
        game = stored.game
        if game.finished:
            raise Conflict("err_finished")
        player = game.current_player
        assert player is not None
        # A name is one player's however it is cased or joined: "anna" claims Anna's turn.
        if entry.player is not None and name_key(entry.player) != name_key(player):
            raise Conflict("err_not_your_turn", claimed=entry.player, player=player)
        choice = _choice(entry, stored.variant.family)
        try:
            if entry.bank:
                return _write(store, stored, _play(stored, stored.variant.entry_event(player, [], choice)), cache)
            if entry.throw_id is None:
                raise BadRequest("err_field", field="throw_id")
            row = _current_open(store, stored, entry.throw_id)
            stamp = now()
            if entry.dice is not None:
                row = lifecycle.corrected(row, list(entry.dice), by=by, at=stamp)
            values = values_of(row.dice)
            need = game.expected_dice
            if len(values) != need:
                raise Unprocessable("err_dice_count", n=need, got=len(values))
            played = _play(stored, stored.variant.entry_event(player, values, choice))
        except RuleError as exc:
            raise rule_error(exc, stored.variant) from exc
        record = {**_record(played.recap(-1)), "by": by, "at": stamp}
        store.save_throw(lifecycle.entered(row, record, event=stored.event_count))
        return _write(store, stored, played, cache)


def undo(
    store: Store,
    game_id: str,
    *,
    by: str | None = None,
    version: int | None = None,
    cache: GameCache | None = None,
) -> Stored:
    """Take back the last entry; its throw becomes the open throw again."""
    with store.transaction():
        stored = load(store, game_id, cache, lock=True)
        _check_version(stored, version)
        if not stored.event_count:
            raise Conflict("err_nothing_to_undo")
        game = stored.game.undo()
        n = game.event_count
        later = [r for r in store.throws(stored.id, live=True) if r.base_event > n]
        last = store.last_entered(stored.id)
        reopened = last if last is not None and last.entry_event == n else None
        for row in lifecycle.undone(reopened, later, by=by, at=now()):
            store.save_throw(row)
        return _write(store, stored, game, cache)


def delete(store: Store, game_id: str, photos: Photos | None = None, cache: GameCache | None = None) -> None:
    """Delete a finished game, its throws and the photos no other game's throw shows."""
    with store.transaction():
        row = store.game(game_id, lock=True)
        if row is None:
            raise NotFound("err_not_found")
        if not row.finished:
            raise Conflict("err_not_finished")
        orphans = store.delete_game(game_id)
    if cache is not None:
        cache.drop(game_id)
    if photos is not None:
        photos.discard(orphans)


def old_finished(store: Store, *, older_than_days: float) -> list[GameRow]:
    """The finished games whose last change is older than `older_than_days` days."""
    cutoff = (datetime.now(UTC) - timedelta(days=older_than_days)).isoformat(timespec="seconds")
    ids = store.finished_before(cutoff)
    return store.games(ids) if ids else []


def prune(store: Store, *, older_than_days: float, photos: Photos | None = None) -> list[str]:
    """Delete the finished games nobody has touched for `older_than_days`; returns their ids."""
    gone = []
    for row in old_finished(store, older_than_days=older_than_days):
        try:
            delete(store, row.id, photos)
        except (NotFound, Conflict):
            continue  # undone or deleted meanwhile
        gone.append(row.id)
    return gone
