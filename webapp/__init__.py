"""The table's web page: Flask app factory (flaskr style).

`create_app(test_config=None)` builds the app over a data folder (`DICECAM_DATA`,
else a per-user default) holding the SQLite database, the evidence photos and the
key that signs this server's cookies. A data folder that cannot be written is
served read-only: games can be looked at, every change answers 503.

Module map (docs/WEBAPP.md): `api` and `pages` are the blueprints (HTTP only),
`parse` checks what clients send, `games` holds the use cases, `lifecycle` the life
of a throw, `store`/`sqlite_store` the storage, `access` who sees which game,
`live` the change notifications, `recognition`/`upload` the photos, `errors` every
refusal.
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

from flask import Flask, request

from dicecam.webapp.datadir import default_data_dir

MAX_UPLOAD_MB = 20


class DataFolderError(RuntimeError):
    """The data folder cannot be used (its database needs an upgrade it cannot get)."""


def _writable(folder: Path) -> bool:
    """Whether files can be made in `folder` (tried, not guessed: root ignores modes)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=folder, prefix=".probe-")
    except OSError:
        return False
    os.close(fd)
    os.unlink(name)
    return True


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; `test_config` overrides settings (DATA_DIR, DATABASE, ...)."""
    from dicecam.webapp import access, advice, db, errors, live, recognition, sqlite_store
    from dicecam.webapp.cache import GameCache
    from dicecam.webapp.live import LocalNotifier, StreamSlots

    app = Flask(__name__)
    data_dir = Path((test_config or {}).get("DATA_DIR") or default_data_dir())
    app.config.from_mapping(
        DATA_DIR=str(data_dir),
        DATABASE=str(data_dir / "dicecam.sqlite3"),
        PHOTO_DIR=str(data_dir / "photos"),
        MODELS_DIR=os.environ.get("DICECAM_MODELS") or None,
        MAX_CONTENT_LENGTH=MAX_UPLOAD_MB * 1024 * 1024,
        # A photo upload has four parts (photo, by, version, retake); nothing needs 1,000.
        MAX_FORM_PARTS=32,
        ADVICE=True,
        JSON_SORT_KEYS=False,
        ALLOWED_HOSTS=access.default_hosts(),
        PUBLIC_URL=None,  # the address `dicecam serve` announced, for QR codes
        SESSION_COOKIE_NAME="dicecam",
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        SESSION_REFRESH_EACH_REQUEST=False,
        LIVE_STREAMS=live.MAX_STREAMS,  # live-update streams held at once
        LIVE_STREAM_S=live.STREAM_S,
        LIVE_PING_S=live.PING_S,
    )
    if test_config:
        app.config.update(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]

    writable = _writable(data_dir)
    app.config.setdefault("READ_ONLY", not writable)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = access.secret_key(data_dir, writable=writable)
    if app.config["READ_ONLY"]:
        if Path(app.config["DATABASE"]).exists() and sqlite_store.needs_upgrade(app.config["DATABASE"]):
            raise DataFolderError(
                f"the data folder {data_dir} is read-only and its database must be upgraded first"
            )
    else:
        Path(app.config["PHOTO_DIR"]).mkdir(parents=True, exist_ok=True)
        sqlite_store.upgrade(app.config["DATABASE"])
        app.extensions["dicecam.sqlite_keeper"] = sqlite_store.keeper(app.config["DATABASE"])

    app.extensions["dicecam.games"] = GameCache()
    app.extensions["dicecam.notifier"] = LocalNotifier()
    app.extensions["dicecam.streams"] = StreamSlots(app.config["LIVE_STREAMS"])
    advice.init_app(app)
    recognition.init_app(app)
    db.init_app(app)

    from dicecam.webapp import api, camera, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(camera.bp)  # live camera frames (docs/LIVE.md)
    app.register_blueprint(pages.bp)
    errors.register(app)
    _register_hooks(app)
    return app


def _register_hooks(app: Flask) -> None:
    from dicecam.webapp import access
    from dicecam.webapp.i18n import LANGS

    @app.before_request
    def check_access():
        access.check_request(app)

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
