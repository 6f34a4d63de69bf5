"""Real dice painted as numeral dice: a real face's pips inpainted and a digit drawn over it.

Numeral dice (digits, d8, d10) among pip dice must not be read as pip dice, and no shared
photo shows one. Rendered numeral dice teach and judge the renderer's look (C373); these
keep a real die's colour, light, blur and photo and change only its mark, for
`benchmarks/numeral_probe.py` and its tests. Taught as decoys they did not carry to
rendered numerals (C384-C385c, models/HISTORY.md).
"""

from __future__ import annotations

import cv2
import numpy as np

from dicecam.training.render.clutter import numeral_mark
from dicecam.training.render.drawing import text_at
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import match_boxes
from dicecam.vision.reader import DiceReader


def numeral_face(image: np.ndarray, box: np.ndarray, rng: np.random.Generator) -> bool:
    """Paint the die face in `box` of `image` (in place) as a numeral die's: its pips (small
    blobs of the face's minority shade, by Otsu's split of the box's inner part) inpainted
    from the face around them, then a number drawn in their colour, 0.45-0.7 of the face
    tall, at any angle, as soft as the photo. False (nothing painted) where the face is too
    small or shows no pips."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = np.round(box).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    side = min(x1 - x0, y1 - y0)
    if side < 8:
        return False
    face = image[y0:y1, x0:x1]
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    # The box's corners may show the table: split only its inner part into face and pips.
    inner = np.zeros(grey.shape, bool)
    m = max(1, side // 8)
    inner[m:-m, m:-m] = True
    level, _ = cv2.threshold(grey[inner], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = (grey > level) & inner
    pips = bright if bright.sum() < 0.5 * inner.sum() else ~bright & inner
    # A pip is a small blob; a large one is the face's edge or the table, not a pip.
    n, parts, stats, _ = cv2.connectedComponentsWithStats(pips.astype(np.uint8), connectivity=8)
    small = np.zeros(n, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] <= 0.08 * side * side
    pips = small[parts]
    if not pips.any() or abs(float(grey[pips].mean()) - float(grey[inner & ~pips].mean())) < 25:
        return False
    ink = np.median(face[pips], axis=0).astype(np.float32)
    mask = cv2.dilate(pips.astype(np.uint8) * 255, np.ones((3, 3), np.uint8))
    image[y0:y1, x0:x1] = cv2.inpaint(face, mask, 3, cv2.INPAINT_TELEA)
    marked = numeral_mark(str(int(rng.integers(1, 7)) if rng.random() < 0.7 else int(rng.integers(1, 21))), rng)
    # The digit drawn as a mask first, softened as the photo's small dice are, then inked.
    drawn = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    text_at(drawn, marked, ((x1 - x0) / 2, (y1 - y0) / 2), side * rng.uniform(0.45, 0.7), (255, 255, 255), rng,
            angle=float(rng.uniform(0, 360)))
    alpha = cv2.GaussianBlur(drawn[..., 0].astype(np.float32) / 255, (0, 0), float(rng.uniform(0.3, 0.9)))[..., None]
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + ink * alpha, 0, 255).astype(np.uint8)
    return True


def painted_photo(reader: DiceReader, image: np.ndarray, truth: Dice, rng: np.random.Generator, *,
                  share: float) -> tuple[np.ndarray, np.ndarray, Dice]:
    """`image` with a `share` of the dice `reader` boxes (told `truth`'s count) painted as
    numeral dice: the painted photo, the painted faces' boxes, and the labelled dice left as pip dice."""
    image = image.copy()
    first = reader.read(image, count=len(truth))
    faces, painted = [], []
    for t, j in match_boxes(truth.boxes, first.boxes):
        if rng.random() < share and numeral_face(image, first.boxes[j], rng):
            faces.append(first.boxes[j])
            painted.append(t)
    pips = np.setdiff1d(np.arange(len(truth)), painted)
    return image, np.array(faces, np.float32).reshape(-1, 4), truth[pips]
