"""The request's store handle, flaskr style: opened on first use, closed at teardown;
and the app-wide objects requests share (game cache, notifier, photo folder)."""

from __future__ import annotations

import threading

from flask import Flask, current_app, g

from dicecam.webapp.cache import GameCache
from dicecam.webapp.evidence import PhotoStore
from dicecam.webapp.live import Notifier
from dicecam.webapp.sqlite_store import SQLiteStore
from dicecam.webapp.store import Store


def open_store(app: Flask) -> Store:
    """A store handle for `app` (its own connection); writes notify live streams on commit."""
    return SQLiteStore(
        app.config["DATABASE"],
        read_only=app.config["READ_ONLY"],
        on_commit=app.extensions["dicecam.notifier"].notify,
        write_lock=app.extensions["dicecam.write_lock"],
    )


def get_store() -> Store:
    """The request's store, opened on first use."""
    if "store" not in g:
        g.store = open_store(current_app)
    return g.store


def close_store(e: BaseException | None = None) -> None:
    store = g.pop("store", None)
    if store is not None:
        store.close()


def game_cache() -> GameCache:
    return current_app.extensions["dicecam.games"]


def notifier() -> Notifier:
    return current_app.extensions["dicecam.notifier"]


def photo_store() -> PhotoStore:
    return PhotoStore(current_app.config["PHOTO_DIR"])


def init_app(app: Flask) -> None:
    app.extensions["dicecam.write_lock"] = threading.Lock()
    app.teardown_appcontext(close_store)
