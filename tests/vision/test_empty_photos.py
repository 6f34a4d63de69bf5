"""A photo where the first look finds nothing: the closer look, and what it may keep."""

from __future__ import annotations

import numpy as np

from dicecam.vision.candidates import filled
from dicecam.vision.reader import DiceReader


def _speckled_cloth(seed: int = 3) -> np.ndarray:
    """Dark fabric with a little lint, and no die: nothing for the first look."""
    rng = np.random.default_rng(seed)
    img = np.full((480, 640, 3), 35, np.uint8)
    img += rng.integers(0, 6, img.shape, dtype=np.uint8)
    ys, xs = rng.integers(0, 480, 40), rng.integers(0, 640, 40)
    img[ys, xs] = 90
    return img


def _runs(reader: DiceReader) -> list[tuple[int, ...]]:
    """Record the input shape of every detector run."""
    shapes: list[tuple[int, ...]] = []
    run = reader.detector.session.run

    class Counting:
        def run(self, names, feed):
            shapes.append(feed["image"].shape)
            return run(names, feed)

        def get_modelmeta(self):
            return reader.detector.session.get_modelmeta()

    reader.detector.session = Counting()
    return shapes


def test_an_empty_photo_gets_a_closer_look_unless_told_not_to():
    image = _speckled_cloth()
    looking, not_looking = DiceReader(), DiceReader(zoom_when_empty=False)
    closer, plain = _runs(looking), _runs(not_looking)
    looking.read(image)
    not_looking.read(image)
    assert len(plain) == 2  # the full and the half look
    assert len(closer) == 3 and closer[2][2] * closer[2][3] > plain[0][2] * plain[0][3]


def _lint(seed: int = 3) -> np.ndarray:
    """Dark fabric with 60 specks of lint, 2 px each: too small for the first look, not for a closer one."""
    rng = np.random.default_rng(seed)
    img = np.full((960, 1280, 3), 35, np.uint8)
    img += rng.integers(0, 6, img.shape, dtype=np.uint8)
    for _ in range(60):
        y, x = rng.integers(0, 958), rng.integers(0, 1278)
        img[y:y + 2, x:x + 2] = 150
    return img


def test_what_only_the_closer_look_finds_is_kept_only_when_read_plainly():
    image = _lint()
    every = DiceReader(lone_sure=0.0).candidates(image)
    assert len(every) > 10 and filled(every.lone, "lone").all()  # nothing at first: all from the closer look
    strict = DiceReader(lone_sure=1.01).candidates(image)
    assert len(strict) == len(every) and not filled(strict.kept, "kept").any()
