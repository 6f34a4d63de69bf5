"""The synthetic dice renderer: labels that match the pixels, determinism, shapes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.training.render.dice import NORMALS, face_values
from dicecam.training.render.scene import Scene, render_crop, render_scene
from dicecam.training.render.textures import paint_out


def _inside(inner, outer, tol=1e-6) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def test_same_seed_same_scene() -> None:
    a = render_scene(np.random.default_rng(7), size=(320, 240))
    b = render_scene(np.random.default_rng(7), size=(320, 240))
    c = render_scene(np.random.default_rng(8), size=(320, 240))
    assert np.array_equal(a.image, b.image)
    assert a.dice == b.dice
    assert not np.array_equal(a.image, c.image)


def test_same_seed_same_crop() -> None:
    a = render_crop(np.random.default_rng(3), 4)
    b = render_crop(np.random.default_rng(3), 4)
    assert np.array_equal(a, b)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), w=st.integers(160, 400), h=st.integers(160, 400))
def test_scene_labels_are_well_formed(seed: int, w: int, h: int) -> None:
    scene = render_scene(np.random.default_rng(seed), size=(w, h))
    assert isinstance(scene, Scene)
    assert scene.image.dtype == np.uint8 and scene.image.shape == (h, w, 3)
    assert 1 <= len(scene.dice) <= 30
    for d in scene.dice:
        assert d.value in range(1, 7)
        assert _inside(d.die_box, (0, 0, w, h))
        assert _inside(d.top_box, d.die_box)
        assert d.die_box[2] > d.die_box[0] and d.die_box[3] > d.die_box[1]


def test_default_size_is_phone_like() -> None:
    rng = np.random.default_rng(11)
    for _ in range(4):
        h, w = render_scene(rng, n_dice=2).image.shape[:2]
        assert 480 <= max(w, h) <= 1024
        assert max(w, h) / min(w, h) <= 16 / 9 + 0.01


@pytest.mark.parametrize("n", [1, 6, 30])
def test_n_dice_respected(n: int) -> None:
    scene = render_scene(np.random.default_rng(n), size=(320, 240), n_dice=n)
    assert len(scene.dice) == n


def test_bad_dice_count_is_refused() -> None:
    with pytest.raises(ValueError):
        render_scene(np.random.default_rng(0), n_dice=0)


def _dark_blobs(image: np.ndarray, box) -> int:
    x0, y0, x1, y1 = (round(v) for v in box)
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    n, _, stats, _ = cv2.connectedComponentsWithStats((grey < 80).astype(np.uint8))
    areas = stats[1:, cv2.CC_STAT_AREA]
    # slivers of side-face pips at the top face's border are far smaller than a pip
    return int(np.sum(areas >= 0.35 * areas.max())) if n > 1 else 0


def test_top_face_shows_its_value() -> None:
    seen = set()
    for seed in range(40):
        scene = render_scene(np.random.default_rng(seed), size=(320, 320), n_dice=1, clean=True)
        (die,) = scene.dice
        assert _dark_blobs(scene.image, die.top_box) == die.value, f"seed {seed}"
        seen.add(die.value)
        if len(seen) == 6:
            break
    assert seen == set(range(1, 7))


@pytest.mark.parametrize("top", range(1, 7))
def test_face_values_are_a_real_die(top: int) -> None:
    rng = np.random.default_rng(top)
    for _ in range(8):
        v = face_values(rng, top)
        assert v[4] == top  # local +Z is up
        assert sorted(v) == [1, 2, 3, 4, 5, 6]
        for i, n in enumerate(NORMALS):
            opposite = int(np.argmax(NORMALS @ -n))
            assert v[i] + v[opposite] == 7


@pytest.mark.parametrize("size", [32, 64, 96])
def test_crop_shape(size: int) -> None:
    crop = render_crop(np.random.default_rng(size), 5, size=size)
    assert crop.dtype == np.uint8 and crop.shape == (size, size, 3)


def test_crop_value_checked() -> None:
    with pytest.raises(ValueError):
        render_crop(np.random.default_rng(0), 7)


def test_paint_out_removes_a_labelled_die() -> None:
    img = np.full((120, 160, 3), 180, np.uint8)
    img[50:70, 70:90] = 20  # a dark "die"
    clean = paint_out(img, [(72.0, 52.0, 88.0, 68.0)], (1.5, 0.0))
    assert int(clean[50:70, 70:90].min()) > 150
    assert np.array_equal(clean[:, :40], img[:, :40])  # far from the box nothing changes


def test_photo_backgrounds_are_used() -> None:
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[:, :, 2] = 200  # a pure red table nobody would generate
    scene = render_scene(np.random.default_rng(5), size=(200, 150), n_dice=1, backgrounds=[photo], photo_share=1.0)
    corner = scene.image[:10, :10].reshape(-1, 3).mean(0)
    assert corner[2] > 2 * corner[1] and corner[2] > 2 * corner[0]


def test_the_camera_tilt_is_recorded() -> None:
    assert render_scene(np.random.default_rng(2), size=(320, 240), clean=True).tilt_deg == 0.0
    tilts = [render_scene(np.random.default_rng(s), size=(200, 160), n_dice=2).tilt_deg for s in range(12)]
    assert all(0 <= t <= 55 for t in tilts) and max(tilts) > 10  # most scenes look at the table obliquely


def _top_face_above(scene: Scene) -> list[bool]:
    """Per readable die: its top face's centre lies above its whole picture's centre."""
    return [(d.top_box[1] + d.top_box[3]) < (d.die_box[1] + d.die_box[3]) for d in scene.dice if d.readable]


def test_an_upright_phone_sees_each_top_face_at_the_top_of_its_die() -> None:
    # From a tilt, the top face is the far face of the die: at the photo's top when the
    # phone is held upright, anywhere when the camera is turned any way.
    upright, turned = [], []
    for seed in range(40):
        scene = render_scene(np.random.default_rng(seed), size=(320, 240), upright=True)
        if scene.tilt_deg >= 20:
            upright += _top_face_above(scene)
            turned += _top_face_above(render_scene(np.random.default_rng(seed), size=(320, 240)))
    assert len(upright) >= 50
    assert np.mean(upright) > 0.95
    assert np.mean(turned) < 0.8
