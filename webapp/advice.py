"""Advice from `scoring.advisor` for the open throw, when the advisor is installed.

Phones poll the game every few seconds, so advice is computed once per game version
in a background thread. A request waits for it only briefly: the advisor may have to
build its tables first, and a throw must never wait for that. Until the advice is
ready (or without the advisor) the page ranks the options by points.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor, TimeoutError

from flask import current_app

from webapp.games import Stored

_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicecam-advice")
_cache: OrderedDict[tuple, Future] = OrderedDict()
_lock = threading.Lock()
_CACHE_SIZE = 256
WAIT_S = 1.5


def _advise(game, values: list[int], number: int) -> dict | None:
    from scoring.advisor import advise

    try:
        return advise(game, values, number).to_dict()
    except ValueError:
        return None


def advise_throw(stored: Stored, values: list[int], number: int) -> dict | None:
    """`Advice.to_dict()` for the current player's throw, or None (not ready / no advisor)."""
    if not current_app.config.get("ADVICE", True):
        return None
    try:
        from scoring.advisor import advise  # noqa: F401  (only: is it there?)
    except ImportError:
        return None
    key = (stored.id, stored.version, tuple(values), number)
    with _lock:
        future = _cache.get(key)
        if future is None:
            future = _pool.submit(_advise, stored.game, list(values), min(max(number, 1), 3))
            _cache[key] = future
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    try:
        return future.result(timeout=WAIT_S)
    except TimeoutError:
        return None
    except Exception:  # advice is a help, never a reason for the game page to fail
        current_app.logger.exception("advisor failed")
        return None
