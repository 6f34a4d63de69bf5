"""Real photos seen at the scale the detector's first look reads them (`--natural-scale`, models/HISTORY.md D135)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("torch", reason="training needs the `train` extra")

import dicecam.training.learn.train as train
from dicecam.training.data.detector_targets import NATURAL_JITTER, random_view
from dicecam.training.data.photos import Sample
from dicecam.training.shapes import INPUT_SIDE


def _photo(h: int, w: int, side: int) -> tuple[np.ndarray, np.ndarray]:
    """A grey photo with one bright square die of `side` pixels in its middle."""
    img = np.full((h, w, 3), 60, np.uint8)
    y0, x0 = (h - side) // 2, (w - side) // 2
    img[y0:y0 + side, x0:x0 + side] = 255
    return img, np.array([[x0, y0, x0 + side, y0 + side]], np.float32)


@settings(max_examples=40, deadline=None)
@given(h=st.integers(200, 1400), w=st.integers(200, 1400), side=st.integers(30, 120), seed=st.integers(0, 2**16))
def test_a_natural_view_shows_the_die_at_the_first_looks_size(h: int, w: int, side: int, seed: int) -> None:
    img, box = _photo(h, w, side)
    rng = np.random.default_rng(seed)
    _, boxes = random_view(img, box, rng, long_side=INPUT_SIDE, crop=128)
    # The window is centred near a die four times in five; where it is not, nothing to measure.
    if not len(boxes) or boxes[0, :2].min() <= 0 or boxes[0, 2:].max() >= 128:
        return  # cut by the window's edge
    seen = float(boxes[0, 2] - boxes[0, 0])
    at_first_look = side * INPUT_SIDE / max(h, w)
    # Within the jitter (and a pixel of rounding): never the 11-110 px die-size draw.
    assert at_first_look * np.exp(-NATURAL_JITTER) - 1 <= seen <= at_first_look * np.exp(NATURAL_JITTER) + 1


def test_a_phone_photo_shrinks_as_far_as_the_first_look_does() -> None:
    # A 12 MP photo's first look is 512/4000 of it: past the 0.15 floor of the die-size draw.
    img, box = _photo(3000, 4000, 240)
    sides = []
    for seed in range(30):
        _, boxes = random_view(img, box, np.random.default_rng(seed), long_side=INPUT_SIDE)
        sides.extend(boxes[:, 2] - boxes[:, 0])
    assert sides and max(sides) <= 240 * INPUT_SIDE / 4000 * np.exp(NATURAL_JITTER) + 1
    assert min(sides) < 240 * 0.15  # what the old floor would have made of it


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """A stream over one fake set of real photos; records the `long_side` of each sample."""
    asked: list[float | None] = []

    def real_samples(sets, split="train", *, holdout=0.0):
        return [Sample(np.zeros((64, 64, 3), np.uint8), np.array([[10, 10, 30, 30]], np.float32), np.array([1]), "a/0")]

    def detector_sample(img, boxes, rng, **kw):
        asked.append(kw["long_side"])
        return None, None

    monkeypatch.setattr(train, "real_samples", real_samples)
    monkeypatch.setattr(train, "detector_sample", detector_sample)
    monkeypatch.setattr(train.DetectorStream, "SETS", ("byler_d6",))
    return asked


@pytest.mark.parametrize(("natural", "low", "high"), [(0.0, 0.0, 0.0), (0.5, 0.4, 0.6), (1.0, 1.0, 1.0)])
def test_the_share_of_natural_views_is_the_one_asked_for(recorded, natural, low, high) -> None:
    stream = train.DetectorStream(synth_fraction=0.0, seed=0, natural=natural)
    list(itertools.islice(iter(stream), 400))
    share = sum(s == INPUT_SIDE for s in recorded) / len(recorded)
    assert low <= share <= high
    assert set(recorded) <= {None, INPUT_SIDE}


@pytest.mark.parametrize("argv", [["reader", "--natural-scale", "0.5"], ["detector", "--natural-scale", "1.5"],
                                  ["detector", "--natural-scale", "-0.1"]])
def test_natural_scale_is_a_share_for_the_detector(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        train.main(argv)


def test_natural_scale_reaches_the_detector() -> None:
    assert train.parser().parse_args(["detector", "--natural-scale", "0.5"]).natural_scale == 0.5
