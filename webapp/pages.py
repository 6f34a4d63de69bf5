"""The HTML pages: start page, game page, throw log, one throw's evidence, the QR code."""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from dicecam.scoring import all_variants, get_variant
from dicecam.webapp import access, advice, games, parse
from dicecam.webapp.db import game_cache, get_store, photo_store
from dicecam.webapp.errors import BadRequest, NotFound
from dicecam.webapp.i18n import bundle, current_lang, number, t
from dicecam.webapp.present import read_and_now, state_json, throw_json
from dicecam.webapp.qr import game_url, qr_svg

bp = Blueprint("pages", __name__)


@bp.url_value_preprocessor
def check_ids(endpoint: str | None, values: dict | None) -> None:
    if not values:
        return
    if "game_id" in values and not parse.valid_id(values["game_id"]):
        raise NotFound("err_not_found")
    if "throw_id" in values and not parse.valid_id(values["throw_id"]):
        raise NotFound("err_throw_not_found")


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
    listed = games.list_games(get_store(), access.visible_games())
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
    # The form's rows left empty are not players; anything typed is checked as a name.
    players = parse.players([p for p in form.getlist("players") if p.strip()])
    stored = games.create(get_store(), parse.variant(form.get("variant")), players, options, game_cache())
    access.remember(stored.id)
    return redirect(url_for("pages.game", game_id=stored.id), code=303)


@bp.post("/import")
def import_game():
    stored = games.import_log(get_store(), parse.replay_file(), game_cache())
    access.remember(stored.id)
    return redirect(url_for("pages.game", game_id=stored.id), code=303)


@bp.get("/g/<game_id>")
def game(game_id: str):
    """The game page; opening its link is how a phone joins the game."""
    store = get_store()
    stored = games.load(store, game_id, game_cache())
    access.remember(stored.id)
    advice.warm(stored)
    lang = current_lang()
    return render_template("game.html", state=state_json(store, stored, lang), texts=bundle(lang))


@bp.get("/games/<game_id>")
def game_link(game_id: str):
    """The short form of a game's link."""
    return redirect(url_for("pages.game", game_id=game_id), code=302)


@bp.get("/games/<game_id>/qr.svg")
def game_qr(game_id: str):
    """The game's link as a QR code, so another phone joins by scanning this one."""
    stored = games.load(get_store(), game_id, game_cache())
    url = game_url(stored.id, current_app.config.get("PUBLIC_URL"))
    resp = Response(qr_svg(url), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "private, max-age=3600"
    return resp


@bp.get("/g/<game_id>/log")
def throw_log(game_id: str):
    store = get_store()
    stored = games.load(store, game_id, game_cache())
    lang = current_lang()
    throws = [throw_json(stored, r, lang) for r in reversed(store.throws(game_id))]
    return render_template("log.html", state=state_json(store, stored, lang), throws=throws, variant=stored.variant)


@bp.get("/g/<game_id>/throws/<throw_id>")
def throw_page(game_id: str, throw_id: str):
    store = get_store()
    stored = games.load(store, game_id, game_cache())
    lang = current_lang()
    row = games.get_throw(store, game_id, throw_id)
    record = throw_json(stored, row, lang)
    intact = photo_store().verify(row.photo_sha256) if row.photo_sha256 else None
    return render_template(
        "throw.html", state=state_json(store, stored, lang), throw=record, intact=intact, variant=stored.variant,
        closeups=read_and_now(row) if row.photo_sha256 and row.width else [],
    )
