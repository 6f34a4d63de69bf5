"""Side faces seen from a low camera become "not a die" crops for the reader."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dicecam.training.data.photos import load_split
from dicecam.training.data.reader_crops import reader_samples, side_face_crop
from dicecam.training.render.dice import make_camera, place_die, random_material
from dicecam.training.render.scene import side_face_window
from dicecam.training.shapes import NOT_A_DIE, READER_SIZE

TOP = np.array([180, 100, 220, 140], np.float32)  # a top face 40 px wide, centred at (200, 120)


def photo_red_below(y: int) -> np.ndarray:
    img = np.zeros((400, 400, 3), np.uint8)
    img[y:, :, 2] = 255
    return img


@pytest.mark.parametrize("seed", range(20))
def test_the_window_is_centred_below_the_top_face(seed):
    crop = side_face_crop(photo_red_below(135), TOP, TOP[None], np.random.default_rng(seed))
    assert crop is not None
    assert crop.shape == (READER_SIZE, READER_SIZE, 3)
    # The window turns about its centre, so the centre pixel is the point it was cut around.
    assert tuple(crop[READER_SIZE // 2, READER_SIZE // 2]) == (0, 0, 255)


@pytest.mark.parametrize("seed", range(20))
def test_no_window_where_another_die_stands_below(seed):
    below = np.array([180, 132, 220, 172], np.float32)  # a die touching it, centre 152
    boxes = np.stack([TOP, below])
    assert side_face_crop(photo_red_below(135), TOP, boxes, np.random.default_rng(seed)) is None


def test_low_view_photos_give_the_reader_more_negatives():
    img = photo_red_below(135)
    values = np.array([3])

    def negatives(side_below: bool) -> int:
        rng = np.random.default_rng(5)
        return sum(label == NOT_A_DIE for _ in range(200)
                   for _, label in reader_samples(img, TOP[None], values, rng, side_below=side_below))

    assert negatives(True) > negatives(False) + 50  # about one more in two draws


@pytest.mark.datasets("matteop65_wood", "byler_d6")
def test_only_the_low_webcam_set_is_marked():
    matteo = load_split("matteop65_wood", "train")
    byler = load_split("byler_d6", "train")
    assert matteo and all(s.side_below for s in matteo)
    assert byler and not any(s.side_below for s in byler)


# -- rendered side faces (training.render.scene) ---------------------------------------------


def _die_under(tilt: float, *neighbours: tuple[float, float], yaw: float = 0.3):
    """A camera `tilt` degrees off straight down over a die at the table's origin, maybe with neighbours."""
    cam = make_camera(256, 256, tilt_deg=tilt, roll_deg=0.0, fov_deg=60.0)
    rng = np.random.default_rng(0)
    mat = random_material(rng, clean=True)
    centre = cam.to_table(np.array([[128.0, 128.0]]))[0, :2]
    dice = [place_die(rng, centre + offset, 0.12, 3, mat, yaw=yaw) for offset in [(0.0, 0.0), *neighbours]]
    return cam, dice


def _inside_quad(quad: np.ndarray, x: float, y: float) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32), (x, y), False) >= 0


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("tilt", [25.0, 35.0])
def test_a_rendered_side_window_is_centred_on_a_side_face_not_a_top(seed, tilt):
    cam, dice = _die_under(tilt)
    window = side_face_window(np.random.default_rng(seed), cam, dice)
    assert window is not None
    cx, cy, side = window
    die = dice[0]
    top = cam.project(die.face_corners(die.top_face()))
    sides = [cam.project(die.face_corners(i)) for i in range(6) if i != die.top_face()]
    assert not _inside_quad(top, cx, cy)
    assert any(_inside_quad(q, cx, cy) for q in sides)
    assert np.hypot(*(top.mean(0) - (cx, cy))) > 0.3 * side
    # ... and on a face that looks narrower than the top face, as no top face of a die does.
    face = next(q for q in sides if _inside_quad(q, cx, cy))
    assert cv2.contourArea(face.astype(np.float32)) < 0.8 * cv2.contourArea(top.astype(np.float32))
    # The window is about the size of a detection on the face: the die's whole picture fits in 2.
    uv = cam.project(die.vertices())
    assert side < 2 * max(uv.max(0) - uv.min(0))


def test_no_rendered_side_window_when_the_camera_looks_straight_down():
    cam, dice = _die_under(0.0)
    assert all(side_face_window(np.random.default_rng(seed), cam, dice) is None for seed in range(10))


def test_no_rendered_side_window_on_a_face_seen_as_squarely_as_the_top():
    """Square to the camera (yaw 0) at 42 degrees, the front face looks as big as the top
    face: a crop of it would look like a die's top face seen from higher up."""
    cam, dice = _die_under(42.0, yaw=0.0)
    assert all(side_face_window(np.random.default_rng(seed), cam, dice) is None for seed in range(10))
    cam, dice = _die_under(30.0, yaw=0.0)  # lower, the same face looks narrower: a window
    assert all(side_face_window(np.random.default_rng(seed), cam, dice) is not None for seed in range(10))


def test_no_rendered_side_window_that_frames_a_neighbours_top_face():
    cam, dice = _die_under(35.0, (0.0, -0.13), (0.0, 0.13), (0.13, 0.0), (-0.13, 0.0))
    for seed in range(20):
        window = side_face_window(np.random.default_rng(seed), cam, dice)
        if window is not None:
            cx, cy, side = window
            tops = np.array([cam.project(d.face_corners(d.top_face())).mean(0) for d in dice])
            assert np.min(np.hypot(*(tops - (cx, cy)).T)) > 0.3 * side


def test_the_crop_cache_labels_side_faces_not_a_die(tmp_path):
    from dicecam.training.data.crop_cache import build

    path = build(6, side=3, seed=5, path=tmp_path / "crops.npz")
    cached = np.load(path)
    assert cached["images"].shape == (9, 64, 64, 3)
    assert list(cached["labels"][6:]) == [NOT_A_DIE] * 3
    assert all(0 <= v < NOT_A_DIE for v in cached["labels"][:6])
    # Side faces come from their own stream: asking for them leaves the value crops as they were.
    alone = np.load(build(6, seed=5, path=tmp_path / "alone.npz"))
    assert np.array_equal(alone["images"], cached["images"][:6])
