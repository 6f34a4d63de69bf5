"""Fixtures for the web app tests: every stored game on both backends, and the app on a
real server thread.

`db_backend` is "sqlite" or "postgres": every test that builds an app (through `app`,
`client` or `make_app`) runs once on each. On PostgreSQL each test gets a schema of its
own in one database (made and dropped in milliseconds), never a new cluster. The
server is `DICECAM_TEST_POSTGRES` (a postgresql:// URL whose role may create schemas),
else the local default (libpq's socket, as this user). Without one the PostgreSQL
half skips with one line saying so; with `CI` set it fails instead, as the browser and
dataset tests do (tests/conftest.py). `-m "not postgres"` runs the SQLite half alone.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from urllib.parse import quote

import pytest

POSTGRES_ENV = "DICECAM_TEST_POSTGRES"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def _with_options(url: str, schema: str) -> str:
    """`url` with its tables in `schema` (libpq's `options`, as a URL parameter)."""
    return f"{url}{'&' if '?' in url else '?'}options={quote(f'-csearch_path={schema}')}"


@dataclass
class PostgresServer:
    """The test server: hands out empty schemas and drops them again."""

    url: str
    schemas: set[str] = field(default_factory=set)

    def _admin(self):
        import psycopg

        return psycopg.connect(self.url, autocommit=True, connect_timeout=5)

    def new_database(self) -> str:
        """The URL of a new, empty schema of its own."""
        schema = f"dicecam_test_{secrets.token_hex(6)}"
        with self._admin() as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        self.schemas.add(schema)
        return _with_options(self.url, schema)

    def drop(self, url: str) -> None:
        schema = url.rsplit("search_path%3D", 1)[1]
        with self._admin() as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        self.schemas.discard(schema)

    def close(self) -> None:
        for schema in list(self.schemas):
            self.drop(_with_options(self.url, schema))


def find_postgres() -> tuple[str | None, str]:
    """A reachable server's URL, or None and why not."""
    try:
        import psycopg
    except ImportError:
        return None, "psycopg (pip install -e '.[dev]')"
    url = os.environ.get(POSTGRES_ENV) or "postgresql://"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        where = url if os.environ.get(POSTGRES_ENV) else "the local socket"
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        return None, f"a PostgreSQL server at {where} ({reason})"
    return url, ""


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    url, missing = find_postgres()
    if url is None:
        message = (f"needs {missing}: start one and set {POSTGRES_ENV}=postgresql://USER@HOST/DB "
                   "(.ci/run shows how)")
        if _in_ci():
            pytest.fail(f"CI must not skip: {message}", pytrace=False)
        pytest.skip(message)
    server = PostgresServer(url)
    yield server
    server.close()


@dataclass
class Storage:
    """Where a test's games are kept."""

    name: str  # "sqlite" or "postgres"
    server: PostgresServer | None = None

    def database(self) -> dict:
        """App config for a new, empty database ({} for SQLite: the data folder's file)."""
        return {"DATABASE_URL": self.server.new_database()} if self.server is not None else {}

    def release(self, config: dict) -> None:
        if self.server is not None and config.get("DATABASE_URL"):
            self.server.drop(config["DATABASE_URL"])


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_backend(request) -> Storage:
    """The storage backend under test (module scope, so module fixtures can use it too)."""
    if request.param == "postgres":
        return Storage("postgres", request.getfixturevalue("postgres_server"))
    return Storage("sqlite")


@pytest.fixture(autouse=True)
def _no_outside_database(monkeypatch) -> None:
    """A developer's own DICECAM_DATABASE_URL is never touched by a test."""
    monkeypatch.delenv("DICECAM_DATABASE_URL", raising=False)


@pytest.fixture
def make_app(db_backend, tmp_path) -> Iterator[Callable[..., object]]:
    """`make_app(data_dir=None, **config)`: an app (advice off) on this test's database.

    Apps made by one test share its database, as a restarted server (or a second
    worker) would; they are shut down and the database dropped afterwards.
    """
    from dicecam.webapp import create_app, shutdown

    database = db_backend.database()
    apps = []

    def make(data_dir=None, **config):
        settings = {"TESTING": True, "DATA_DIR": str(data_dir or tmp_path / "data"), "ADVICE": False}
        app = create_app({**settings, **database, **config})
        apps.append(app)
        return app

    yield make
    for app in apps:
        shutdown(app)
    db_backend.release(database)


@pytest.fixture
def app(make_app, tmp_path, monkeypatch):
    data = tmp_path / "data"
    # Nothing may fall back to the real per-user folder during tests.
    monkeypatch.setenv("DICECAM_DATA", str(data))
    return make_app(data)


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
