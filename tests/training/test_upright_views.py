"""Upright training views: a tilted photo keeps its up, for the detector (mirror images only,
training.data.augment) and for the reader (crops turned a little at most, session 16)."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.training.data.augment import flip_rot90


def _photo() -> tuple[np.ndarray, np.ndarray]:
    img = np.zeros((40, 60, 3), np.uint8)
    img[5:15, 10:20] = 255  # a bright patch near the top
    return img, np.array([[10, 5, 20, 15]], np.float32)


def test_without_turns_the_photo_keeps_its_shape_and_its_top() -> None:
    img, boxes = _photo()
    for seed in range(20):
        out, moved = flip_rot90(img, boxes, np.random.default_rng(seed), turns=False)
        assert out.shape == img.shape
        x0, y0, x1, y1 = moved[0].astype(int)
        assert (y0, y1) == (5, 15)
        assert out[y0:y1, x0:x1].min() == 255  # the box still frames the patch


def test_with_turns_some_views_are_turned() -> None:
    img, boxes = _photo()
    shapes = {flip_rot90(img, boxes, np.random.default_rng(seed))[0].shape for seed in range(20)}
    assert shapes == {(40, 60, 3), (60, 40, 3)}


def test_mining_searches_upright_scenes_when_asked(monkeypatch) -> None:
    """`training.data.mine --upright` mines the views an upright-trained detector is made for."""
    from pathlib import Path

    from dicecam.training.data import mine as mining

    asked = []
    render = mining.synth_scene_source

    def spy(**kwargs):
        asked.append(kwargs)
        return render(**kwargs)

    monkeypatch.setattr(mining, "real_samples", lambda sets: [])  # rendered scenes only: quick
    monkeypatch.setattr(mining, "synth_scene_source", spy)
    crops, photos = mining.mine(Path(__file__).resolve().parents[2] / "models", scenes=2, upright=True)
    assert asked == [{"upright": True, "clutter": 0.0}]
    assert photos == 2
    assert crops.shape[1:] == (64, 64, 3) and crops.dtype == np.uint8


# -- the reader trained upright (session 16) ------------------------------------------------


def _die_lit_at_the_top() -> tuple[np.ndarray, np.ndarray]:
    """A dark photo with one die box whose top third is bright: which way is up is plain to see."""
    img = np.zeros((120, 120, 3), np.uint8)
    img[40:53, 40:80] = 255
    return img, np.array([[40, 40, 80, 80]], np.float32)


def _top_brighter(crop: np.ndarray) -> bool:
    half = crop.shape[0] // 2
    return float(crop[:half].mean()) > float(crop[half:].mean())


def test_an_upright_positive_crop_keeps_the_top_face_on_top() -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.data.reader_crops import positive_crop

    img, (box,) = _die_lit_at_the_top()
    kept = [_top_brighter(positive_crop(img, box, np.random.default_rng(s), turn=False)) for s in range(40)]
    turned = [_top_brighter(positive_crop(img, box, np.random.default_rng(s))) for s in range(40)]
    assert all(kept)
    assert not all(turned)  # turned any way, the bright top lands below about half the time


def test_the_upright_reader_stream_keeps_tilted_dice_up_and_turns_the_rest(monkeypatch) -> None:
    """A low camera's photo (side faces below) keeps its up; a top-down photo's dice turn any way."""
    pytest.importorskip("torch", reason="training needs the `train` extra")
    import dicecam.training.learn.train as train
    from dicecam.training.data.photos import Sample
    from dicecam.training.learn.nets import NOT_A_DIE

    img, boxes = _die_lit_at_the_top()

    def photos(side_below: bool):
        def real_samples(sets, split="train", *, holdout=0.0):
            return [Sample(img, boxes, np.array([3]), f"{sets[0]}/0", side_below=side_below)]
        return real_samples

    for source in ("synth_crop_source", "synth_scene_source", "hard_negative_source"):
        monkeypatch.setattr(train, source, lambda **kwargs: None)
    tops = {}
    for side_below in (True, False):
        monkeypatch.setattr(train, "real_samples", photos(side_below))
        stream = iter(train.ReaderStream(synth_fraction=0.0, seed=0, upright=True))
        crops = [x for x, label in (next(stream) for _ in range(200)) if label != NOT_A_DIE]
        assert len(crops) >= 30
        tops[side_below] = [_top_brighter(x.transpose(1, 2, 0)) for x in crops]
    assert all(tops[True])
    assert 0.2 < np.mean(tops[False]) < 0.8


def _cache(path, top_bright_turnable: bool) -> None:
    crop = np.zeros((64, 64, 3), np.uint8)
    crop[:20] = 255
    np.savez(path, images=crop[None], labels=np.array([2]), turnable=np.array([top_bright_turnable]))


@pytest.mark.parametrize("turnable", [False, True])
def test_upright_cached_crops_turn_only_where_marked_turnable(monkeypatch, tmp_path, turnable) -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.data import caches
    from dicecam.training.data.sources import synth_crop_source

    monkeypatch.setattr(caches, "UPRIGHT_CROPS", tmp_path / "crops.npz")
    _cache(tmp_path / "crops.npz", turnable)
    draw = synth_crop_source(upright=True)
    assert draw is not None
    rng = np.random.default_rng(0)
    tops = [_top_brighter(draw(rng)[0]) for _ in range(40)]
    assert all(tops) != turnable


def test_the_upright_crop_cache_marks_tilted_dice_not_turnable(tmp_path) -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.data.crop_cache import build

    upright = np.load(build(12, seed=3, path=tmp_path / "up.npz", upright=True))
    anyway = np.load(build(12, seed=3, path=tmp_path / "any.npz"))
    assert upright["images"].shape == (12, 64, 64, 3)
    assert anyway["turnable"].all()
    assert 0 < upright["turnable"].sum() < 12  # most rendered views are tilted; some from above


def test_upright_training_is_for_one_network_at_a_time() -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.learn.train import main

    with pytest.raises(SystemExit):
        main(["all", "--upright"])


def test_fresh_crops_are_rendered_even_where_a_cache_is(monkeypatch, tmp_path) -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.data import caches
    from dicecam.training.data.sources import synth_crop_source
    from dicecam.training.shapes import READER_SIZE

    monkeypatch.setattr(caches, "UPRIGHT_CROPS", tmp_path / "crops.npz")
    _cache(tmp_path / "crops.npz", False)  # one crop, value 3, its top third white
    cached, fresh = synth_crop_source(upright=True), synth_crop_source(upright=True, fresh=True)
    assert cached is not None and fresh is not None
    rng = np.random.default_rng(0)
    assert {cached(rng)[1] for _ in range(20)} == {2}
    drawn = [fresh(rng) for _ in range(30)]
    assert len({label for _, label in drawn}) >= 4  # rendered dice of every value, not the one cached
    assert all(img.shape == (READER_SIZE, READER_SIZE, 3) for img, _ in drawn)


def test_fresh_crops_are_for_the_reader() -> None:
    pytest.importorskip("torch", reason="training needs the `train` extra")
    from dicecam.training.learn import train

    with pytest.raises(SystemExit):
        train.main(["detector", "--fresh-crops", "--det-steps", "1"])
