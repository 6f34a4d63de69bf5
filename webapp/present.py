"""The JSON shapes the API answers with (and the page renders)."""

from __future__ import annotations

import json
import sqlite3

from flask import url_for

from dicecam.webapp import games
from dicecam.webapp import advice
from dicecam.webapp.advice_json import bank_advice, review_json, throw_advice
from dicecam.webapp.games import Stored


def throw_urls(game_id: str, row: sqlite3.Row) -> dict:
    if not row["photo_sha256"]:
        return {"photo_url": None, "annotated_url": None}
    return {
        "photo_url": url_for("api.throw_photo", game_id=game_id, throw_id=row["id"], kind="photo"),
        "annotated_url": url_for(
            "api.throw_photo", game_id=game_id, throw_id=row["id"], kind="annotated"
        ),
    }


def throw_json(stored: Stored, row: sqlite3.Row, lang: str, *, current: bool = False) -> dict:
    """A throw as the API shows it; `current` adds the options (and advice) for it."""
    dice = json.loads(row["dice"])
    out = {
        "throw_id": row["id"],
        "seq": row["seq"],
        "number": row["number"],
        "player": row["player"],
        "status": row["status"],
        "source": row["source"],
        "dice": dice,
        "dice_read": json.loads(row["dice_read"]),
        "corrections": json.loads(row["corrections"]),
        "entry": json.loads(row["entry"]) if row["entry"] else None,
        "history": json.loads(row["history"]),
        "photo_sha256": row["photo_sha256"],
        "annotated_sha256": row["annotated_sha256"],
        "width": row["width"],
        "height": row["height"],
        "low_confidence": row["low_confidence"],
        "read_ms": row["read_ms"],
        "created": row["created"],
        "created_by": row["created_by"],
        **throw_urls(stored.id, row),
    }
    if current:
        values = games.values_of(dice)
        need = games.expected_dice(stored)
        variant = stored.variant
        options = games.options_for(stored, values)
        for opt in options:
            if "box" in opt:
                opt.setdefault("column", None)
                opt["label"] = variant.label(opt["box"], lang)
        out["expected_dice"] = need
        out["bust"] = variant.family == "push" and len(values) == need and not options
        if len(values) == need:
            out.update(throw_advice(stored, values, row["number"], options))
        else:
            out.update(options=options, ranked_by="points", advice=None, advice_status="off", advice_exact=None)
    return out


def state_json(db: sqlite3.Connection, stored: Stored, lang: str) -> dict:
    """The game state of the contract plus what a page needs to draw it."""
    advice.warm(stored)  # the game is being shown: have its advice ready by the first throw
    state = stored.game.state()
    variant = stored.variant
    turn = games.throws_of_turn(db, stored)
    row = games.open_throw(db, stored)
    sheet_family = variant.family != "push"
    return {
        "id": stored.id,
        "version": stored.version,
        **state,
        "variant_name": variant.name(lang),
        "family": variant.family,
        "columns": variant.columns,
        "boxes": list(variant.boxes),
        "labels": {box: variant.label(box, lang) for box in variant.boxes},
        "dice_count": variant.dice_count,
        "expected_dice": games.expected_dice(stored, state),
        "throw_number": len(turn),
        "max_throws": games.SHEET_THROWS if sheet_family else None,
        "throw": throw_json(stored, row, lang, current=True) if row is not None else None,
        "bank_advice": bank_advice(stored) if not sheet_family and row is None and not state["finished"] else None,
        "review": review_json(stored, lang) if state["finished"] else None,
        "can_undo": bool(stored.events),
        "events": len(stored.events),
        "created": stored.created,
        "updated": stored.updated,
    }
