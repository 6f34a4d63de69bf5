"""Games kept in memory between requests, so a GET does not replay the whole log.

A stored game changes only by a write that bumps its version, so `(id, version)`
names one immutable `scoring.Game` for good. The cache is bounded by the events it
holds (a game of 20,000 events weighs as much as 20,000 games of none), not by the
number of games: one huge imported game cannot push the server's memory up unbounded.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from dicecam.scoring import Game

DEFAULT_MAX_EVENTS = 100_000


class GameCache:
    """A thread-safe LRU of `Game`s keyed by `(game_id, version)`."""

    def __init__(self, max_events: int = DEFAULT_MAX_EVENTS) -> None:
        self.max_events = max_events
        self._games: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    @staticmethod
    def _weigh(game: Game) -> int:
        return game.event_count + 1

    def get(self, game_id: str, version: int) -> Game | None:
        with self._lock:
            hit = self._games.get(game_id)
            if hit is None or hit[0] != version:
                return None
            self._games.move_to_end(game_id)
            return hit[1]

    def put(self, game_id: str, version: int, game: Game) -> None:
        """Keep `game` as the game at `version` (only the newest version of a game is kept)."""
        with self._lock:
            old = self._games.pop(game_id, None)
            if old is not None:
                self._weight -= self._weigh(old[1])
            if old is not None and old[0] > version:
                # A slower request must not replace a newer version with its older one.
                self._games[game_id] = old
                self._weight += self._weigh(old[1])
                return
            weight = self._weigh(game)
            if weight > self.max_events:
                return
            self._games[game_id] = (version, game)
            self._weight += weight
            while self._weight > self.max_events:
                _, (_, dropped) = self._games.popitem(last=False)
                self._weight -= self._weigh(dropped)

    def drop(self, game_id: str) -> None:
        with self._lock:
            old = self._games.pop(game_id, None)
            if old is not None:
                self._weight -= self._weigh(old[1])

    def __len__(self) -> int:
        return len(self._games)
