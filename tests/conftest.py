"""Shared fixtures (flaskr style) and the one place that decides what a test may need.

Markers (registered in pyproject.toml, `--strict-markers`):

- `slow`: takes more than about ten seconds (Würfelspiel's pass tables, long
  simulations). Run with `--slow`; CI (`CI` set) always runs them.
- `browser`: drives Chromium through Playwright (the `chromium` fixture gives its path);
  every test in a folder named `browser/` has it.
- `datasets("byler_d6", ...)`: reads the shared labelled photos (the `shared_datasets`
  fixture gives their folder).

A test whose browser or datasets are missing is skipped with one line saying what is
missing and how to get it; with `CI` set it fails instead, so CI never passes by skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def shared_datasets_root() -> Path:
    """Where the shared labelled photos are: `DICECAM_DATASETS`, else ../shared/datasets."""
    return Path(os.environ.get("DICECAM_DATASETS") or ROOT.parent / "shared" / "datasets")


def chromium_path() -> Path:
    """The Chromium the browser tests drive: `DICECAM_CHROMIUM`, else Debian's."""
    return Path(os.environ.get("DICECAM_CHROMIUM") or "/usr/bin/chromium")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def _missing(what: str, how: str) -> None:
    """Skip (or, in CI, fail) the current test: `what` is missing, `how` gets it."""
    message = f"needs {what}: {how}"
    if _in_ci():
        pytest.fail(f"CI must not skip: {message}", pytrace=False)
    pytest.skip(message)


def require_datasets(*names: str) -> Path:
    """The shared datasets folder, holding `names` (any one if none are named)."""
    root = shared_datasets_root()
    wanted = names or ("byler_d6",)
    absent = [n for n in wanted if not (root / n / "labels.jsonl").is_file()]
    if absent:
        _missing(f"the shared datasets ({', '.join(absent)}) in {root}",
                 "put the labelled photo folders in ../shared/datasets beside the clone, "
                 "or set DICECAM_DATASETS to their folder")
    return root


def require_chromium() -> Path:
    path = chromium_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        _missing(f"Chromium at {path}",
                 "install it (Debian/Ubuntu: apt-get install chromium), or set DICECAM_CHROMIUM "
                 "to a Chromium binary")
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow (CI always runs them)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    run_slow = config.getoption("--slow") or _in_ci()
    skip = pytest.mark.skip(reason="slow: run with --slow (CI runs it)")
    for item in items:
        # Everything in a folder named browser/ is a browser test, marked or not.
        if ROOT in item.path.parents and "browser" in item.path.parent.relative_to(ROOT).parts:
            item.add_marker(pytest.mark.browser)
        if not run_slow and item.get_closest_marker("slow"):
            item.add_marker(skip)


def pytest_runtest_setup(item: pytest.Item) -> None:
    # Before any fixture starts a browser or opens a dataset.
    marker = item.get_closest_marker("datasets")
    if marker is not None:
        require_datasets(*marker.args)
    if item.get_closest_marker("browser"):
        require_chromium()


@pytest.fixture(scope="session")
def shared_datasets() -> Path:
    """The folder of the shared labelled photos (skips, or fails in CI, when absent)."""
    return require_datasets()


@pytest.fixture(scope="session")
def chromium() -> str:
    """The Chromium binary for Playwright's `executable_path` (skips, or fails in CI)."""
    return str(require_chromium())


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
