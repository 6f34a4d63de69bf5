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
from werkzeug.datastructures import MultiDict

from dicecam.scoring import ScoringError, Variant, all_variants, get_variant
from dicecam.scoring.players import MAX_PLAYERS
from dicecam.webapp import access, advice, games, parse
from dicecam.webapp.db import game_cache, get_store, photo_store
from dicecam.webapp.errors import BadRequest, NotFound, Unprocessable, message_of
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


# The start form as it first shows: the first game, two empty rows, Würfelpoker's usual target.
_FRESH_FORM = {"variant": None, "players": ["", ""], "target": "10000", "finish_round": False}
# The most player rows a refused form shows again (twice the most a table seats: nothing a
# player typed is lost, and a made-up form of thousands of rows is not drawn back).
_MOST_ROWS = 2 * MAX_PLAYERS


def _start_page(entered: dict | None = None, form_error: str | None = None) -> str:
    """The start page; with `entered` (what a refused form held) and `form_error` (why, in
    the page's language) its form shows them again."""
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
    form = dict(entered or _FRESH_FORM)
    if form["variant"] not in {v["id"] for v in variants}:
        form["variant"] = variants[0]["id"]
    return render_template(
        "index.html",
        variants=variants,
        open_games=[g for g in listed if not g["finished"]],
        done_games=[g for g in listed if g["finished"]][:10],
        entered=form,
        form_error=form_error,
    )


@bp.get("/")
def index():
    return _start_page()


def _chosen_variant(name: str | None) -> Variant | None:
    """The form's game (an alias such as "kniffel" is its game); None where none or an unknown
    one was sent, which `games.create` refuses with its own message."""
    try:
        return get_variant(name) if name else None
    except ScoringError:
        return None


def _entered(form: MultiDict[str, str]) -> dict:
    """What the start form held, to show it again as it was typed."""
    rows = form.getlist("players")[:_MOST_ROWS]
    chosen = _chosen_variant(form.get("variant"))
    return {
        "variant": chosen.id if chosen else form.get("variant"),
        "players": rows + [""] * (2 - len(rows)),
        "target": form.get("target", ""),
        "finish_round": form.get("finish_round") == "on",
    }


@bp.post("/new")
def new_game():
    """The start page's form, so a game can be started even without JavaScript.

    A form the game refuses (too few players, a name twice, a target out of range) is
    answered as the API answers the same refusal, 422, with the start page again: the
    reason in the page's language above the button, and everything typed still in the form.
    """
    form = request.form
    try:
        stored = _create_from_form(form)
    except (BadRequest, Unprocessable) as exc:
        return _start_page(_entered(form), message_of(exc)), 422
    access.remember(stored.id)
    return redirect(url_for("pages.game", game_id=stored.id), code=303)


def _create_from_form(form: MultiDict[str, str]) -> games.Stored:
    variant = form.get("variant")
    options: dict = {}
    # Only Würfelpoker has a target: the form sends its field whatever game is picked
    # (without JavaScript the field is not hidden).
    chosen = _chosen_variant(variant)
    if chosen is not None and chosen.family == "push":
        target = form.get("target", "").strip()
        if target:
            # A target that is no whole number goes to the game as typed: refused by the
            # game's own check, with the words and the status the API answers it with.
            options["target"] = int(target) if target.isascii() and target.isdigit() and len(target) <= 9 else target
        options["finish_round"] = form.get("finish_round") == "on"
    # The form's rows left empty are not players; anything typed is checked as a name.
    players = parse.players([p for p in form.getlist("players") if p.strip()])
    return games.create(get_store(), parse.variant(variant), players, options, game_cache())


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
