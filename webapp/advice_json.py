"""The advisor's answers laid into the API's JSON: options ranked by expected final
score (best first, each with its loss against the best), the keep hint of throws 1
and 2, the bank-or-throw-on hint of a Würfelpoker turn, and the review of a game.
"""

from __future__ import annotations

from dicecam.webapp import advice
from dicecam.webapp.games import Stored

# Losses under this are rounding noise of the tables, not a mistake worth showing.
MIN_LOSS = 0.05
# A die read with less confidence than this is shown as unsure (where a throw has no threshold).
DEFAULT_LOW = 0.7


def _by_box(actions: list[dict]) -> dict[tuple, dict]:
    return {(a["box"], a.get("column")): a for a in actions}


def _rank(valued: list[tuple[float | None, dict]]) -> list[dict]:
    """Options sorted by expected score (stable: equal values keep the points order)."""
    known = [v for v, _ in valued if v is not None]
    top = max(known, default=None)
    # Unrounded: the page rounds every value once, the tip and its option alike.
    for value, opt in valued:
        opt["expected"] = value
        opt["loss"] = None if value is None or top is None else top - value
    ranked = sorted(valued, key=lambda vo: float("inf") if vo[0] is None else -vo[0])
    out = [opt for _, opt in ranked]
    for i, opt in enumerate(out):
        opt["advised"] = i == 0 and opt["expected"] is not None
    return out


def rank_sheet_options(options: list[dict], box_advice: dict) -> list[dict]:
    """Kniffel family: the box options valued by the advisor's box advice."""
    actions = _by_box(box_advice["actions"])
    valued: list[tuple[float | None, dict]] = []
    for opt in options:
        a = actions.get((opt["box"], opt.get("column")))
        valued.append((None if a is None else a["expected"], opt))
    return _rank(valued)


def rank_push_options(options: list[dict], push_advice: dict) -> list[dict]:
    """Würfelpoker: each set-aside valued by its better follow-up, which is named in
    `bank` (true: then bank; false: then throw again)."""
    follow: dict[tuple, dict[bool, float]] = {}
    for a in push_advice["actions"]:
        follow.setdefault(tuple(sorted(a["keep"])), {})[a["bank"]] = a["expected"]
    valued: list[tuple[float | None, dict]] = []
    for opt in options:
        f = follow.get(tuple(sorted(opt["keep"])))
        if not f:
            valued.append((None, opt))
            continue
        opt["bank"] = f.get(True, float("-inf")) >= f.get(False, float("-inf"))
        opt["expected_bank"] = f.get(True)
        opt["expected_again"] = f.get(False)
        valued.append((max(f.values()), opt))
    return _rank(valued)


def unsure_positions(dice: list[dict], low: float | None = None) -> list[int]:
    """Indices of the dice read with a confidence under `low` (the reader's threshold)."""
    low = DEFAULT_LOW if low is None else low
    return [i for i, d in enumerate(dice) if d.get("confidence") is not None and d["confidence"] < low]


def _tip(value: dict | None) -> tuple | None:
    """What a player would do on the advisor's word: which dice to hold (by position),
    which box to fill, whether to bank."""
    best = (value or {}).get("best")
    if not best:
        return None
    if "box" in best:
        return ("box", best["box"], best.get("column"))
    return ("keep", tuple(sorted(best.get("positions") or ())), best.get("bank"))


def _tip_depends(stored: Stored, values: list[int], number: int, tip: tuple | None,
                 unsure: list[int]) -> tuple[bool, bool]:
    """(depends, pending): whether the tip would change if an unsure die showed another
    face; pending while the advisor is still working on those other faces."""
    pending = False
    for i in unsure:
        for face in range(1, 7):
            if face == values[i]:
                continue
            other = [*values[:i], face, *values[i + 1:]]
            result = advice.advise_throw(stored, other, number)
            if result.status in (advice.PENDING, advice.BUILDING):
                pending = True
            elif result.status == advice.READY and _tip(result.value) != tip:
                return True, False
    return pending, pending


def throw_advice(stored: Stored, dice: list[dict], number: int, options: list[dict],
                 low: float | None = None) -> dict:
    """The advice fields of the open throw; `options` come back ranked when advised.

    `advice` is the advisor's answer to this throw (keeps after throw 1 or 2, boxes
    after throw 3, set-asides in Würfelpoker); the box options carry their own values
    from a box advice, since a player may enter a box after any throw. `unsure` lists
    the dice read unsurely; `advice_waits` is true when the tip would change if one of
    them showed another face, so the page asks for a look before it shows the tip.
    """
    values = [d["value"] for d in dice]
    last = stored.game.display().throws_per_turn  # None: as many throws as the player dares
    main = advice.advise_throw(stored, values, number)
    results = [main]
    boxes = main
    if last and number < last:
        boxes = advice.advise_throw(stored, values, last)
        results.append(boxes)
    statuses = {r.status for r in results}
    status = next(s for s in (advice.BUILDING, advice.PENDING, advice.OFF, advice.READY) if s in statuses)
    ranked = options
    if boxes.status == advice.READY and options:
        ranked = (rank_sheet_options if "box" in options[0] else rank_push_options)(options, boxes.value)
    unsure = unsure_positions(dice, low)
    waits = False
    if unsure and main.status == advice.READY:
        waits, pending = _tip_depends(stored, values, number, _tip(main.value), unsure)
        if pending:
            status = advice.PENDING
    return {
        "options": ranked,
        "ranked_by": "advice" if ranked and "expected" in ranked[0] else "points",
        "advice": main.value,
        "advice_status": status,
        "advice_exact": main.value["exact"] if main.value else None,
        "unsure": unsure,
        "advice_waits": waits,
    }


def bank_advice(stored: Stored) -> dict | None:
    """Würfelpoker between a set-aside and the next throw: bank now or throw on."""
    result = advice.advise_bank(stored)
    if result.status == advice.OFF:
        return None
    return {"status": result.status, **(result.value or {})}


def review_json(stored: Stored, lang: str) -> dict | None:
    """A finished Kniffel-family game: per player the choices that cost the most."""
    variant = stored.variant
    display = stored.game.display()
    if not display.boxes or not stored.game.finished:  # only a sheet's box choices are reviewed
        return None
    result = advice.review_game(stored)
    if result.status == advice.OFF:
        return None
    players: dict[str, list[dict]] = {}
    for player, turns in (result.value or {}).items():
        shown = []
        for turn in turns:
            if turn["loss"] < MIN_LOSS:
                continue
            for side in ("chosen", "best"):
                turn[side]["label"] = variant.label(turn[side]["box"], lang)
            shown.append(turn)
        players[player] = shown
    return {
        "status": result.status,
        # The advisor is exact for one column; Würfelspiel's values are a policy's estimate.
        "exact": len(display.columns) == 1,
        "players": players if result.status == advice.READY else None,
    }
