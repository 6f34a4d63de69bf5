"""Fixtures for the web app tests: the app on a real server thread."""

from __future__ import annotations

import threading

import pytest


@pytest.fixture
def live_server(app):
    """The app on a real cheroot server in a thread; yields its base URL."""
    from dicecam.webapp.serve import make_server

    server = make_server(app, "127.0.0.1", 0)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.bind_addr[1]}"
    server.stop()
    thread.join(timeout=10)
