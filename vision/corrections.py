"""Labels corrected where the photo shows otherwise, to score a reader against what the photos show.

A corrections file is JSON Lines, one fault per line, each checked by eye on the photo:

    {"dataset": "byler_d6", "image": "images/test/IMG_1.jpg", "box": [x0, y0, x1, y1],
     "labelled": 5, "shows": 6, "why": "..."}

`labelled` is the value the label gives the die with that very box (to a tenth of a
pixel); null means the photo shows a die at `box` that has no label, which is then added.
A photo whose dice were never labelled at all (too many to add one by one) is named by

    {"dataset": "roboflow_dice", "image": "images/dev/x.jpg", "unlabelled_photo": true, "why": "..."}

and left out of the score. A
correction that no longer finds its die is refused, so a stale file fails loudly
instead of scoring against labels nobody checked. Corrections only ever change what a
reading is scored against, never what a model learns from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from dicecam.vision.boxes import centres, inside
from dicecam.vision.dataset import DatasetError, LabelledPhoto
from dicecam.vision.detections import Dice

#: A correction names its die by the label's own box, to this many pixels.
SAME_BOX = 0.1


class CorrectionError(DatasetError):
    """A corrections file that cannot be used; the message names the line."""


@dataclass(frozen=True)
class Correction:
    """One label fault: at `box` the photo shows `shows`; the label says `labelled` (None: no label)."""

    dataset: str
    image: str
    box: tuple[float, float, float, float]
    labelled: int | None
    shows: int
    why: str = ""
    #: The whole photo's dice were never labelled: it is left out of the score, not corrected.
    unlabelled_photo: bool = False


def read_corrections(path: str | Path) -> list[Correction]:
    """Every correction in a JSON Lines file; `CorrectionError` naming the line for a bad one."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CorrectionError(f"cannot read the corrections file {path}: {exc}") from None
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if row.get("unlabelled_photo") is True:
                out.append(Correction(str(row["dataset"]), str(row["image"]), (0.0, 0.0, 0.0, 0.0), None, 0,
                                      str(row.get("why", "")), unlabelled_photo=True))
                continue
            box = tuple(float(v) for v in row["box"])
            labelled = None if row["labelled"] is None else int(row["labelled"])
            shows = int(row["shows"])
            if len(box) != 4 or not (1 <= shows <= 6) or labelled == shows:
                raise ValueError
            why = str(row.get("why", ""))
            out.append(Correction(str(row["dataset"]), str(row["image"]), box, labelled, shows, why))
        except (ValueError, TypeError, KeyError):
            raise CorrectionError(
                f'{path}, line {number}: expected {{"dataset", "image", "box": [x0, y0, x1, y1], '
                f'"labelled": 1-6 or null, "shows": 1-6 (not the labelled value)}} '
                f'or {{"dataset", "image", "unlabelled_photo": true}}') from None
    return out


def corrected(photos: list[LabelledPhoto], corrections: list[Correction], dataset: str
              ) -> tuple[list[LabelledPhoto], int]:
    """`photos` with the corrections of `dataset` applied to those among them, and how many were applied.

    Corrections of photos not in `photos` (another split) are skipped; a photo named as never
    labelled is left out (and counts as one correction applied).
    """
    by_image = {photo.image: i for i, photo in enumerate(photos)}
    photos = list(photos)
    applied = 0
    dropped = set()
    for fix in corrections:
        if fix.dataset != dataset or fix.image not in by_image:
            continue
        i = by_image[fix.image]
        if fix.unlabelled_photo:
            dropped.add(i)
        else:
            photos[i] = replace(photos[i], dice=correct(photos[i].dice, fix))
        applied += 1
    return [photo for i, photo in enumerate(photos) if i not in dropped], applied


def correct(dice: Dice, fix: Correction) -> Dice:
    """A photo's labelled `dice` with one correction applied; `CorrectionError` if it no longer fits them."""
    box = np.array([fix.box], np.float32)
    if fix.labelled is None:
        if inside(centres(box), dice.boxes).any():
            raise CorrectionError(f"{fix.dataset}/{fix.image}: the die at {list(fix.box)} has a label already")
        return Dice(np.concatenate([dice.boxes, box]), np.append(dice.values, fix.shows),
                    np.append(dice.confidences, 1.0))
    hits = np.flatnonzero(np.all(np.abs(dice.boxes - box) < SAME_BOX, axis=1))
    if len(hits) != 1 or dice.values[hits[0]] != fix.labelled:
        raise CorrectionError(f"{fix.dataset}/{fix.image}: the correction at {list(fix.box)} "
                              f"matches no die labelled {fix.labelled}")
    values = dice.values.copy()
    values[hits[0]] = fix.shows
    return Dice(dice.boxes, values, dice.confidences)
