"""The games' photo throws as a labelled photo folder: what the players checked at the table,
in the shared datasets' format (`labels.jsonl` beside the images), so the reader can be
measured (`dicecam eval`) and taught on real game tables.

A throw's labels are its dice as the players left them (their corrections applied), in
the photo as it was read. Only what the players vouched for goes in: by default the
throws entered on the sheet (scored with, after any correction) and any throw a player
corrected; with `corrected_only` the corrected ones alone. A label file must hold every
die of its photo, so a throw is left out where a die has no place in the photo (typed in
by hand) or where the photo held dice beyond the throw (those are nobody's labels).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from dicecam.vision.dataset import LABELS_FILE
from dicecam.webapp.photos import Photos
from dicecam.webapp.rows import ENTERED, VOID, ThrowRow
from dicecam.webapp.store import Store

IMAGES = "images"
JPEG_QUALITY = 95

# Why a photo throw was left out, in the words `dicecam export-throws` prints.
NOT_CHECKED = "not entered or corrected"
TYPED_DIE = "a die typed in (no place in the photo)"
DICE_BEYOND = "dice in the photo beyond the throw"
NO_PHOTO = "photo missing from the store"
UNREADABLE = "photo unreadable or not the size it was read at"
SAME_PHOTO = "the same photo as another throw"
OFF_PHOTO = "a die's box not on the photo"


class ExportError(ValueError):
    """An export that cannot be made (the folder is not empty); its message says why."""


@dataclass
class ExportReport:
    """What an export wrote and what it left out, by reason."""

    photos: int = 0
    dice: int = 0
    corrected: int = 0
    left_out: Counter[str] = field(default_factory=Counter)


def export_throws(store: Store, photos: Photos, out: Path, *, split: str = "dev", corrected_only: bool = False,
                  game_ids: Collection[str] | None = None) -> ExportReport:
    """Write the photo throws of `game_ids` (every game: None) into the empty or new folder
    `out` (`images/` and `labels.jsonl`, rows in `split`); what was written and left out.

    Raises `ExportError`, before writing anything, for a folder that holds anything
    already or a game id that is not there.
    """
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(f"{out} is not an empty folder: choose a new one (nothing was written)")
    chosen = store.games(game_ids)
    if game_ids is not None:
        missing = sorted(set(game_ids) - {g.id for g in chosen})
        if missing:
            raise ExportError(f"no game {', '.join(missing)} here (nothing was written)")
    report = ExportReport()
    rows: list[str] = []
    seen: set[str] = set()
    for game in chosen:
        for row in store.throws(game.id):
            if row.source != "photo" or not row.photo_sha256:
                continue
            why = _left_out(row, corrected_only=corrected_only, seen=seen)
            image, why = (None, why) if why else _image_as_read(photos, row)
            if image is None:
                report.left_out[why or UNREADABLE] += 1
                continue
            if not rows:
                (out / IMAGES).mkdir(parents=True, exist_ok=True)
            name = f"{IMAGES}/{row.photo_sha256[:24]}.jpg"
            ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if not ok:
                report.left_out[UNREADABLE] += 1
                continue
            (out / name).write_bytes(jpeg.tobytes())
            seen.add(row.photo_sha256)
            rows.append(json.dumps(_label(row, name, split)))
            report.photos += 1
            report.dice += len(row.dice)
            report.corrected += bool(row.corrections)
    if rows:
        (out / LABELS_FILE).write_text("\n".join(rows) + "\n", encoding="utf-8")
    return report


def _left_out(row: ThrowRow, *, corrected_only: bool, seen: set[str]) -> str | None:
    """Why `row` (a photo throw) cannot be labelled, or None."""
    checked = bool(row.corrections) or (row.status == ENTERED and not corrected_only)
    if row.status == VOID or not checked:
        return NOT_CHECKED
    if any(not d.get("box") for d in row.dice):
        return TYPED_DIE
    if any(not _on_photo(d["box"], row.width, row.height) for d in row.dice):
        return OFF_PHOTO
    if row.left_out:
        return DICE_BEYOND
    if row.photo_sha256 in seen:
        return SAME_PHOTO
    return None


def _on_photo(box: list[float], width: int | None, height: int | None) -> bool:
    """Whether `box` (a die's box as a client stored it) is a box on a photo of that size: a
    label file with one off it would mislead `dicecam eval` and any training (the reader's
    boxes are clipped to the photo; a pixel of rounding is allowed)."""
    if width is None or height is None:
        return True  # no size kept: `_image_as_read` decides
    x0, y0, x1, y1 = box
    return -1 <= x0 < x1 <= width + 1 and -1 <= y0 < y1 <= height + 1


def _image_as_read(photos: Photos, row: ThrowRow) -> tuple[np.ndarray | None, str | None]:
    """The throw's photo as the reader saw it (decoded and shrunk as reading does, so the
    dice boxes fit it); None and why where it is gone, unreadable or not that size."""
    from dicecam.vision.decode import ImageError
    from dicecam.webapp.recognition import as_read, decode

    try:
        data = photos.get(row.photo_sha256 or "")
    except FileNotFoundError:
        return None, NO_PHOTO
    try:
        image = as_read(decode(data))
    except ImageError:
        return None, UNREADABLE
    if (image.shape[1], image.shape[0]) != (row.width, row.height):
        return None, UNREADABLE
    return image, None


def _label(row: ThrowRow, image: str, split: str) -> dict:
    """The throw as one row of `labels.jsonl`, with where it came from beside the labels."""
    return {
        "image": image,
        "split": split,
        "size": [row.width, row.height],
        "dice": [{"value": int(d["value"]), "box": [round(float(v), 1) for v in d["box"]]} for d in row.dice],
        "source_photo": row.photo_sha256,
        "game": row.game_id,
        "throw": row.id,
        "read": [int(d["value"]) for d in row.dice_read],
        "corrected": bool(row.corrections),
    }

