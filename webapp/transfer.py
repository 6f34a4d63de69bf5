"""Moving games between stores: SQLite to PostgreSQL when a table outgrows one laptop
(and back). Rows are copied as they are (ids, versions, logs, summaries, times, every
throw with its evidence); nothing is replayed or renumbered. The photos stay where
they are: both stores name them by the same hashes in the same data folder.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicecam.webapp.store import Store


@dataclass(frozen=True)
class Copied:
    copied: int
    already_there: int
    throws: int


def copy_games(source: Store, target: Store) -> Copied:
    """Copy every game of `source` that `target` does not hold yet, one transaction per game.

    A game already in `target` (same id) is left alone there, so running it twice copies
    nothing twice; a game that changes in `source` meanwhile is copied as it was read.
    """
    copied = already = throws = 0
    for row in reversed(source.games()):  # oldest first, as they were played
        if target.game(row.id) is not None:
            already += 1
            continue
        log = source.game_log(row.id, row.version)
        if log is None:  # changed between the two reads: take it as it is now
            fresh = source.game(row.id)
            if fresh is None:
                continue
            row, log = fresh, source.game_log(fresh.id, fresh.version)
            if log is None:
                continue
        rows = source.throws(row.id)
        with target.transaction():
            target.add_game(row, log)
            for throw in rows:
                target.add_throw(throw)
        copied += 1
        throws += len(rows)
    return Copied(copied, already, throws)
