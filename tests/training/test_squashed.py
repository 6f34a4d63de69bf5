"""Photos squashed along one axis for the reader (`augment.squashed`, `train reader --squash`, session 58)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers_photos import one_photo_reader_stream
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.training.data.augment import SQUASH_KEEP, squashed
from dicecam.training.data.photos import Sample


def _sample(w: int = 200, h: int = 120) -> Sample:
    img = np.full((h, w, 3), 128, np.uint8)
    img[40:80, 60:100] = 230  # the die's face, where its box says
    return Sample(img, np.array([[60, 40, 100, 80]], np.float32), np.array([5]), "table/0",
                  die_boxes=np.array([[58, 36, 102, 84]], np.float32), decoys=np.zeros((0, 4), np.float32))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_one_axis_shrinks_within_its_range_and_every_box_moves_with_the_photo(seed: int) -> None:
    s = _sample()
    out = squashed(s, np.random.default_rng(seed))
    h, w = out.image.shape[:2]
    kept = (w / 200, h / 120)
    assert sorted(kept)[1] == 1.0  # one axis as it was
    assert SQUASH_KEEP[0] - 0.01 <= min(kept) <= SQUASH_KEEP[1] + 0.01
    scale = np.array([kept[0], kept[1]] * 2, np.float32)
    np.testing.assert_allclose(out.boxes, s.boxes * scale, rtol=1e-5)
    np.testing.assert_allclose(out.die_boxes, s.die_boxes * scale, rtol=1e-5)
    assert out.decoys.shape == (0, 4)
    np.testing.assert_array_equal(out.values, s.values)
    # The face is still under its box: the box's middle is the face's brightness.
    x0, y0, x1, y1 = out.boxes[0]
    assert out.image[round((y0 + y1) / 2), round((x0 + x1) / 2)].min() > 200


def test_up_and_down_three_times_in_four() -> None:
    rng = np.random.default_rng(0)
    down = [squashed(_sample(), rng).image.shape[0] < 120 for _ in range(400)]
    assert 0.68 < np.mean(down) < 0.82


def test_a_photo_without_boxes_keeps_none() -> None:
    s = Sample(np.zeros((50, 80, 3), np.uint8), None, np.array([2]), "crop/0")
    out = squashed(s, np.random.default_rng(1))
    assert out.boxes is None and out.die_boxes is None


def _first(stream, n: int) -> list[tuple[np.ndarray, int]]:
    out = []
    for crop, label in stream:
        out.append((crop, label))
        if len(out) == n:
            break
    return out


def _stream(monkeypatch: pytest.MonkeyPatch, share: float):
    s = _sample(160, 120)
    return one_photo_reader_stream(monkeypatch, s.image, [60, 40, 100, 80], 5, squash_share=share)


def test_off_the_stream_draws_exactly_as_it_did(monkeypatch) -> None:
    """`--squash 0` draws no number from its own random stream: old seeds train as before."""
    import dicecam.training.learn.train as train

    off = _first(_stream(monkeypatch, 0.0), 60)
    plain = _first(train.ReaderStream(synth_fraction=0.0, seed=5), 60)
    for (a, la), (b, lb) in zip(off, plain):
        assert la == lb
        np.testing.assert_array_equal(a, b)


def _face_aspect(crop: np.ndarray) -> float | None:
    """The bright face's longer side over its shorter one, in a reader crop (C, H, W) whose
    light and contrast vary; None where the face reaches the crop's edge (a part of it)."""
    grey = crop.mean(axis=0)
    ys, xs = np.nonzero(grey > (grey.min() + grey.max()) / 2)
    if not len(ys) or min(ys.min(), xs.min()) == 0 or max(ys.max(), xs.max()) == grey.shape[0] - 1:
        return None
    h, w = np.ptp(ys) + 1, np.ptp(xs) + 1
    return max(h, w) / min(h, w)


def _aspects(monkeypatch: pytest.MonkeyPatch, share: float) -> np.ndarray:
    aspects = [_face_aspect(crop) for crop, label in _first(_stream(monkeypatch, share), 400) if label == 4]
    return np.array([a for a in aspects if a is not None])


def test_at_its_share_the_die_comes_out_squashed(monkeypatch) -> None:
    """A square face comes out square (a crop's slight turn aside), squashed ones longer one way."""
    plain, half, every = (_aspects(monkeypatch, share) for share in (0.0, 0.5, 1.0))
    assert min(len(plain), len(half), len(every)) > 30
    assert np.median(plain) < 1.02 < np.median(every)
    assert np.mean(plain > 1.04) < np.mean(half > 1.04) < np.mean(every > 1.04)
    assert np.mean(every > 1.04) > 0.6


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_a_share_outside_0_to_1_is_refused(monkeypatch, share) -> None:
    with pytest.raises(ValueError, match="squashed share"):
        _stream(monkeypatch, share)


def test_the_command_line_takes_the_share_for_the_reader_only(capsys) -> None:
    from dicecam.training.learn.train import main, parser

    assert parser().parse_args(["reader", "--squash", "0.35"]).squash == 0.35
    with pytest.raises(SystemExit):
        main(["detector", "--squash", "0.3"])
    assert "--squash changes the reader's crops" in capsys.readouterr().err
