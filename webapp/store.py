"""The store's interface: games and throws kept between requests.

Two backends implement it: `webapp.sqlite_store.SQLiteStore` (one file in the data
folder, the default) and `webapp.postgres_store.PostgresStore` (a PostgreSQL server
shared by worker processes); `webapp.backend` picks one from the configuration.
Nothing outside the stores writes SQL. Writes happen inside
`with store.transaction():`, which serialises writers of the whole store (SQLite)
or of the game row read with `lock=True` (PostgreSQL: `SELECT ... FOR UPDATE`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import AbstractContextManager
from typing import Protocol

from dicecam.webapp.rows import GameRow, Summary, ThrowRow


class SchemaTooNew(RuntimeError):
    """The database was written by a newer dicecam; this one must not touch it."""


class Store(Protocol):
    """Typed rows in, typed rows out; errors are `webapp.errors` (ReadOnly, DiskFull)."""

    read_only: bool

    # -- reading ---------------------------------------------------------------

    def game(self, game_id: str, *, lock: bool = False) -> GameRow | None:
        """The game's row without its log; `lock` (inside a transaction) holds it for a write."""

    def game_log(self, game_id: str, version: int) -> str | None:
        """The game's log (JSON text) at exactly `version`; None if it moved on or is gone."""

    def games(self, ids: Collection[str] | None = None) -> list[GameRow]:
        """Games (all, or those of `ids`), most recently played first."""

    def finished_before(self, stamp: str) -> list[str]:
        """Ids of finished games last changed before the ISO time `stamp`."""

    def throws(self, game_id: str, *, base_event: int | None = None, live: bool = False) -> list[ThrowRow]:
        """The game's throws in the order thrown; only those thrown after `base_event`
        events, and only live ones (open or rerolled) when asked."""

    def throw(self, game_id: str, throw_id: str) -> ThrowRow | None:
        """One throw of the game."""

    def last_entered(self, game_id: str) -> ThrowRow | None:
        """The throw that became the game's latest entry, if any."""

    # -- writing (inside `transaction()`) ---------------------------------------

    def transaction(self) -> AbstractContextManager[None]:
        """All writes in the block commit together or not at all."""

    def add_game(self, row: GameRow, log: str) -> None:
        """Store a new game."""

    def update_game(self, game_id: str, *, version: int, log: str, summary: Summary, updated: str) -> bool:
        """Write the game at `version + 1` if it is still at `version` (compare-and-swap)."""

    def delete_game(self, game_id: str) -> list[str]:
        """Delete a game and its throws; returns the photo hashes no other throw uses."""

    def next_seq(self, game_id: str) -> int:
        """The number of the game's next throw (1, 2, ...)."""

    def add_throw(self, row: ThrowRow) -> None:
        """Store a new throw."""

    def save_throw(self, row: ThrowRow) -> None:
        """Write back a changed throw (matched by id)."""

    def close(self) -> None:
        """Give the connection back."""


def iter_chunks(ids: list[str], size: int = 500) -> Iterator[list[str]]:
    """`ids` in slices small enough for one `IN (...)` of any database."""
    for i in range(0, len(ids), size):
        yield ids[i : i + size]
