"""The HTML pages: start page, game page, throw log and one throw's evidence."""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, url_for

from dicecam.scoring import all_variants, get_variant
from dicecam.webapp import games
from dicecam.webapp.api import photo_store
from dicecam.webapp.db import get_db
from dicecam.webapp.errors import BadRequest
from dicecam.webapp.i18n import bundle, current_lang, number, t
from dicecam.webapp.present import state_json, throw_json

bp = Blueprint("pages", __name__)


@bp.app_context_processor
def inject_i18n() -> dict:
    lang = current_lang()
    return {
        "lang": lang,
        "t": lambda key, **kw: t(key, lang, **kw),
        "num": lambda value: number(value, lang),
        "other_lang": "en" if lang == "de" else "de",
    }


@bp.get("/")
def index():
    lang = current_lang()
    variants = [
        {
            "id": v.id,
            "name": v.name(lang),
            "summary": v.summary(lang),
            "family": v.family,
            "min_players": v.min_players,
            "default_options": v.default_options,
        }
        for v in all_variants()
    ]
    listed = games.list_games(get_db())
    for g in listed:
        g["variant_name"] = get_variant(g["variant"]).name(lang)
    return render_template(
        "index.html",
        variants=variants,
        open_games=[g for g in listed if not g["finished"]],
        done_games=[g for g in listed if g["finished"]][:10],
        error=request.args.get("error"),
    )


@bp.post("/new")
def new_game():
    """The start page's form, so a game can be started even without JavaScript."""
    form = request.form
    options: dict = {}
    if form.get("target"):
        try:
            options["target"] = int(form["target"])
        except ValueError as exc:
            raise BadRequest("rule_option_target") from exc
    if form.get("variant") == "wuerfelpoker" or "target" in options:
        options["finish_round"] = form.get("finish_round") == "on"
    players = [p for p in form.getlist("players") if p.strip()]
    stored = games.create(get_db(), form.get("variant"), players, options)
    return redirect(url_for("pages.game", game_id=stored.id), code=303)


@bp.post("/import")
def import_game():
    upload = request.files.get("file")
    if upload is None:
        raise BadRequest("err_field", field="file")
    try:
        data = json.loads(upload.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadRequest("err_bad_json") from exc
    stored = games.import_log(get_db(), data)
    return redirect(url_for("pages.game", game_id=stored.id), code=303)


@bp.get("/g/<game_id>")
def game(game_id: str):
    db = get_db()
    stored = games.load(db, game_id)
    lang = current_lang()
    return render_template(
        "game.html",
        state=state_json(db, stored, lang),
        texts=bundle(lang),
    )


@bp.get("/g/<game_id>/log")
def throw_log(game_id: str):
    db = get_db()
    stored = games.load(db, game_id)
    lang = current_lang()
    rows = db.execute("SELECT * FROM throw WHERE game_id = ? ORDER BY seq DESC", (game_id,)).fetchall()
    throws = [throw_json(stored, r, lang) for r in rows]
    return render_template(
        "log.html",
        state=state_json(db, stored, lang),
        throws=throws,
        variant=stored.variant,
    )


@bp.get("/g/<game_id>/throws/<throw_id>")
def throw_page(game_id: str, throw_id: str):
    db = get_db()
    stored = games.load(db, game_id)
    lang = current_lang()
    row = games.get_throw(db, game_id, throw_id)
    record = throw_json(stored, row, lang)
    intact = photo_store().verify(row["photo_sha256"]) if row["photo_sha256"] else None
    return render_template(
        "throw.html",
        state=state_json(db, stored, lang),
        throw=record,
        intact=intact,
        variant=stored.variant,
    )
