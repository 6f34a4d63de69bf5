"""The table's web page: Flask app factory (flaskr style).

`create_app(test_config=None)` builds the app over a data folder (`DICECAM_DATA`,
else a per-user default) holding the SQLite database and the evidence photos.
"""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from dicecam.webapp.datadir import default_data_dir
from dicecam.webapp.errors import WebError

MAX_UPLOAD_MB = 20


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; `test_config` overrides settings (DATA_DIR, DATABASE, ...)."""
    app = Flask(__name__)
    data_dir = Path((test_config or {}).get("DATA_DIR") or default_data_dir())
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("DICECAM_SECRET") or os.urandom(24).hex(),
        DATA_DIR=str(data_dir),
        DATABASE=str(data_dir / "dicecam.sqlite3"),
        PHOTO_DIR=str(data_dir / "photos"),
        MODELS_DIR=os.environ.get("DICECAM_MODELS") or None,
        MAX_CONTENT_LENGTH=MAX_UPLOAD_MB * 1024 * 1024,
        ADVICE=True,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    app.json.sort_keys = False
    Path(app.config["DATA_DIR"]).mkdir(parents=True, exist_ok=True)
    Path(app.config["PHOTO_DIR"]).mkdir(parents=True, exist_ok=True)

    from dicecam.webapp import api, db, pages

    db.init_app(app)
    db.init_db(app.config["DATABASE"])
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    _register_errors(app)
    _register_headers(app)
    return app


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _register_errors(app: Flask) -> None:
    from dicecam.webapp.i18n import error_message, t

    def render(status: int, message: str, code: str):
        if _wants_json():
            return jsonify({"error": message, "code": code, "status": status}), status
        return render_template("error.html", status=status, message=message), status

    @app.errorhandler(WebError)
    def web_error(exc: WebError):
        message = error_message(exc.key, exc.detail, exc.values)
        code = exc.key.removeprefix("err_").removeprefix("rule_")
        return render(exc.status, message, code)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        status = exc.code or 500
        if status == 413:
            message, code = t("err_too_large", mb=app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)), "too_large"
        elif status == 404:
            message, code = t("err_page_not_found"), "not_found"
        elif status == 405:
            message, code = t("err_method"), "method_not_allowed"
        else:
            message, code = exc.description or t("err_generic"), exc.name.lower().replace(" ", "_")
        return render(status, message, code)

    @app.errorhandler(Exception)
    def server_error(exc: Exception):
        app.logger.exception("unhandled error")
        return render(500, t("err_server"), "server_error")


def _register_headers(app: Flask) -> None:
    from dicecam.webapp.i18n import LANGS

    @app.after_request
    def headers(resp):
        # Everything (scripts, styles, images) is served from here: no CDN, no inline script.
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self';"
            " object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        )
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        asked = request.args.get("lang")
        if asked in LANGS:
            resp.set_cookie("lang", asked, max_age=365 * 24 * 3600, samesite="Lax")
        resp.vary.add("Accept-Language")
        resp.vary.add("Cookie")
        return resp
