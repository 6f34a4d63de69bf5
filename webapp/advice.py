"""Advice from `scoring.advisor` for the open throw, when the advisor is installed.

Phones poll the game every few seconds, so advice is cached per game version.
Without the advisor (or when it cannot advise on this game) the page simply ranks
the options by points.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import current_app

from webapp.games import Stored

_cache: OrderedDict[tuple, dict | None] = OrderedDict()
_lock = threading.Lock()
_CACHE_SIZE = 256


def advise_throw(stored: Stored, values: list[int], number: int) -> dict | None:
    """`Advice.to_dict()` for the current player's throw, or None."""
    if not current_app.config.get("ADVICE", True):
        return None
    try:
        from scoring.advisor import advise
    except ImportError:
        return None
    key = (stored.id, stored.version, tuple(values), number)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    try:
        result = advise(stored.game, values, min(max(number, 1), 3)).to_dict()
    except ValueError:
        result = None
    with _lock:
        _cache[key] = result
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return result
