"""Real dice pasted into other train photos (`train detector --paste-dice`, models/HISTORY.md D139)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.training.data.paste import DiePatch, die_patches, paste_dice
from dicecam.training.data.photos import Sample

TOP = np.array([[104, 50, 136, 80]], np.float32)
WHOLE = np.array([[100, 50, 140, 90]], np.float32)


def _table_with_die(h: int = 200, w: int = 300) -> Sample:
    """A dark table with one white die (whole box 40 px, its top face the upper 30 px)."""
    img = np.full((h, w, 3), 30, np.uint8)
    img[50:90, 100:140] = 240
    return Sample(img, TOP.copy(), np.array([3]), "table", die_boxes=WHOLE.copy())


def test_a_patch_is_the_whole_die_with_its_top_face_inside() -> None:
    (patch,) = die_patches([_table_with_die()])
    assert patch.pixels.shape == (40, 40, 3) and (patch.pixels == 240).all()
    np.testing.assert_allclose(patch.top, [4, 0, 36, 30])


def test_photos_without_whole_dice_and_tiny_dice_give_no_patches() -> None:
    plain = _table_with_die()
    plain = Sample(plain.image, plain.boxes, plain.values, "plain")  # no die_boxes (byler, matteo)
    tiny = _table_with_die()
    tiny = Sample(tiny.image, tiny.boxes, tiny.values, "tiny", die_boxes=np.array([[100, 50, 105, 55]], np.float32))
    assert die_patches([plain, tiny]) == []


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), count=st.integers(0, 5))
def test_pasted_dice_lie_apart_inside_the_photo_where_their_boxes_say(seed: int, count: int) -> None:
    photo = _table_with_die()
    patch = DiePatch(np.full((20, 20, 3), 200, np.uint8), np.array([2, 0, 18, 15], np.float32))
    image, tops, wholes = paste_dice(photo.image, TOP, WHOLE, [patch], np.random.default_rng(seed), count=count)
    assert wholes is not None and len(tops) == len(wholes) <= 1 + count
    np.testing.assert_array_equal(tops[0], TOP[0])  # the photo's own die first, unchanged
    h, w = image.shape[:2]
    for i, (top, whole) in enumerate(zip(tops, wholes)):
        assert 0 <= whole[0] < whole[2] <= w and 0 <= whole[1] < whole[3] <= h
        assert whole[0] <= top[0] < top[2] <= whole[2] and whole[1] <= top[1] < top[3] <= whole[3]
        assert not any(_overlap(whole, other) for other in wholes[i + 1:])
        # Sized like the photo's die (40 px) within the jitter, and bright in its middle.
        if i:
            side = max(whole[2] - whole[0], whole[3] - whole[1])
            assert 40 / 1.25 - 1 <= side <= 40 * 1.25 + 1
            cx, cy = int((whole[0] + whole[2]) / 2), int((whole[1] + whole[3]) / 2)
            assert image[cy, cx].mean() > 150
    assert (photo.image == _table_with_die().image).all()  # the photo itself untouched


def test_a_photo_without_whole_boxes_gets_top_faces_only() -> None:
    photo = _table_with_die()
    patch = DiePatch(np.full((20, 20, 3), 200, np.uint8), np.array([2, 0, 18, 15], np.float32))
    _, tops, wholes = paste_dice(photo.image, TOP, None, [patch], np.random.default_rng(0), count=2)
    assert wholes is None and len(tops) == 3


def test_the_stream_pastes_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    import dicecam.training.learn.train as train

    monkeypatch.setattr(train, "real_samples", lambda sets, split="train", *, holdout=0.0: [_table_with_die()])
    monkeypatch.setattr(train, "detector_sample", lambda img, boxes, rng, **kw: (img, boxes))
    monkeypatch.setattr(train.DetectorStream, "SETS", ("roboflow_dice",))

    def dice_seen(paste: float) -> list[int]:
        stream = iter(train.DetectorStream(synth_fraction=0.0, seed=0, paste=paste))
        return [len(next(stream)[1]) for _ in range(60)]

    assert set(dice_seen(0.0)) == {1}
    assert max(dice_seen(1.0)) > 1 and min(dice_seen(1.0)) >= 1


def test_paste_dice_is_a_share_for_the_detector() -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.learn.train import main, parser

    for argv in (["reader", "--paste-dice", "0.5"], ["detector", "--paste-dice", "2"]):
        with pytest.raises(SystemExit):
            main(argv)
    assert parser().parse_args(["detector", "--paste-dice", "0.5"]).paste_dice == 0.5
