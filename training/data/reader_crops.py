"""Face reader training crops cut from labelled photos the way the detector will cut them."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import cv2
import numpy as np

from dicecam.training.data import augment
from dicecam.training.shapes import NOT_A_DIE, READER_SIZE
from dicecam.vision.boxes import centres as box_centres

#: A reader crop is the detected top-face box grown by this factor (must match vision.reader).
CROP_SCALE = 1.35


def crop_square(img: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0,
                out: int = READER_SIZE) -> np.ndarray:
    """Rotated square window of `side` pixels centred at (cx, cy), resampled to `out` x `out`."""
    scale = out / max(side, 1.0)
    m = np.asarray(cv2.getRotationMatrix2D((cx, cy), angle, scale), np.float64)
    m[:, 2] += (out / 2 - cx, out / 2 - cy)
    # Shrinking a lot first with INTER_AREA keeps small pips from aliasing away.
    flags = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
    return cv2.warpAffine(img, m, (out, out), flags=flags, borderMode=cv2.BORDER_REPLICATE)


#: Degrees an upright photo's crop may turn either way: a phone is never held quite level.
UPRIGHT_TURN = 10.0


def positive_crop(img: np.ndarray, box: np.ndarray, rng: np.random.Generator, *, turn: bool = True,
                  out: int = READER_SIZE) -> np.ndarray:
    """A die crop (`out` pixels square) with the detector's typical errors: off-centre, too big or small, rotated.

    `turn`: any rotation; otherwise (an upright phone's tilted view, whose top face must
    stay above its side faces) at most `UPRIGHT_TURN` degrees either way.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    side = max(w, h) * CROP_SCALE * rng.uniform(0.85, 1.2)
    cx = (x0 + x1) / 2 + rng.normal(0, 0.06) * w
    cy = (y0 + y1) / 2 + rng.normal(0, 0.06) * h
    angle = rng.uniform(0, 360) if turn else rng.uniform(-UPRIGHT_TURN, UPRIGHT_TURN)
    crop = crop_square(img, cx, cy, side, float(angle), out)
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    if rng.random() < 0.25:  # a far-away die: lose resolution, then come back up
        small = int(rng.integers(14, 30))
        crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (out, out))
    return np.ascontiguousarray(crop)


def _clear_of_dice(centres: np.ndarray, x: float, y: float, side: float) -> bool:
    """Whether a window of `side` centred at (x, y) frames no die: every die centre is over 0.55 side away."""
    return not len(centres) or bool(np.min(np.hypot(*(centres - [x, y]).T)) > 0.55 * side)


def negative_crop(img: np.ndarray, boxes: np.ndarray | None, rng: np.random.Generator, *,
                  out: int = READER_SIZE) -> np.ndarray | None:
    """A window that is not centred on any die: table, a die's edge, a gap between dice."""
    h, w = img.shape[:2]
    if boxes is not None and len(boxes):
        sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        side = float(np.median(sizes)) * CROP_SCALE * rng.uniform(0.8, 1.3)
        centres = box_centres(boxes)
    else:
        side = rng.uniform(0.05, 0.3) * min(h, w)
        centres = np.zeros((0, 2), np.float32)
    for _ in range(20):
        if len(centres) and rng.random() < 0.5:  # hard negative: beside a die
            c = centres[int(rng.integers(len(centres)))]
            ang = rng.uniform(0, 2 * np.pi)
            cx, cy = c + np.array([np.cos(ang), np.sin(ang)]) * side * rng.uniform(0.6, 1.0)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if _clear_of_dice(centres, cx, cy, side):
            return crop_square(img, cx, cy, side, float(rng.uniform(0, 360)), out)
    return None


def part_of_die_crop(img: np.ndarray, box: np.ndarray, die_box: np.ndarray | None,
                     rng: np.random.Generator, *, out: int = READER_SIZE) -> np.ndarray | None:
    """A window on part of a die that is not its whole top face: a close-up of its pips, or a side face.

    A close-up of one pip looks like a "1", a side face like any value: the reader must
    learn that neither is a die's top face.
    """
    x0, y0, x1, y1 = box
    size = max(x1 - x0, y1 - y0)
    if die_box is not None and rng.random() < 0.6:
        top_c = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        die_c = np.array([(die_box[0] + die_box[2]) / 2, (die_box[1] + die_box[3]) / 2])
        shift = die_c - top_c
        if np.hypot(*shift) < 0.3 * size:  # seen from above: no side face to show
            return None
        c = top_c + shift * rng.uniform(1.6, 2.2)
        return crop_square(img, float(c[0]), float(c[1]), size * rng.uniform(0.9, 1.3), float(rng.uniform(0, 360)), out)
    c = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) + rng.uniform(-0.25, 0.25, size=2) * size
    return crop_square(img, float(c[0]), float(c[1]), size * rng.uniform(0.25, 0.5), float(rng.uniform(0, 360)), out)


def side_face_crop(img: np.ndarray, box: np.ndarray, boxes: np.ndarray,
                   rng: np.random.Generator, *, out: int = READER_SIZE) -> np.ndarray | None:
    """A window on the side face just below a die's top face, or None where another die lies.

    A camera low in front of the dice (matteop65_wood's webcam) sees each die's front face
    under its top face, pips and all; the detector boxes it as a die of its own about 0.5-1.2
    face heights below the top face (measured on that set's train photos). The reader must
    refuse it: only the top face counts.
    """
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    cx = (x0 + x1) / 2 + rng.normal(0, 0.12) * side
    cy = (y0 + y1) / 2 + rng.uniform(0.5, 1.1) * side
    if not _clear_of_dice(box_centres(boxes), cx, cy, side):  # a die of its own stands there
        return None
    return crop_square(img, cx, cy, side * CROP_SCALE * rng.uniform(0.75, 1.1), float(rng.uniform(0, 360)), out)


def decoy_crop(img: np.ndarray, decoy: np.ndarray, boxes: np.ndarray | None,
               rng: np.random.Generator, *, out: int = READER_SIZE, turn: bool = True) -> np.ndarray | None:
    """A window on a decoy as the detector would frame it: its own size, or the dice's, around it.

    None where a die's centre lies in the window (a die lying on a token is a die).
    `out`: the crop's side in pixels; `turn=False` keeps the photo's way up (a cache
    turns its crops when they are drawn).
    """
    x0, y0, x1, y1 = decoy
    own = max(x1 - x0, y1 - y0)
    dice_boxes = boxes if boxes is not None and len(boxes) > 0 else None
    dice = own if dice_boxes is None else float(np.median(np.maximum(dice_boxes[:, 2] - dice_boxes[:, 0],
                                                                      dice_boxes[:, 3] - dice_boxes[:, 1])))
    side = (own if rng.random() < 0.5 else dice) * CROP_SCALE * rng.uniform(0.8, 1.2)
    cx = (x0 + x1) / 2 + rng.normal(0, 0.1) * own
    cy = (y0 + y1) / 2 + rng.normal(0, 0.1) * own
    if side < 4 or (dice_boxes is not None and not _clear_of_dice(box_centres(dice_boxes), cx, cy, side)):
        return None
    return crop_square(img, cx, cy, side, float(rng.uniform(0, 360)) if turn else 0.0, out)


def to_tensor_layout(crop: np.ndarray) -> np.ndarray:
    return crop.astype(np.float32).transpose(2, 0, 1) / 255.0


def pick_decoy(kinds: Sequence[str] | None, count: int, rng: np.random.Generator) -> int:
    """Which of a scene's `count` decoys to show: each kind present as likely as any other,
    then one of that kind (any one where the kinds are not given: how the shipped reader
    learned). A cloth's hundreds of printed eyes would otherwise crowd out the one numeral
    die thrown among the dice, and numeral dice and dominoes are what the reader still
    takes for dice most."""
    if not kinds:
        return int(rng.integers(count))
    names = sorted(set(kinds))
    kind = names[int(rng.integers(len(names)))]
    of_kind = [i for i, k in enumerate(kinds) if k == kind]
    return of_kind[int(rng.integers(len(of_kind)))]


def reader_samples(img: np.ndarray, boxes: np.ndarray | None, values: np.ndarray, rng: np.random.Generator,
                   *, negatives: int = 1, die_boxes: np.ndarray | None = None,
                   exact_boxes: bool = True, readable: np.ndarray | None = None,
                   side_below: bool = False, turn: bool = True,
                   harsh: bool = False, decoys: np.ndarray | None = None,
                   decoy_kinds: Sequence[str] | None = None, size: int = READER_SIZE) -> list[tuple[np.ndarray, int]]:
    """Augmented (crop, class) pairs from one labelled photo; class NOT_A_DIE for negatives.

    With `side_below` (a photo from a low camera) half the draws add a side face as a negative.
    `turn=False` keeps the dice's crops the photo's way up (`positive_crop`); negatives turn any way.
    `harsh`: wider photometric changes (`training.data.augment.photometric`). `size`: the
    crops' side in pixels (the reader's input). `decoys`: boxes of
    things that look a little like dice (tokens, numeral dice, printed eyes): one of them
    is shown as a negative, framed as a die there would be, drawn by `pick_decoy`.
    """
    look = partial(augment.photometric, harsh=harsh)
    out = []
    if boxes is None:  # a single-die crop: the whole image is the die, grown like a detector box
        h, w = img.shape[:2]
        inner = np.array([w * 0.13, h * 0.13, w * 0.87, h * 0.87], np.float32)
        out.append((look(positive_crop(img, inner, rng, out=size), rng), int(values[0]) - 1))
        return out
    for i, (box, value) in enumerate(zip(boxes, values)):
        # A die nobody could read is no lesson in reading: the reader should stay unsure of it.
        if readable is not None and not readable[i]:
            continue
        out.append((look(positive_crop(img, box, rng, turn=turn, out=size), rng), int(value) - 1))
    for _ in range(negatives):
        neg = negative_crop(img, boxes, rng, out=size)
        if neg is not None:
            out.append((look(neg, rng), NOT_A_DIE))
    # Close-ups need boxes that really frame the top face (not matteop65's estimates).
    if exact_boxes and len(boxes) and rng.random() < 0.5:
        i = int(rng.integers(len(boxes)))
        part = part_of_die_crop(img, boxes[i], None if die_boxes is None else die_boxes[i], rng, out=size)
        if part is not None:
            out.append((look(part, rng), NOT_A_DIE))
    if decoys is not None and len(decoys):
        fake = decoy_crop(img, decoys[pick_decoy(decoy_kinds, len(decoys), rng)], boxes, rng, out=size)
        if fake is not None:
            out.append((look(fake, rng), NOT_A_DIE))
    if side_below and len(boxes) and rng.random() < 0.5:
        front = side_face_crop(img, boxes[int(rng.integers(len(boxes)))], boxes, rng, out=size)
        if front is not None:
            out.append((look(front, rng), NOT_A_DIE))
    return out
