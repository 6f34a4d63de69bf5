"""Fixtures for the vision tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def reader():
    """The shipped model from `models/`, loaded once (fails, naming the file, until it is there)."""
    from dicecam.vision.reader import DiceReader

    return DiceReader()
