"""Upright training views: mirror images only, so a tilted photo keeps its up (training.augment)."""

from __future__ import annotations

import numpy as np

from training.augment import flip_rot90


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
    """`training.mine --upright` mines the views an upright-trained detector is made for."""
    from pathlib import Path

    from training import mine as mining

    asked = []
    render = mining.synth_scene_source

    def spy(**kwargs):
        asked.append(kwargs)
        return render(**kwargs)

    monkeypatch.setattr(mining, "real_samples", lambda sets: [])  # rendered scenes only: quick
    monkeypatch.setattr(mining, "synth_scene_source", spy)
    crops, photos = mining.mine(Path(__file__).resolve().parents[2] / "models", scenes=2, upright=True)
    assert asked == [{"upright": True}]
    assert photos == 2
    assert crops.shape[1:] == (64, 64, 3) and crops.dtype == np.uint8
