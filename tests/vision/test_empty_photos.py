"""A photo where the first look finds nothing: the closer look, and what it may keep."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dicecam.vision.candidates import filled
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


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


def _far_throw() -> np.ndarray:
    """A sample throw of five dice seen from far away (about 11 px a die in a 1280 px photo):
    the first look finds none of them, the closer look of the whole photo finds them."""
    import cv2

    source = cv2.imread(str(SAMPLES / "matteop65_wood" / "valid_70.jpg"))
    assert source is not None
    small = cv2.resize(source, None, fx=0.18, fy=0.18, interpolation=cv2.INTER_AREA)
    img = np.empty((960, 1280, 3), np.uint8)
    img[:] = small[5, 5]  # the table's own colour around it
    h, w = small.shape[:2]
    img[400:400 + h, 500:500 + w] = small
    return img


def test_no_die_is_found_in_lint_on_dark_fabric():
    assert len(DiceReader().read(_lint())) == 0


def test_what_only_the_closer_look_finds_is_kept_only_when_read_plainly():
    image = _far_throw()
    every = DiceReader(lone_sure=0.0).candidates(image)
    assert len(every) >= 3 and filled(every.lone, "lone").all()  # nothing at first: all from the closer look
    plain = filled(every.top, "top") >= DiceReader().settings.lone_sure
    assert plain.any()
    shipped = DiceReader().candidates(image)
    np.testing.assert_array_equal(filled(shipped.kept, "kept"), filled(every.kept, "kept") & plain)
    strict = DiceReader(lone_sure=1.01).candidates(image)
    assert len(strict) == len(every) and not filled(strict.kept, "kept").any()
