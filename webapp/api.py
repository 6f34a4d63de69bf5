"""The JSON API (documented in webapp/openapi.yaml); the page uses it too."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from dicecam.webapp import games
from dicecam.webapp.db import get_db
from dicecam.webapp.errors import BadRequest, NotFound, Unavailable
from dicecam.webapp.evidence import PhotoStore, sniff_type
from dicecam.webapp.i18n import current_lang
from dicecam.webapp.present import state_json, throw_json
from dicecam.webapp.recognition import RecognitionUnavailable, decode, read_photo

bp = Blueprint("api", __name__, url_prefix="/api")


def photo_store() -> PhotoStore:
    return PhotoStore(current_app.config["PHOTO_DIR"])


def json_body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("err_bad_json")
    return data


def _by(value: Any) -> str | None:
    """Who did it (the name this phone chose), trimmed; None if not given."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise BadRequest("err_field", field="by")
    return " ".join(value.split())[: games.MAX_NAME] or None


def _version(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise BadRequest("err_field", field="version")


def state_response(stored: games.Stored, status: int = 200) -> tuple[Response, int]:
    return jsonify(state_json(get_db(), stored, current_lang())), status


@bp.get("/variants")
def variants():
    from dicecam.scoring import all_variants

    lang = current_lang()
    return jsonify(
        [
            {
                "id": v.id,
                "aliases": list(v.aliases),
                "name": v.name(lang),
                "summary": v.summary(lang),
                "family": v.family,
                "dice_count": v.dice_count,
                "columns": v.columns,
                "min_players": v.min_players,
                "default_options": v.default_options,
            }
            for v in all_variants()
        ]
    )


@bp.get("/games")
def list_games():
    return jsonify(games.list_games(get_db()))


@bp.post("/games")
def create_game():
    body = json_body()
    stored = games.create(get_db(), body.get("variant"), body.get("players"), body.get("options"))
    resp, status = state_response(stored, 201)
    resp.headers["Location"] = url_for("api.get_game", game_id=stored.id)
    return resp, status


@bp.post("/games/import")
def import_game():
    upload = request.files.get("file")
    if upload is not None:
        try:
            data = json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BadRequest("err_bad_json") from exc
    else:
        data = json_body()
    stored = games.import_log(get_db(), data)
    return state_response(stored, 201)


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    return state_response(games.load(get_db(), game_id))


@bp.get("/games/<game_id>/log")
def game_log(game_id: str):
    stored = games.load(get_db(), game_id)
    resp = jsonify(stored.game.to_dict())
    if request.args.get("download"):
        name = f"dicecam-{stored.game.to_dict()['variant']}-{date.today().isoformat()}-{stored.id[:6]}.json"
        resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


@bp.post("/games/<game_id>/throws")
def add_throw(game_id: str):
    db = get_db()
    upload = request.files.get("photo")
    if upload is not None:
        form = request.form
        by, version = _by(form.get("by")), _version(form.get("version"))
        retake = form.get("retake") in ("1", "true", "on")
        data = upload.read()
        # Cheap checks first: a refused throw should not cost a model run.
        games.check_can_throw(db, games.load(db, game_id), retake=retake)
        photo = _read_upload(data)
        dice = photo.pop("dice")
    else:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or "dice" not in body:
            raise BadRequest("err_no_photo")
        by, version = _by(body.get("by")), _version(body.get("version"))
        retake = body.get("retake") is True
        dice = games.parse_dice(body["dice"])
        photo = None
    stored, throw_id = games.add_throw(
        db, game_id, dice=dice, by=by, version=version, retake=retake, photo=photo
    )
    row = games.get_throw(db, game_id, throw_id)
    out = throw_json(stored, row, current_lang(), current=True)
    out["state"] = state_json(db, stored, current_lang())
    return jsonify(out), 201


def _read_upload(data: bytes) -> dict:
    from dicecam.vision.decode import ImageError

    if not data:
        raise BadRequest("err_image", reason="empty file")
    try:
        image = decode(data)
    except ImageError as exc:
        raise BadRequest("err_image", reason=str(exc)) from exc
    try:
        reading = read_photo(current_app._get_current_object(), image)
    except RecognitionUnavailable as exc:
        raise Unavailable("err_no_model") from exc
    store = photo_store()
    return {
        "dice": [
            {"value": d["value"], "box": d["box"], "confidence": d["confidence"]} for d in reading.dice
        ],
        "photo_sha256": store.put(data),
        "photo_type": sniff_type(data),
        "annotated_sha256": store.put(reading.annotated_jpeg),
        "width": reading.width,
        "height": reading.height,
        "low_confidence": reading.low_confidence,
        "read_ms": round(reading.read_ms, 1),
    }


@bp.get("/games/<game_id>/throws")
def list_throws(game_id: str):
    db = get_db()
    stored = games.load(db, game_id)
    rows = db.execute("SELECT * FROM throw WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    return jsonify([throw_json(stored, r, current_lang()) for r in rows])


@bp.get("/games/<game_id>/throws/<throw_id>")
def get_throw(game_id: str, throw_id: str):
    """The evidence record of one throw."""
    db = get_db()
    stored = games.load(db, game_id)
    row = games.get_throw(db, game_id, throw_id)
    current = games.open_throw(db, stored)
    out = throw_json(stored, row, current_lang(), current=current is not None and current["id"] == row["id"])
    if row["photo_sha256"]:
        out["photo_intact"] = photo_store().verify(row["photo_sha256"])
    return jsonify(out)


@bp.post("/games/<game_id>/throws/<throw_id>/dice")
def correct_dice(game_id: str, throw_id: str):
    """Correct the dice of the open throw; answers like a new throw."""
    db = get_db()
    body = json_body()
    if "dice" not in body:
        raise BadRequest("err_field", field="dice")
    stored = games.correct_throw(
        db,
        game_id,
        throw_id,
        games.parse_dice(body["dice"]),
        by=_by(body.get("by")),
        version=_version(body.get("version")),
    )
    row = games.get_throw(db, game_id, throw_id)
    out = throw_json(stored, row, current_lang(), current=True)
    out["state"] = state_json(db, stored, current_lang())
    return jsonify(out)


@bp.get("/games/<game_id>/throws/<throw_id>/<any(photo, annotated):kind>")
def throw_photo(game_id: str, throw_id: str, kind: str):
    db = get_db()
    games.load(db, game_id)
    row = games.get_throw(db, game_id, throw_id)
    sha = row["photo_sha256"] if kind == "photo" else row["annotated_sha256"]
    if not sha:
        raise NotFound("err_throw_not_found")
    try:
        data = photo_store().get(sha)
    except FileNotFoundError as exc:
        raise NotFound("err_throw_not_found") from exc
    mime = sniff_type(data)
    resp = Response(data, mimetype=mime)
    # The bytes behind a hash never change.
    resp.headers["Cache-Control"] = "private, max-age=31536000, immutable"
    resp.headers["ETag"] = sha
    ext = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}.get(mime, "bin")
    resp.headers["Content-Disposition"] = f'inline; filename="{sha}.{ext}"'
    return resp


@bp.post("/games/<game_id>/entries")
def make_entry(game_id: str):
    body = json_body()
    stored = games.enter(get_db(), game_id, body, by=_by(body.get("by")))
    return state_response(stored)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    body = request.get_json(silent=True) or {}
    if not isinstance(body, dict):
        raise BadRequest("err_bad_json")
    stored = games.undo(get_db(), game_id, by=_by(body.get("by")), version=_version(body.get("version")))
    return state_response(stored)


@bp.get("/openapi.yaml")
def openapi():
    from importlib import resources

    text = resources.files("webapp").joinpath("openapi.yaml").read_text(encoding="utf-8")
    return Response(text, mimetype="application/yaml")

