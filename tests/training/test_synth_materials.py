"""Die materials: smoke dice whose painted pips catch the light, glossy dice that mirror the room."""

from __future__ import annotations

import numpy as np

from dicecam.training.render.dice import PIPS, Material, face_texture, random_material, reflection

RED = (40.0, 30.0, 200.0)
SMOKE = (45.0, 45.0, 45.0)


def _face(glint: float, value: int = 5, t: int = 96) -> np.ndarray:
    mat = Material(SMOKE, RED, RED, RED, pip_radius=0.12, engraved=True, glint=glint, glint_angle=30.0)
    return face_texture(np.random.default_rng(0), value, t, mat, diffuse=1.0, spec=0.0, bevel=0.1)


def test_smoke_dice_are_drawn_among_the_materials() -> None:
    rng = np.random.default_rng(0)
    mats = [random_material(rng) for _ in range(400)]
    smoke = [m for m in mats if np.mean(m.body) < 95 and m.opacity < 1 and m.engraved]
    assert len(smoke) >= 10
    assert any(m.glint > 0 for m in smoke)
    assert any(m.pip[2] > 150 > m.pip[1] for m in smoke)  # red pips among them


def test_a_glint_brightens_the_pips_and_nothing_else() -> None:
    t = 96
    plain, lit = _face(0.0, t=t), _face(0.8, t=t)
    changed = np.abs(lit[..., :3] - plain[..., :3]).max(axis=2) > 1.0
    assert (lit[..., :3] - plain[..., :3])[changed].min() >= -1.0  # only ever brighter
    assert changed.sum() > 5 * 10  # every one of the five pips shows it
    ys, xs = np.nonzero(changed)
    centres = np.array([((0.5 + 0.27 * px) * t, (0.5 + 0.27 * py) * t) for px, py in PIPS[5]])
    nearest = np.min(np.hypot(xs[:, None] - centres[None, :, 0], ys[:, None] - centres[None, :, 1]), axis=1)
    assert nearest.max() <= 0.12 * t * 1.1 + 1.5  # inside a pip's rim


def test_no_glint_by_default() -> None:
    assert Material(SMOKE, RED, RED, RED).glint == 0.0


def _sheen_face(sheen: float, seed: int, t: int = 96) -> np.ndarray:
    mat = Material(SMOKE, RED, RED, RED, pip_radius=0.12, sheen=sheen)
    return face_texture(np.random.default_rng(seed), 4, t, mat, diffuse=1.0, spec=0.0, bevel=0.1)


def test_a_mirrored_window_only_brightens_and_shows_on_some_faces() -> None:
    shown = 0
    for seed in range(20):
        plain, lit = _sheen_face(0.0, seed), _sheen_face(0.7, seed)
        diff = (lit[..., :3] - plain[..., :3]).max(axis=2)
        assert diff.min() >= -1.0  # light added, never taken
        shown += bool((diff > 40).sum() > 10)
    assert 4 <= shown <= 19  # some faces point at the window, not all


def test_reflection_has_hard_edges_and_stays_on_the_face() -> None:
    for seed in range(30):
        w = reflection(np.random.default_rng(seed), 64)
        assert w.shape == (64, 64) and w.dtype == np.float32
        assert 0.0 <= w.min() and w.max() <= 1.0
        assert w.max() >= 0.5  # a visible patch, not a haze
        assert (w > 0.05).mean() < 0.6  # a patch, not the whole face


def test_dark_dice_mirror_the_room_more_often_than_white_ones() -> None:
    rng = np.random.default_rng(1)
    mats = [random_material(rng) for _ in range(1500)]
    dark = [m for m in mats if np.mean(m.body) < 60]
    white = [m for m in mats if np.mean(m.body) > 200 and m.marble is None]
    share = lambda ms: np.mean([m.sheen > 0 for m in ms])  # noqa: E731
    assert share(dark) > share(white) + 0.15
    assert Material(SMOKE, RED, RED, RED).sheen == 0.0


def test_marbled_dice_come_with_red_pips_too() -> None:
    rng = np.random.default_rng(2)
    marbled = [m for m in (random_material(rng) for _ in range(1500)) if m.marble is not None and m.opacity == 1]
    assert any(m.pip[2] > 150 > m.pip[1] and m.pip[0] < 100 for m in marbled)
