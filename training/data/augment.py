"""Photometric and geometric augmentation shared by detector and reader training."""

from __future__ import annotations

import cv2
import numpy as np

from dicecam.vision.photo_changes import recode_jpeg, turn_hue


def photometric(img: np.ndarray, rng: np.random.Generator, *, harsh: bool = False) -> np.ndarray:
    """Colour, light, blur, noise and JPEG changes that keep pips countable.

    `harsh` widens them the way unseen dice and cameras differ most from the shared photos
    (models/HISTORY.md, session 18): any hue, grey twice as often, blur up to sigma 2,
    JPEG down to quality 20.
    """
    out = img
    if rng.random() < 0.5:
        out = out[:, :, rng.permutation(3)]  # dice and tables come in every colour
    if harsh and rng.random() < 0.3:
        out = turn_hue(out, rng.uniform(0, 360))  # colours between the channel shuffles
    if rng.random() < (0.2 if harsh else 0.1):
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    f: np.ndarray = out.astype(np.float32)
    gain = rng.uniform(0.55, 1.45) * rng.uniform(0.85, 1.15, size=3)
    f = f * gain + rng.uniform(-30, 30)
    if rng.random() < 0.5:  # uneven light across the photo
        h, w = f.shape[:2]
        gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :] * rng.uniform(-0.35, 0.35)
        gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None] * rng.uniform(-0.35, 0.35)
        f = f * (1 + gx + gy)[..., None]
    f = np.clip(f, 0, 255)
    if rng.random() < 0.3:
        gamma = rng.uniform(0.6, 1.6)
        f = 255.0 * (f / 255.0) ** gamma
    out = f.astype(np.uint8)
    r = rng.random()
    if r < 0.2 and harsh:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 2.0))
    elif r < 0.2:
        k = int(rng.choice([3, 5]))
        out = cv2.GaussianBlur(out, (k, k), 0)
    elif r < 0.3:
        k = int(rng.integers(3, 8))
        streak = np.zeros((k, k), np.float32)
        streak[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(streak, m, (k, k))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.3:
        noise = rng.normal(0, rng.uniform(2, 10), out.shape).astype(np.float32)
        out = np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < (0.5 if harsh else 0.4):
        out = recode_jpeg(out, int(rng.integers(20 if harsh else 30, 95)))
    return out


#: `far_away`'s range of sides a crop is shrunk to, and of blur there (sigma, in those pixels).
FAR_SIDES = (18, 34)
FAR_BLUR = (0.3, 0.9)


def far_away(crop: np.ndarray, rng: np.random.Generator, *, sides: tuple[int, int] = FAR_SIDES,
             blur: tuple[float, float] = FAR_BLUR) -> np.ndarray:
    """`crop` as a far die comes out in a phone photo: few pixels, out of focus, JPEG'd there.

    Real dice of about 20 px read far worse than large dice shrunk to 20 px (0.70-0.74
    against 0.95), and a blur of sigma 0.8 at that size brings shrunk ones down to 0.81
    (models/HISTORY.md, session 53): a far die is soft as well as small, and the reader's
    crops met softness only at their own 48 px. Dice and not-dice get it alike, so that
    softness itself never says "die".
    """
    size = crop.shape[0]
    small = int(rng.integers(sides[0], sides[1] + 1))
    out = cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA)
    out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(*blur)))
    if rng.random() < 0.5:
        out = recode_jpeg(out, int(rng.integers(40, 95)))
    # Linear, as the reader's own crops enlarge a small die (`vision.face_reader`).
    return cv2.resize(out, (size, size), interpolation=cv2.INTER_LINEAR)


def flip_rot90(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, *,
               turns: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Random horizontal flip and quarter turn; pips read the same either way.

    `turns=False` only flips: a mirror image keeps up where it is, which in a tilted
    phone photo tells the top face (the far one) from the side faces.
    """
    boxes = boxes.copy()
    w = img.shape[1]
    if rng.random() < 0.5:
        img = img[:, ::-1]
        boxes[:, [0, 2]] = w - boxes[:, [2, 0]]
    k = int(rng.integers(4)) if turns else 0
    for _ in range(k):  # rotate 90 deg counter-clockwise
        w = img.shape[1]
        img = np.rot90(img)
        x0, y0, x1, y1 = boxes.T.copy()
        boxes = np.stack([y0, w - x1, y1, w - x0], axis=1)
    return np.ascontiguousarray(img), boxes
