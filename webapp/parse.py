"""The HTTP edge: every value a client sends is checked here before anything else sees it.

Bodies are JSON objects sent as `application/json` (no NaN or Infinity, bounded in
size and depth); texts pass scoring's name check (`scoring.players.check_name`: valid
Unicode, NFC, no control or bidi-override characters, trimmed, 1-40 characters);
numbers are whole numbers where whole numbers are meant. What is wrong is answered
with the field's name, in the phone's language (`webapp.error_texts`).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import request

from dicecam.scoring import RuleError
from dicecam.scoring.players import MAX_NAME_LENGTH, MAX_PLAYERS, check_name
from dicecam.webapp.errors import BadRequest, TooLarge, Unprocessable, UnsupportedType
from dicecam.webapp.games import Entry
from dicecam.webapp.rows import Die

MAX_DICE = 6
MAX_JSON_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32
# A replay file: 20,000 events is more than any game at a table (a 12-player
# Würfelpoker game to 100,000 points has about 9,000).
MAX_IMPORT_BYTES = 4 * 1024 * 1024
MAX_IMPORT_EVENTS = 20_000

# A game's or throw's id as `games.new_id` makes them (URL-safe base64).
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def valid_id(value: str) -> bool:
    """Whether `value` can be an id at all (anything else is simply not found)."""
    return bool(_ID.match(value))


# ---------------------------------------------------------------- bodies


def _refuse_constant(name: str) -> Any:
    raise BadRequest("err_bad_number")


def _depth(value: Any) -> int:
    """Nesting depth of a parsed JSON value, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, depth + 1) for v in item]
    return deepest


def loads(data: bytes | str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Strict JSON: no NaN or Infinity (browsers cannot read them back), bounded depth."""
    try:
        value = json.loads(data, parse_constant=_refuse_constant)
    except RecursionError as exc:  # nested deeper than Python's stack: not a game's data
        raise BadRequest("err_bad_json") from exc
    except (ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, BadRequest):
            raise
        raise BadRequest("err_bad_json") from exc
    if _depth(value) > max_depth:
        raise BadRequest("err_bad_json")
    return value


def is_json() -> bool:
    return request.mimetype == "application/json"


def is_multipart() -> bool:
    return request.mimetype == "multipart/form-data"


def has_body() -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def json_body(*, max_bytes: int = MAX_JSON_BYTES, optional: bool = False) -> dict:
    """The request's JSON object; an empty body is `{}` when `optional`."""
    if optional and not has_body():
        return {}
    if not is_json():
        raise UnsupportedType("err_content_type")
    if request.content_length is not None and request.content_length > max_bytes:
        raise TooLarge("err_body_too_large", kb=max_bytes // 1024)
    data = request.stream.read(max_bytes + 1) if request.content_length is None else request.get_data(cache=True)
    if len(data) > max_bytes:
        raise TooLarge("err_body_too_large", kb=max_bytes // 1024)
    body = loads(data)
    if not isinstance(body, dict):
        raise BadRequest("err_bad_json")
    return body


# ---------------------------------------------------------------- texts


# scoring's name-check codes -> the edge's messages, which name the field.
_TEXT_ERRORS = {
    "player_name": "err_text_empty",
    "player_name_characters": "err_text_characters",
    "player_name_too_long": "err_text_too_long",
}


def text(value: Any, field: str) -> str:
    """A short text a player typed (a name), cleaned as scoring cleans names; 400/422
    naming `field` otherwise."""
    if not isinstance(value, str):
        raise BadRequest("err_field", field=field)
    try:
        return check_name(value, field=field)
    except RuleError as exc:
        key = _TEXT_ERRORS.get(exc.code, "err_field")
        raise Unprocessable(key, field=field, character=exc.params.get("character"), n=MAX_NAME_LENGTH) from exc


def optional_text(value: Any, field: str) -> str | None:
    """Like `text`, but absent (None or "") is None."""
    if value is None or value == "":
        return None
    return text(value, field)


def players(value: Any) -> list[str]:
    """The seating list: 1-12 names, each checked as `text` (scoring checks the rest)."""
    if not isinstance(value, list):
        raise BadRequest("err_field", field="players")
    if len(value) > MAX_PLAYERS:
        raise Unprocessable("err_players_too_many", n=MAX_PLAYERS)
    return [text(p, "players") for p in value]


def by(value: Any) -> str | None:
    """Who did it (the name this phone chose); None if not given."""
    return optional_text(value, "by")


# ---------------------------------------------------------------- numbers and choices


def version(value: Any) -> int | None:
    """The version a phone last saw: a whole number, as JSON number or form text."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 12:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise BadRequest("err_field", field="version")


def pixels(value: Any, field: str, *, most: int = 20_000) -> int | None:
    """A photo's side in pixels, as form or query text: a whole number from 1 to `most`
    (absent: None)."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6 and 0 < int(value) <= most:
        return int(value)
    raise BadRequest("err_field", field=field)


def flag(value: Any, field: str) -> bool:
    """A yes/no: JSON true/false, or a form's "1"/"true"/"on" (absent: no)."""
    if value is None or value is False or value in ("", "0", "false", "off"):
        return False
    if value is True or value in ("1", "true", "on"):
        return True
    raise BadRequest("err_field", field=field)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def dice(raw: Any, *, max_count: int = MAX_DICE) -> list[Die]:
    """Client dice (`[3, 5]` or `[{"value": 3, "box": [...]}, ...]`) -> stored dice."""
    if not isinstance(raw, list):
        raise BadRequest("err_dice")
    if len(raw) > max_count:
        raise Unprocessable("err_too_many_dice", n=max_count)
    out = []
    for item in raw:
        value = item.get("value") if isinstance(item, dict) else item
        # bool is an int in Python; `true` is not a die.
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise Unprocessable("err_dice")
        box = item.get("box") if isinstance(item, dict) else None
        if box is not None and not (
            isinstance(box, list)
            and len(box) == 4
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box)
            and box[0] <= box[2] and box[1] <= box[3]  # x0, y0, x1, y1: corners in order
        ):
            raise BadRequest("err_field", field="box")
        out.append({"value": value, "box": box, "confidence": None})
    return out


def options(value: Any) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRequest("err_field", field="options")
    return value


def variant(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 64:
        raise BadRequest("err_field", field="variant")
    return value


def entry(body: dict) -> Entry:
    """An entry's body: `throw_id` and `box` (+ `column`), or `keep`, or `bank: true`."""
    bank = body.get("bank") is True
    throw_id = body.get("throw_id")
    if not (throw_id is None and bank) and not isinstance(throw_id, str):
        raise BadRequest("err_field", field="throw_id")
    box = body.get("box")
    if box is not None and not isinstance(box, str):
        raise BadRequest("err_field", field="box")
    column = body.get("column")
    if column is not None and not _whole(column):
        raise BadRequest("err_field", field="column")
    keep = body.get("keep")
    keep = [] if keep is None else keep  # `false`, 0 or "" is no set-aside list, nor a bust
    if not isinstance(keep, list) or not all(_whole(v) for v in keep) or len(keep) > MAX_DICE:
        raise BadRequest("err_field", field="keep")
    claimed = body.get("player")
    return Entry(
        throw_id=throw_id,
        box=box,
        column=column,
        keep=tuple(keep),
        bank=bank,
        dice=tuple(dice(body["dice"])) if "dice" in body else None,
        player=None if claimed is None else text(claimed, "player"),
        version=version(body.get("version")),
    )


# ---------------------------------------------------------------- replay files


def replay_file() -> dict:
    """The uploaded replay file (JSON body or a form's `file`), within the import limits."""
    if request.content_length is not None and request.content_length > MAX_IMPORT_BYTES:
        raise TooLarge("err_import_too_large", mb=MAX_IMPORT_BYTES // (1024 * 1024))
    if is_multipart():
        upload = request.files.get("file")
        if upload is None:
            raise BadRequest("err_field", field="file")
        raw = upload.read(MAX_IMPORT_BYTES + 1)
        if len(raw) > MAX_IMPORT_BYTES:
            raise TooLarge("err_import_too_large", mb=MAX_IMPORT_BYTES // (1024 * 1024))
        data = loads(raw)
        if not isinstance(data, dict):
            raise BadRequest("err_bad_json")
    else:
        data = json_body(max_bytes=MAX_IMPORT_BYTES)
    return checked_replay(data)


def checked_replay(data: dict) -> dict:
    """The same checks and caps on names and players as a new game, and at most
    `MAX_IMPORT_EVENTS` events. The names stay as written: the events name them so."""
    events = data.get("events", [])
    if isinstance(events, list) and len(events) > MAX_IMPORT_EVENTS:
        raise Unprocessable("err_import_events", n=MAX_IMPORT_EVENTS)
    if "players" in data:
        players(data["players"])
    return data
