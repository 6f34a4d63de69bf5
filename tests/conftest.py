"""Shared fixtures (flaskr style): an app over a temporary data folder, and its client."""

from __future__ import annotations

import pytest


@pytest.fixture
def app(tmp_path, monkeypatch):
    from dicecam.webapp import create_app

    data = tmp_path / "data"
    # Nothing may fall back to the real per-user folder during tests.
    monkeypatch.setenv("DICECAM_DATA", str(data))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": False})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()
