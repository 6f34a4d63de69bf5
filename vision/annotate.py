"""Draw a reading onto a copy of the photo: for the web page and for settling disputes.

Confident dice get a solid green box and their value; dice under the
low-confidence line get a dashed orange box and a '?'; dice the advisor says to
keep get a thick blue box; dice a known count left out (`left_out`) a dashed grey
box and no value, so anyone checking the photo sees what was not counted. Sizes
follow the photo, so labels stay readable whether the photo is 640 or 4032 pixels wide.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from dicecam.vision.detections import UNSURE_BELOW, Dice

# BGR
CONFIDENT = (60, 200, 60)
UNCERTAIN = (0, 140, 255)
KEEP = (255, 160, 0)
MISSED = (255, 0, 255)
LEFT_OUT = (215, 215, 215)  # light grey on a dark rim: seen on white and on dark tables
LEFT_OUT_RIM = (50, 50, 50)
WRONG = (40, 40, 230)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(
    image: np.ndarray,
    dice: Dice,
    *,
    keep: Iterable[int] | None = None,
    low_confidence: float = UNSURE_BELOW,
    left_out: Dice | None = None,
) -> np.ndarray:
    """A BGR copy of `image` with each die's box and value drawn on it.

    `keep` holds indices into `dice` of the dice to keep (highlighted); dice
    whose confidence is under `low_confidence` are marked as uncertain; `left_out`
    (dice seen that a known count did not take) get a dashed grey box.
    The input is never changed.
    """
    canvas = _bgr_copy(image)
    kept = _indices(keep, len(dice))
    style = _Style(canvas.shape)
    for die in left_out if left_out is not None else ():
        _box(canvas, die.box, LEFT_OUT_RIM, style.thick + 2, dashed=True, dash=style.dash)
        _box(canvas, die.box, LEFT_OUT, style.thick, dashed=True, dash=style.dash)
    for i, die in enumerate(dice):
        uncertain = die.confidence < low_confidence
        text = f"{die.value}?" if uncertain else str(die.value)
        if i in kept:
            colour, thickness, dashed = KEEP, style.thick * 2, uncertain
        else:
            colour, thickness, dashed = (UNCERTAIN, style.thick, True) if uncertain else (CONFIDENT, style.thick, False)
        _box(canvas, die.box, colour, thickness, dashed=dashed, dash=style.dash)
        _label(canvas, die.box, text, colour, style)
    return canvas


def annotate_misses(
    image: np.ndarray,
    predicted: Dice,
    labelled: Dice,
    pairs: np.ndarray,
    *,
    low_confidence: float = UNSURE_BELOW,
) -> np.ndarray:
    """Show where a reading differs from its labels.

    `pairs` are `(labelled_index, predicted_index)` rows from
    `vision.metrics.match_boxes`. Predictions are drawn as by `annotate`; a
    wrong value is labelled "read 3, is 5" in red, a labelled die nothing
    matched gets a dashed magenta box "missed 5", and a prediction that matched
    no label is labelled "extra".
    """
    canvas = annotate(image, predicted, low_confidence=low_confidence)
    style = _Style(canvas.shape)
    pairs = np.asarray(pairs, np.int64).reshape(-1, 2)
    matched_labels = set(pairs[:, 0].tolist())
    matched_preds = set(pairs[:, 1].tolist())
    for t, p in pairs.tolist():
        truth, read = int(labelled.values[t]), int(predicted.values[p])
        if truth != read:
            box = tuple(predicted.boxes[p])
            _box(canvas, box, WRONG, style.thick * 2, dashed=False, dash=style.dash)
            _label(canvas, box, f"read {read}, is {truth}", WRONG, style)
    for t in range(len(labelled)):
        if t not in matched_labels:
            box = tuple(labelled.boxes[t])
            _box(canvas, box, MISSED, style.thick, dashed=True, dash=style.dash)
            _label(canvas, box, f"missed {int(labelled.values[t])}", MISSED, style)
    for p in range(len(predicted)):
        if p not in matched_preds:
            box = tuple(predicted.boxes[p])
            _label(canvas, box, f"extra {int(predicted.values[p])}", WRONG, style)
    return canvas


class _Style:
    """Line and text sizes for a photo of this shape."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        short = min(shape[:2])
        # About 3% of the short side: 14 px on a 480-px photo, 90 px on a 3024-px one,
        # which is what stays readable once the page shrinks the photo to a phone screen.
        self.text_height = max(10, round(short * 0.03))
        base_height = cv2.getTextSize("0", _FONT, 1.0, 1)[0][1]
        self.font_scale = self.text_height / base_height
        self.text_thickness = max(1, round(self.text_height / 9))
        self.thick = max(1, round(short / 300))
        self.dash = max(4, round(short / 80))
        self.pad = max(2, round(self.text_height / 4))


def _bgr_copy(image: np.ndarray) -> np.ndarray:
    image = np.asarray(image)
    if image.dtype != np.uint8:
        raise ValueError(f"annotate needs an 8-bit photo, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image.copy()
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    raise ValueError(f"annotate needs an (H, W) or (H, W, 3) photo, got shape {image.shape}")


def _indices(keep: Iterable[int] | None, n: int) -> set[int]:
    if keep is None:
        return set()
    kept = {int(i) for i in keep}
    bad = sorted(i for i in kept if not 0 <= i < n)
    if bad:
        raise ValueError(f"keep refers to dice that are not there: {bad} (there are {n})")
    return kept


def _corners(canvas: np.ndarray, box) -> tuple[int, int, int, int]:
    h, w = canvas.shape[:2]
    x0, y0, x1, y1 = (round(float(v)) for v in box)
    return (min(max(x0, 0), w - 1), min(max(y0, 0), h - 1), min(max(x1, 0), w - 1), min(max(y1, 0), h - 1))


def _box(canvas: np.ndarray, box, colour, thickness: int, *, dashed: bool, dash: int) -> None:
    x0, y0, x1, y1 = _corners(canvas, box)
    if not dashed:
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thickness, cv2.LINE_AA)
        return
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
        for start in range(0, length + 1, 2 * dash):
            end = min(start + dash, length)
            p = (a[0] + (b[0] - a[0]) * start // max(length, 1), a[1] + (b[1] - a[1]) * start // max(length, 1))
            q = (a[0] + (b[0] - a[0]) * end // max(length, 1), a[1] + (b[1] - a[1]) * end // max(length, 1))
            cv2.line(canvas, p, q, colour, thickness, cv2.LINE_AA)


def _label(canvas: np.ndarray, box, text: str, colour, style: _Style) -> None:
    """Text on a filled tab above the box's top-left corner, or inside it at the photo's top edge."""
    w = canvas.shape[1]
    x0, y0, _, _ = _corners(canvas, box)
    (tw, th), baseline = cv2.getTextSize(text, _FONT, style.font_scale, style.text_thickness)
    tab_w, tab_h = tw + 2 * style.pad, th + baseline + 2 * style.pad
    left = min(x0, max(0, w - tab_w))
    top = y0 - tab_h if y0 - tab_h >= 0 else y0
    cv2.rectangle(canvas, (left, top), (left + tab_w, top + tab_h), colour, cv2.FILLED)
    origin = (left + style.pad, top + style.pad + th)
    cv2.putText(canvas, text, origin, _FONT, style.font_scale, _text_colour(colour), style.text_thickness, cv2.LINE_AA)


def _text_colour(background) -> tuple[int, int, int]:
    """Black on light tabs (orange), white on dark ones."""
    b, g, r = background
    return (0, 0, 0) if 0.114 * b + 0.587 * g + 0.299 * r > 140 else (255, 255, 255)
