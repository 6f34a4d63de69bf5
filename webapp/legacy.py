"""Games kept by an earlier release, made loadable by this one (used by the stores' migrations)."""

from __future__ import annotations

import json

from dicecam.scoring import Game, ScoringError, repair_names
from dicecam.webapp.rows import Summary


def upgrade_log(log: str) -> tuple[str, Summary]:
    """A stored game file as this release keeps it, and its start-page summary.

    Names an earlier release let through and this one refuses (lone surrogates that broke
    the start page, control and bidi characters) are repaired (`scoring.repair_names`). A
    game that still cannot be replayed keeps its file as it is, with a summary of what can
    be told without replaying it: the start page lists it, and opening it says it is damaged.
    """
    data = json.loads(log)
    fixed = repair_names(data) if isinstance(data, dict) else data
    text = log if fixed is data else json.dumps(fixed, ensure_ascii=False)
    try:
        game = Game.from_dict(fixed)
    except (ScoringError, ValueError, TypeError):
        players = fixed.get("players") if isinstance(fixed, dict) else None
        names = tuple(p for p in players if isinstance(p, str)) if isinstance(players, list) else ()
        events = fixed.get("events") if isinstance(fixed, dict) else None
        return text, Summary(players=names, current_player=None, totals={}, finished=False, winner=None,
                             events=len(events) if isinstance(events, list) else 0)
    return text, Summary.of_state(game.state(), len(game.events))
