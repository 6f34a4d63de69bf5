"""`scoring.advisor` run in the background for the page: advice on the open throw,
the bank-or-throw-on hint of a Würfelpoker turn, and the review of a finished game.

The advisor's tables take seconds to build once (Würfelspiel's pass tables about
1.5 minutes, then cached on disk). `warm` starts that when a game is created or
opened. Everything runs on one worker thread: the machine has few cores, and two
builds at once would only race for them. A request waits briefly for a result whose
tables are loaded and not at all while they are being built; until the result is
there the page ranks by points and polls again. Results are kept per game version,
because phones poll every few seconds. The worker and the results belong to the app
(`app.extensions["dicecam.advice"]`), not to the process: two apps (two test
fixtures, two data folders) never share them.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, TimeoutError
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from dicecam.webapp.games import Stored

READY, PENDING, BUILDING, OFF = "ready", "pending", "building", "off"
WAIT_S = 1.5
_CACHE_SIZE = 256

_log = logging.getLogger(__name__)


class Advisor:
    """One app's advice worker: a single thread, its results per game version, and
    the variants whose tables it has started to build."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicecam-advice")
        self.jobs: OrderedDict[tuple, Future] = OrderedDict()
        self.warm: dict[tuple[str, str | None], Future] = {}
        # How far each table build has got: (step, done, total, started), as the advisor
        # reports it; `started` is when the build's first report came (time.monotonic).
        self.progress: dict[tuple[str, str | None], tuple[str, int, int, float]] = {}
        self.lock = threading.Lock()


def init_app(app: Flask) -> None:
    app.extensions["dicecam.advice"] = Advisor()


def _advisor() -> Advisor:
    return current_app.extensions["dicecam.advice"]


@dataclass(frozen=True)
class Result:
    """A background result: `status` READY (with `value`), PENDING (computing),
    BUILDING (the variant's tables are still being built), or OFF (no advice)."""

    status: str
    value: Any = None


def enabled() -> bool:
    """Advice is on in this app's config and the advisor is installed."""
    if not current_app.config.get("ADVICE", True):
        return False
    try:
        import dicecam.scoring.advisor  # noqa: F401  (only: is it there?)
    except ImportError:
        return False
    return True


def _tables_key(stored: Stored) -> tuple[str, str | None]:
    # The advisor keeps tables per cache folder (DICECAM_CACHE), so warm per folder too.
    return stored.variant.id, os.environ.get("DICECAM_CACHE")


def warm(stored: Stored) -> None:
    """Start building (or loading) the tables of the game's variant, once per process."""
    if not enabled():
        return
    key = _tables_key(stored)
    state = _advisor()
    with state.lock:
        if key not in state.warm:
            def heard(step: str, done: int, total: int) -> None:
                started = state.progress[key][3] if key in state.progress else time.monotonic()
                state.progress[key] = (step, done, total, started)

            state.warm[key] = state.pool.submit(
                _warm_up, stored.variant.id, tuple(stored.game.players), dict(stored.game.settings), heard
            )


def build_progress(stored: Stored) -> dict | None:
    """While the variant's tables are being built: how far (`step`, `done` of `total`) and
    for how many `seconds` it has run."""
    key = _tables_key(stored)
    state = _advisor()
    if tables_ready(stored) or key not in state.progress:
        return None
    step, done, total, started = state.progress[key]
    return {"step": step, "done": done, "total": total, "seconds": round(time.monotonic() - started)}


def tables_ready(stored: Stored) -> bool:
    """Whether the variant's tables are in memory (so advice takes milliseconds)."""
    future = _advisor().warm.get(_tables_key(stored))
    return future is None or future.done()


def _warm_up(variant_id: str, players: tuple[str, ...], settings: dict,
             heard: Callable[[str, int, int], None] | None = None) -> None:
    from dicecam.scoring import Game
    from dicecam.scoring.advisor import advise
    from dicecam.scoring.advisor.progress import listening

    game = Game.new(variant_id, players, settings)
    try:
        # The first throw of a new game touches every table the variant's advice needs.
        with listening(heard or (lambda step, done, total: None)):
            advise(game, list(range(1, game.variant.dice_count + 1)), 1)
    except Exception:
        _log.exception("advisor tables for %s could not be built", variant_id)


def _run(stored: Stored, kind: str, fn: Callable[..., Any], *args: Any) -> Result:
    """`fn(game, *args)` on the worker, once per game version; wait only if it is quick."""
    if not enabled():
        return Result(OFF)
    warm(stored)
    key = (stored.id, stored.version, kind, *args)
    state = _advisor()
    with state.lock:
        future = state.jobs.get(key)
        if future is None:
            future = state.pool.submit(fn, stored.game, *args)
            state.jobs[key] = future
            while len(state.jobs) > _CACHE_SIZE:
                state.jobs.popitem(last=False)
    ready = tables_ready(stored)
    try:
        value = future.result(timeout=WAIT_S if ready else 0)
    except TimeoutError:
        return Result(PENDING if ready else BUILDING)
    except Exception:  # advice is a help, never a reason for the game page to fail
        current_app.logger.exception("advisor failed")
        return Result(OFF)
    return Result(OFF) if value is None else Result(READY, value)


# ---------------------------------------------------------------- jobs (worker thread)


def _advise(game, values: tuple[int, ...], number: int) -> dict | None:
    from dicecam.scoring.advisor import advise

    try:
        return advise(game, list(values), number).to_dict()
    except ValueError:  # dice that do not fit the situation: no advice, not an error
        return None


def _bank(game, values: tuple[int, ...], keep: tuple[int, ...]) -> dict | None:
    """Würfelpoker after a set-aside: the advice on that set-aside, bank or throw on."""
    from dicecam.scoring.advisor import advise

    try:
        actions = advise(game.undo(), list(values)).to_dict()["actions"]
    except ValueError:
        return None
    by_bank = {a["bank"]: a["expected"] for a in actions if sorted(a["keep"]) == sorted(keep)}
    if set(by_bank) != {True, False}:
        return None
    return {
        "bank": by_bank[True] >= by_bank[False],
        "expected_bank": by_bank[True],
        "expected_again": by_bank[False],
    }


def _review(game) -> dict[str, list[dict]]:
    from dicecam.scoring.advisor import review

    return {player: [r.to_dict() for r in turns] for player, turns in review(game).items()}


# ---------------------------------------------------------------- what the page asks


def advise_throw(stored: Stored, values: list[int], number: int) -> Result:
    """`Advice.to_dict()` for the current player's dice after throw `number` (1-3)."""
    return _run(stored, "advise", _advise, tuple(values), min(max(number, 1), 3))


def advise_bank(stored: Stored) -> Result:
    """Würfelpoker, after a set-aside: `{bank, expected_bank, expected_again}`."""
    game = stored.game
    ts = game.turn_state
    last = game.events[-1].to_dict() if game.events else None
    if ts is None or not ts.turn_total or not last or not last.get("keep"):
        return Result(OFF)
    return _run(stored, "bank", _bank, tuple(last["throw"]), tuple(last["keep"]))


def review_game(stored: Stored) -> Result:
    """`scoring.advisor.review(game)` as `{player: [TurnReview.to_dict()]}`."""
    return _run(stored, "review", _review)
