"""The request's store handle, flaskr style: opened on first use, closed at teardown;
and the app-wide objects requests share (game cache, notifier, photo store)."""

from __future__ import annotations

from flask import Flask, current_app, g

from dicecam.webapp.cache import GameCache
from dicecam.webapp.live import Notifier
from dicecam.webapp.photos import Photos
from dicecam.webapp.store import Store


def open_store(app: Flask) -> Store:
    """A store handle for `app` from its backend (SQLite or PostgreSQL); writes notify
    live streams when they commit."""
    return app.extensions["dicecam.backend"].store()


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


def photo_store() -> Photos:
    return current_app.extensions["dicecam.photos"]


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_store)
