"""Crops seen as from far away (`augment.far_away`, `train reader --far`, session 53)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from helpers_photos import one_photo_reader_stream

from dicecam.training.data.augment import far_away
from dicecam.training.shapes import NOT_A_DIE, READER_SIZE


def _five(size: int = READER_SIZE) -> np.ndarray:
    """A white face with five black pips, as a reader crop."""
    img = np.full((size, size, 3), 235, np.uint8)
    for fx, fy in ((0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)):
        cv2.circle(img, (round(fx * size), round(fy * size)), size // 12, (20, 20, 20), -1)
    return img


def _sharpness(img: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def test_a_far_crop_keeps_its_size_and_type_and_comes_out_softer() -> None:
    rng = np.random.default_rng(0)
    face = _five()
    for _ in range(20):
        out = far_away(face, rng)
        assert out.shape == face.shape and out.dtype == np.uint8
        assert _sharpness(out) < 0.5 * _sharpness(face)


@pytest.mark.parametrize(("sides", "blur"), [((12, 12), (1.2, 1.2)), ((30, 30), (0.3, 0.3))])
def test_smaller_and_softer_loses_more(sides, blur) -> None:
    """The ranges are what sets how far: the far end of both loses the most detail."""
    face = _five()
    out = far_away(face, np.random.default_rng(1), sides=sides, blur=blur)
    near = far_away(face, np.random.default_rng(1), sides=(30, 30), blur=(0.3, 0.3))
    if sides == (12, 12):
        assert _sharpness(out) < 0.5 * _sharpness(near)
    else:
        np.testing.assert_array_equal(out, near)


def test_the_pips_stay_where_they_were() -> None:
    """A far die is soft, not moved: its darkest places are still its pips."""
    face = _five()
    out = far_away(face, np.random.default_rng(2), sides=(20, 20), blur=(0.8, 0.8))
    grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
    assert grey[24, 24] < grey[24, 14] - 40  # the centre pip against the face beside it
    assert grey[14, 14] < grey[14, 24] - 40  # a corner pip against the face between


def _stream(monkeypatch: pytest.MonkeyPatch, far: float):
    table = np.full((120, 160, 3), 128, np.uint8)
    table[40:80, 60:100] = _five(40)
    return one_photo_reader_stream(monkeypatch, table, [60, 40, 100, 80], 5, far_share=far)


def _first(stream, n: int) -> list[tuple[np.ndarray, int]]:
    out = []
    for crop, label in stream:
        out.append((crop, label))
        if len(out) == n:
            break
    return out


def test_off_the_stream_draws_exactly_as_it_did(monkeypatch) -> None:
    """`--far 0` draws no number from the stream's own random stream: old seeds train as before."""
    import dicecam.training.learn.train as train

    off = _first(_stream(monkeypatch, 0.0), 60)
    plain = _first(train.ReaderStream(synth_fraction=0.0, seed=5), 60)
    assert [label for _, label in off] == [label for _, label in plain]
    for (a, _), (b, _) in zip(off, plain):
        np.testing.assert_array_equal(a, b)


def test_at_its_share_dice_and_not_dice_alike_come_out_soft(monkeypatch) -> None:
    near = _first(_stream(monkeypatch, 0.0), 400)
    far = _first(_stream(monkeypatch, 0.4), 400)
    # The same draws, in the same order: only the far share's crops changed.
    assert [label for _, label in near] == [label for _, label in far]
    changed: dict[int, list[bool]] = {NOT_A_DIE: [], 4: []}
    for (a, label), (b, _) in zip(near, far):
        changed[label].append(not np.array_equal(a, b))
    for label, flags in changed.items():
        assert 0.3 < np.mean(flags) < 0.5, label  # dice (class 4, a five) and windows that are not


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_a_share_outside_0_to_1_is_refused(monkeypatch, share) -> None:
    with pytest.raises(ValueError, match="far-away share"):
        _stream(monkeypatch, share)


def test_the_command_line_takes_the_share_for_the_reader_only(capsys) -> None:
    from dicecam.training.learn.train import main, parser

    assert parser().parse_args(["reader", "--far", "0.35"]).far == 0.35
    with pytest.raises(SystemExit):
        main(["detector", "--far", "0.3"])
    assert "--far changes the reader's crops" in capsys.readouterr().err
