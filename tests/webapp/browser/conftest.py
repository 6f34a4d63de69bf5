"""The browser suite: Debian's Chromium driven by Playwright, on a phone-sized touch screen.

One browser for the whole session and one app (advice off) on a real cheroot server;
each test opens its own phones (browser contexts). A phone fails its test on any HTTP
5xx, any console error and any uncaught script error. Screenshots go to
`$DICECAM_SCREENSHOTS` (default /tmp/dicecam-screens), never into the repository.
Nothing is downloaded: the browser is Debian's /usr/bin/chromium (the `chromium`
fixture of tests/conftest.py, which also marks every test here `browser`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}
LOCALES = {"de": "de-DE", "en": "en-GB"}


@pytest.fixture(scope="session")
def playwright():
    """Playwright for the whole session: one sync instance per thread is all there may be,
    so every browser of the suite is launched from this one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright, chromium):
    """One headless Chromium for the whole session."""
    browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
    yield browser
    browser.close()


def _serve(app) -> Iterator[str]:
    from dicecam.webapp.serve import make_server

    server = make_server(app, "127.0.0.1", 0)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.bind_addr[1]}"
    server.stop()
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def base(tmp_path_factory) -> Iterator[str]:
    """The app (advice off) on a live server for the whole session; its base URL."""
    from dicecam.webapp import create_app

    data = tmp_path_factory.mktemp("browser-data")
    patch = pytest.MonkeyPatch()
    patch.setenv("DICECAM_DATA", str(data))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": False})
    yield from _serve(app)
    patch.undo()


@pytest.fixture(scope="session")
def advice_base(tmp_path_factory) -> Iterator[str]:
    """The app with the advisor on (its tables cached for the session)."""
    from dicecam.webapp import create_app

    data = tmp_path_factory.mktemp("browser-advice-data")
    patch = pytest.MonkeyPatch()
    patch.setenv("DICECAM_DATA", str(data))
    # The session's advisor cache, shared with test_advice_page: each table is built once.
    cache = tmp_path_factory.getbasetemp() / "advisor-cache"
    cache.mkdir(exist_ok=True)
    patch.setenv("DICECAM_CACHE", str(cache))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "ADVICE": True})
    yield from _serve(app)
    patch.undo()


class Phone:
    """One phone at the table: a browser context in one language, watched for errors."""

    def __init__(self, browser, lang: str) -> None:
        self.lang = lang
        self.context = browser.new_context(locale=LOCALES[lang], accept_downloads=True, **PHONE)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(f"script error: {exc}"))
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, msg) -> None:
        # Chromium logs every 4xx answer as "Failed to load resource"; a refused entry
        # (409, 422) is the page working as meant. 5xx answers fail in _response.
        if msg.text.startswith("Failed to load resource: the server responded with a status of 4"):
            return
        if msg.type == "error":
            self.errors.append(f"console error: {msg.text} at {msg.location.get('url')}")

    def _response(self, resp) -> None:
        if resp.status >= 500:
            self.errors.append(f"HTTP {resp.status} from {resp.request.method} {resp.url}")

    def close(self) -> None:
        self.context.close()


@contextmanager
def phones_of(browser) -> Iterator[Callable[..., Phone]]:
    """`open_phone(lang)` opens a phone in `browser`; on leaving, every phone opened is
    closed and must have ended without errors."""
    opened: list[Phone] = []

    def open_phone(lang: str = "de") -> Phone:
        phone = Phone(browser, lang)
        opened.append(phone)
        return phone

    yield open_phone
    errors = [e for p in opened for e in p.errors]
    for p in opened:
        p.close()
    assert errors == [], "\n".join(errors)


@pytest.fixture
def phones(browser) -> Iterator:
    """`phones(lang)` opens a phone; every phone opened must end the test without errors."""
    with phones_of(browser) as open_phone:
        yield open_phone


@pytest.fixture(scope="session")
def screens() -> Path:
    """Where the suite writes its screenshots (not committed)."""
    folder = Path(os.environ.get("DICECAM_SCREENSHOTS") or "/tmp/dicecam-screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
