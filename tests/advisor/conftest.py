"""Session fixtures: one table cache for the whole test session, built on first use."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def advisor_cache(tmp_path_factory):
    """Point DICECAM_CACHE at a fresh folder: each table is built once per session."""
    folder = tmp_path_factory.mktemp("dicecam-cache")
    old = os.environ.get("DICECAM_CACHE")
    os.environ["DICECAM_CACHE"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("DICECAM_CACHE", None)
    else:
        os.environ["DICECAM_CACHE"] = old


@pytest.fixture(scope="session")
def table():
    """table(variant) -> the solved ColumnTable (built once, then from the cache)."""
    from dicecam.scoring.advisor.cache import column_table

    return column_table
