"""The JSON API (documented in webapp/openapi.yaml); the page uses it too.

HTTP only: each view parses the request (`webapp.parse`), calls a use case
(`webapp.games`) and answers with the shapes of `webapp.present`.
"""

from __future__ import annotations

from datetime import date
from importlib import resources

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from dicecam.webapp import access, advice, games, parse
from dicecam.webapp.db import game_cache, get_store, notifier, photo_store
from dicecam.webapp.errors import (
    BadRequest,
    Busy,
    Conflict,
    NotFound,
    UnsupportedType,
    message_of,
)
from dicecam.webapp.evidence import sniff_type
from dicecam.webapp.i18n import current_lang
from dicecam.webapp.live import Stream
from dicecam.webapp.present import state_json, throw_json

bp = Blueprint("api", __name__, url_prefix="/api")

@bp.url_value_preprocessor
def check_ids(endpoint: str | None, values: dict | None) -> None:
    """Ids that cannot exist are simply not found (and never reach the database)."""
    if not values:
        return
    if "game_id" in values and not parse.valid_id(values["game_id"]):
        raise NotFound("err_not_found")
    if "throw_id" in values and not parse.valid_id(values["throw_id"]):
        raise NotFound("err_throw_not_found")


@bp.errorhandler(Conflict)
def conflict(exc: Conflict):
    """409 carries the game as it is now, so the phone can redraw without asking again."""
    body: dict = {"error": message_of(exc), "code": exc.code, "status": 409}
    game_id = (request.view_args or {}).get("game_id")
    if game_id:
        try:
            store = get_store()
            body["game"] = state_json(store, games.load(store, game_id, game_cache()), current_lang())
        except (NotFound, Conflict):  # gone, or a stored game this release cannot replay: the 409 alone
            pass
    return jsonify(body), 409


def state_response(stored: games.Stored, status: int = 200) -> tuple[Response, int]:
    return jsonify(state_json(get_store(), stored, current_lang())), status


def throw_response(stored: games.Stored, row, status: int) -> tuple[Response, int]:
    """A throw with its options, and the game's state after it."""
    out = throw_json(stored, row, current_lang(), current=True)
    out["state"] = state_json(get_store(), stored, current_lang())
    return jsonify(out), status


def opened(stored: games.Stored) -> games.Stored:
    """This browser has the game now: list it on its start page, ready its advice."""
    access.remember(stored.id)
    advice.warm(stored)
    return stored


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
    """Every game for this machine; elsewhere the games this browser knows."""
    return jsonify(games.list_games(get_store(), access.visible_games()))


@bp.post("/games")
def create_game():
    body = parse.json_body()
    stored = games.create(
        get_store(), parse.variant(body.get("variant")), parse.players(body.get("players")),
        parse.options(body.get("options")), game_cache(),
    )
    resp, status = state_response(opened(stored), 201)
    resp.headers["Location"] = url_for("api.get_game", game_id=stored.id)
    return resp, status


@bp.post("/games/import")
def import_game():
    stored = games.import_log(get_store(), parse.replay_file(), game_cache())
    return state_response(opened(stored), 201)


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    stored = games.load(get_store(), game_id, game_cache())
    advice.warm(stored)
    return state_response(stored)


@bp.delete("/games/<game_id>")
def delete_game(game_id: str):
    """Delete a finished game and its photos (a game still being played: 409)."""
    games.delete(get_store(), game_id, photo_store(), game_cache())
    access.forget(game_id)
    return Response(status=204)


@bp.get("/games/<game_id>/log")
def game_log(game_id: str):
    stored = games.load(get_store(), game_id, game_cache())
    resp = jsonify(stored.game.to_dict())
    if request.args.get("download"):
        name = f"dicecam-{stored.variant.id}-{date.today().isoformat()}-{stored.id[:6]}.json"
        resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


@bp.get("/games/<game_id>/events")
def game_events(game_id: str):
    """Server-sent events: `version` at once and on every change, `: ping` every 15 s."""
    row = get_store().game(game_id)
    if row is None:
        raise NotFound("err_not_found")
    slots = current_app.extensions["dicecam.streams"]
    if not slots.take():
        raise Busy("err_busy_live")
    # The request's store is closed when the view returns: the stream holds no
    # database connection while it waits.
    config = current_app.config
    stream = Stream(
        notifier(), slots, game_id, row.version, duration=config["LIVE_STREAM_S"], ping=config["LIVE_PING_S"],
        client_gone=request.environ.get("dicecam.client_gone"),
    )
    resp = Response(stream, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


@bp.post("/games/<game_id>/throws")
def add_throw(game_id: str):
    from dicecam.webapp.recognition import read_upload

    store, cache = get_store(), game_cache()
    if parse.is_multipart():
        form = request.form
        upload = request.files.get("photo")
        if upload is None:
            raise BadRequest("err_no_photo")
        by, version = parse.by(form.get("by")), parse.version(form.get("version"))
        retake = parse.flag(form.get("retake"), "retake")
        # Cheap checks first: a refused throw should not cost a model run.
        stored = games.load(store, game_id, cache)
        games.check_can_throw(store, stored, retake=retake)
        # The reader is told how many dice this throw shows (issue 34): it returns
        # that many, and marks any it had to guess as unsure for the player to check.
        photo, dice = read_upload(current_app, upload.stream, count=games.expected_dice(stored))
    elif parse.is_json() or not parse.has_body():
        body = parse.json_body(optional=True)
        if "dice" not in body:
            raise BadRequest("err_no_photo")
        by, version = parse.by(body.get("by")), parse.version(body.get("version"))
        retake = parse.flag(body.get("retake"), "retake")
        dice, photo = parse.dice(body["dice"]), None
    else:
        raise UnsupportedType("err_content_type")
    stored, row = games.add_throw(
        store, game_id, dice=dice, by=by, version=version, retake=retake,
        photo=photo, photos=photo_store(), cache=cache,
    )
    return throw_response(stored, row, 201)


@bp.get("/games/<game_id>/throws")
def list_throws(game_id: str):
    store = get_store()
    stored = games.load(store, game_id, game_cache())
    return jsonify([throw_json(stored, r, current_lang()) for r in store.throws(game_id)])


@bp.get("/games/<game_id>/throws/<throw_id>")
def get_throw(game_id: str, throw_id: str):
    """The evidence record of one throw."""
    store = get_store()
    stored = games.load(store, game_id, game_cache())
    row = games.get_throw(store, game_id, throw_id)
    current = games.open_throw(store, stored)
    out = throw_json(stored, row, current_lang(), current=current is not None and current.id == row.id)
    if row.photo_sha256:
        out["photo_intact"] = photo_store().verify(row.photo_sha256)
    return jsonify(out)


@bp.post("/games/<game_id>/throws/<throw_id>/dice")
def correct_dice(game_id: str, throw_id: str):
    """Correct the dice of the open throw; answers like a new throw."""
    body = parse.json_body()
    if "dice" not in body:
        raise BadRequest("err_field", field="dice")
    stored, row = games.correct_throw(
        get_store(),
        game_id,
        throw_id,
        parse.dice(body["dice"]),
        by=parse.by(body.get("by")),
        version=parse.version(body.get("version")),
        cache=game_cache(),
    )
    return throw_response(stored, row, 200)


@bp.get("/games/<game_id>/throws/<throw_id>/<any(photo, annotated):kind>")
def throw_photo(game_id: str, throw_id: str, kind: str):
    store = get_store()
    games.load(store, game_id, game_cache())
    row = games.get_throw(store, game_id, throw_id)
    sha = row.photo_sha256 if kind == "photo" else row.annotated_sha256
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
    body = parse.json_body()
    stored = games.enter(get_store(), game_id, parse.entry(body), by=parse.by(body.get("by")), cache=game_cache())
    return state_response(stored)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    body = parse.json_body(optional=True)
    stored = games.undo(
        get_store(), game_id, by=parse.by(body.get("by")), version=parse.version(body.get("version")),
        cache=game_cache(),
    )
    return state_response(stored)


@bp.get("/openapi.yaml")
def openapi():
    text = resources.files("dicecam.webapp").joinpath("openapi.yaml").read_text(encoding="utf-8")
    return Response(text, mimetype="application/yaml")
