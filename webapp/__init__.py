"""The table's web page: Flask app factory (flaskr style).

`create_app(test_config=None)` builds the app over a data folder (`DICECAM_DATA`,
else a per-user default) holding the SQLite database, the evidence photos and the
key that signs this server's cookies. With `DICECAM_DATABASE_URL` (or
`DATABASE_URL` in the config) set to a `postgresql://` URL the games are kept in
PostgreSQL instead, and several worker processes may serve them (docs/DEPLOY.md).
A data folder that cannot be written is served read-only: games can be looked at,
every change answers 503. `shutdown(app)` closes what the app holds open.

Module map (docs/WEBAPP.md): `api` and `pages` are the blueprints (HTTP only),
`parse` checks what clients send, `games` holds the use cases, `lifecycle` the life
of a throw, `backend` picks the storage (`store`, `sqlite_store`, `postgres_store`),
`access` who sees which game, `live`/`postgres_live` the change notifications,
`recognition`/`upload` the photos, `photos`/`evidence` where they are kept, `errors`
every refusal.
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

from flask import Flask, request

from dicecam.webapp.backend import DatabaseError, DataFolderError
from dicecam.webapp.datadir import default_data_dir

__all__ = ["MAX_UPLOAD_MB", "DataFolderError", "DatabaseError", "create_app", "shutdown"]

MAX_UPLOAD_MB = 20


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
    """Build the app; `test_config` overrides settings (DATA_DIR, DATABASE_URL, ...).

    Raises `DataFolderError` or `DatabaseError` (one line for the user) when the
    storage cannot be used, and `store.SchemaTooNew` for a newer release's database.
    """
    from dicecam.webapp import access, advice, db, errors, live, recognition
    from dicecam.webapp.backend import backend_for
    from dicecam.webapp.cache import GameCache
    from dicecam.webapp.live import StreamSlots
    from dicecam.webapp.photos import open_photos

    app = Flask(__name__)
    data_dir = Path((test_config or {}).get("DATA_DIR") or default_data_dir())
    app.config.from_mapping(
        DATA_DIR=str(data_dir),
        DATABASE=str(data_dir / "dicecam.sqlite3"),
        PHOTO_DIR=str(data_dir / "photos"),
        # A postgresql:// URL keeps the games in PostgreSQL (several workers); None: SQLite.
        DATABASE_URL=os.environ.get("DICECAM_DATABASE_URL") or None,
        DATABASE_POOL=None,  # connections per process (webapp.backend.DEFAULT_POOL)
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
    if not app.config["READ_ONLY"]:
        Path(app.config["PHOTO_DIR"]).mkdir(parents=True, exist_ok=True)
    backend = backend_for(app.config)
    backend.start(read_only=app.config["READ_ONLY"])
    app.extensions["dicecam.backend"] = backend
    if getattr(backend, "keeper", None) is not None:
        app.extensions["dicecam.sqlite_keeper"] = backend.keeper  # type: ignore[attr-defined]
    app.extensions["dicecam.notifier"] = backend.notifier
    app.extensions["dicecam.photos"] = open_photos(app.config)
    app.extensions["dicecam.games"] = GameCache()
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


def shutdown(app: Flask) -> None:
    """Close the app's database connections and end its live streams (idempotent)."""
    backend = app.extensions.get("dicecam.backend")
    if backend is not None:
        backend.close()


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
        # same-origin: a form posted from our own page keeps its Origin (no-referrer made
        # Chromium send "Origin: null", which the access check refuses); other sites get nothing.
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        asked = request.args.get("lang")
        if asked in LANGS:
            resp.set_cookie("lang", asked, max_age=365 * 24 * 3600, samesite="Lax")
        resp.vary.add("Accept-Language")
        resp.vary.add("Cookie")
        return resp
