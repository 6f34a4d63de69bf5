"""Real dice painted as numeral dice (benchmarks/numeral_probe.py): the pips go, a digit in their colour
comes, the rest of the photo stays."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.training.data.numeral_faces import numeral_face, painted_photo
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"

SIDE = 60
#: The five's pips, in quarters of the face's side from its middle.
FIVE = ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))


def _die(pips=FIVE, *, face=(235, 235, 235), ink=(20, 20, 20)) -> tuple[np.ndarray, np.ndarray]:
    """A photo (grey table) with one face-up die, `SIDE` px, its pips `pips`; and its box."""
    image = np.full((160, 160, 3), 120, np.uint8)
    x0 = y0 = 50
    image[y0:y0 + SIDE, x0:x0 + SIDE] = face
    for gx, gy in pips:
        centre = (int(x0 + SIDE / 2 + gx * SIDE / 4), int(y0 + SIDE / 2 + gy * SIDE / 4))
        cv2.circle(image, centre, 6, ink, -1, cv2.LINE_AA)
    return image, np.array([x0, y0, x0 + SIDE, y0 + SIDE], np.float32)


def _pip_darkness(image: np.ndarray) -> list[float]:
    return [float(255 - image[80 + gy * 15 - 2:80 + gy * 15 + 3, 80 + gx * 15 - 2:80 + gx * 15 + 3].mean())
            for gx, gy in FIVE]


@pytest.mark.parametrize("seed", range(6))
def test_the_pips_go_and_a_digit_in_their_colour_comes(seed) -> None:
    image, box = _die()
    before = image.copy()
    assert numeral_face(image, box, np.random.default_rng(seed))
    # Outside the face nothing changed (the mask leaves a few pixels' margin).
    outside = np.ones(image.shape[:2], bool)
    outside[46:114, 46:114] = False
    assert np.array_equal(image[outside], before[outside])
    # Most of the five's pips are gone: a digit may cross one or two of their places, not all five.
    assert sum(d < 60 for d in _pip_darkness(image)) >= 3
    # The digit is drawn in the pips' dark ink on the face.
    face = image[55:105, 55:105].astype(int)
    assert (face.max(axis=2) < 90).mean() > 0.03


def test_light_pips_on_a_dark_face_are_painted_light() -> None:
    image, box = _die(face=(30, 30, 140), ink=(240, 240, 240))
    assert numeral_face(image, box, np.random.default_rng(1))
    face = image[55:105, 55:105].astype(int)
    assert (face.min(axis=2) > 180).mean() > 0.03  # a light digit
    assert (np.abs(face - (30, 30, 140)).max(axis=2) < 40).mean() > 0.6  # the face's colour kept around it


@pytest.mark.parametrize("case", ["blank face", "tiny box"])
def test_nothing_is_painted_where_there_are_no_pips_to_replace(case) -> None:
    image, box = _die(pips=()) if case == "blank face" else _die()
    if case == "tiny box":
        box = np.array([50, 50, 56, 56], np.float32)
    before = image.copy()
    assert not numeral_face(image, box, np.random.default_rng(0))
    assert np.array_equal(image, before)


def test_a_painted_photo_changes_only_the_painted_faces() -> None:
    reader = DiceReader()
    photo = next(p for p in read_dataset(SAMPLES, split="dev") if not p.crop and len(p.dice) >= 5)
    image = load_image(photo.path)
    changed, faces, pips = painted_photo(reader, image, photo.dice, np.random.default_rng(1), share=0.5)
    assert 0 < len(faces) < len(photo.dice) and len(faces) + len(pips) == len(photo.dice)
    inside_faces = np.zeros(image.shape[:2], bool)
    for x0, y0, x1, y1 in np.round(faces).astype(int):
        inside_faces[max(0, y0):y1, max(0, x0):x1] = True
    assert np.array_equal(changed[~inside_faces], image[~inside_faces]) and not np.array_equal(changed, image)
