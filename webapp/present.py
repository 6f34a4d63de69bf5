"""The JSON shapes the API answers with (and the page draws): the game's state with the
display facts a page needs to draw it without knowing any rule of the game."""

from __future__ import annotations

from flask import current_app, url_for

from dicecam.scoring import KeepRecap
from dicecam.vision.sizes import too_small_to_read
from dicecam.webapp import advice, games
from dicecam.webapp.advice_json import bank_advice, review_json, throw_advice, unsure_positions
from dicecam.webapp.games import Stored
from dicecam.webapp.qr import game_url
from dicecam.webapp.rows import ThrowRow
from dicecam.webapp.store import Store


def throw_urls(game_id: str, row: ThrowRow) -> dict:
    if not row.photo_sha256:
        return {"photo_url": None, "annotated_url": None}
    return {
        "photo_url": url_for("api.throw_photo", game_id=game_id, throw_id=row.id, kind="photo"),
        "annotated_url": url_for("api.throw_photo", game_id=game_id, throw_id=row.id, kind="annotated"),
    }


def _by_place(dice) -> dict[tuple, dict]:
    """The dice with a place in the photo, by their box: how a die is followed through corrections."""
    return {tuple(d["box"]): d for d in dice or () if d.get("box")}


def still_left_out(row: ThrowRow) -> list[dict]:
    """The dice the photo showed beyond the count that the throw has not taken since
    (value and box as read): what a player may still take instead of a die counted."""
    taken = _by_place(row.dice)
    return [{"value": d["value"], "box": d["box"]} for box, d in _by_place(row.left_out_dice).items()
            if box not in taken]


def read_and_now(row: ThrowRow) -> list[dict]:
    """Each die read with a place in the photo (`box`), its value as read and as the players
    left it (`now`: the die with that box after the corrections; None where they removed it),
    then each die the players counted from those left out (`read` None)."""
    now, read = _by_place(row.dice), _by_place(row.dice_read)
    return ([{"box": d["box"], "read": d["value"], "now": now[box]["value"] if box in now else None}
             for box, d in read.items()]
            + [{"box": d["box"], "read": None, "now": d["value"]} for box, d in now.items() if box not in read])


def throw_json(stored: Stored, row: ThrowRow, lang: str, *, current: bool = False) -> dict:
    """A throw as the API shows it; `current` adds the options (and advice) for it."""
    left_out = still_left_out(row)
    out = {
        "throw_id": row.id,
        "seq": row.seq,
        "number": row.number,
        "player": row.player,
        "status": row.status,
        "source": row.source,
        "dice": row.dice,
        "dice_read": row.dice_read,
        "corrections": row.corrections,
        "entry": row.entry,
        "history": row.history,
        "photo_sha256": row.photo_sha256,
        "annotated_sha256": row.annotated_sha256,
        "width": row.width,
        "height": row.height,
        "low_confidence": row.low_confidence,
        "read_ms": row.read_ms,
        "small_dice": small_dice(row),
        "left_out": row.left_out or 0,
        "left_out_dice": left_out,
        # Those not taken since (older throws kept no dice to take: all of them).
        "left_out_open": len(left_out) if row.left_out_dice is not None else row.left_out or 0,
        "created": row.created,
        "created_by": row.created_by,
        **throw_urls(stored.id, row),
    }
    if current:
        values = games.values_of(row.dice)
        need = games.expected_dice(stored)
        variant = stored.variant
        options = games.options_for(stored, values)
        for opt in options:
            if "box" in opt:
                opt.setdefault("column", None)
                opt["label"] = variant.label(opt["box"], lang)
        weigh_options(stored, options)
        out["expected_dice"] = need
        # Nothing to enter with the right dice: a bust (a sheet always offers a scratch).
        out["bust"] = len(values) == need and not options
        if len(values) == need:
            out.update(throw_advice(stored, row.dice, row.number, options, row.low_confidence))
        else:
            out.update(options=options, ranked_by="points", advice=None, advice_status="off",
                       advice_exact=None, unsure=unsure_positions(row.dice, row.low_confidence),
                       advice_waits=False)
    return out


def small_dice(row: ThrowRow) -> bool:
    """Whether a photo throw's dice came out so small in the photo that they are read far
    less reliably (`vision.sizes.READABLE_SIDE`): the page suggests moving closer."""
    boxes = [d["box"] for d in row.dice_read if d.get("box")]
    return row.source == "photo" and too_small_to_read(boxes)


def weigh_options(stored: Stored, options: list[dict]) -> None:
    """Each box option's weighted points (Würfelspiel: points x the column's weight) and the
    bonus it earns on top (`gain` beyond that), so the page can show "25 -> 75 · +35"."""
    weights = {c.column: c.weight for c in stored.game.display().columns}
    for opt in options:
        if "box" in opt:
            opt["weighted"] = opt["points"] * weights.get(opt["column"] or 1, 1)
            opt["bonus"] = opt["gain"] - opt["weighted"]


def state_json(store: Store, stored: Stored, lang: str) -> dict:
    """The game state of the contract plus what a page needs to draw it.

    `display` is the variant's display facts (`scoring.Variant.display`): the page draws
    the sheet from them alone. `last_entry` says what the last event did
    (`Game.describe`), for the undo question and for "another phone was faster";
    `advice_build` how far the advisor's one-time table build has got. Rendering starts
    no background work: advice already asked for is looked up.
    """
    state = stored.game.state()
    display = stored.game.display(lang).to_dict()
    weigh_columns(state, display)
    variant = stored.variant
    turn = games.throws_of_turn(store, stored)
    row = games.open_throw(store, stored)
    push = display["family"] == "push"
    return {
        "id": stored.id,
        "version": stored.version,
        **state,
        "variant_name": variant.name(lang),
        "family": display["family"],
        "columns": variant.columns,
        "boxes": list(variant.boxes),
        "labels": {box: variant.label(box, lang) for box in variant.boxes},
        "dice_count": variant.dice_count,
        "expected_dice": games.expected_dice(stored, state),
        "throw_number": len(turn),
        "max_throws": display["throws_per_turn"],
        "throw": throw_json(stored, row, lang, current=True) if row is not None else None,
        "bank_advice": bank_advice(stored) if push and row is None and not state["finished"] else None,
        "review": review_json(stored, lang) if state["finished"] else None,
        "advice_build": advice.build_progress(stored),
        "display": display,
        "last_entry": stored.game.describe(-1, lang) if stored.events else None,
        "set_aside": set_aside(stored, lang) if push else [],
        "links": links(stored.id),
        "can_undo": bool(stored.events),
        "events": len(stored.events),
        "created": stored.created,
        "updated": stored.updated,
    }


def _route(path: str, game_id: str) -> str | None:
    """`path` for this game, if the app serves it (None otherwise)."""
    rule = next((r for r in current_app.url_map.iter_rules() if r.rule == path), None)
    if rule is None:
        return None
    return url_for(rule.endpoint, game_id=game_id)


def links(game_id: str) -> dict:
    """Where the page follows the game live, and the link (and its QR code) another phone
    joins by."""
    return {
        "events": _route("/api/games/<game_id>/events", game_id=game_id),
        "qr": _route("/games/<game_id>/qr.svg", game_id=game_id),
        "game": game_url(game_id, current_app.config.get("PUBLIC_URL")),
    }


def weigh_columns(state: dict, display: dict) -> None:
    """Each sheet column's weight and its total times the weight (Würfelspiel's x1/x2/x3),
    so the page shows the weighted sums a player can add up by eye."""
    weights = [c["weight"] for c in display["columns"]]
    for sheet in state["sheet"].values():
        for weight, column in zip(weights, sheet.get("columns", ())):
            column["weight"] = weight
            column["weighted"] = column["total"] * weight


def set_aside(stored: Stored, lang: str) -> list[list[int]]:
    """Würfelpoker: the dice the current player set aside this turn, one list per throw."""
    game = stored.game
    out: list[list[int]] = []
    for index in range(len(stored.events) - 1, -1, -1):
        recap = game.recap(index)
        if not isinstance(recap, KeepRecap) or recap.player != game.current_player:
            break
        out.append(list(recap.keep))
    return out[::-1]
