"""Rendered game-table clutter: decoys come back with their boxes, and never as dice."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecam.training.data.reader_crops import decoy_crop, pick_decoy, reader_samples
from dicecam.training.render import clutter, drawing
from dicecam.training.render.scene import render_scene
from dicecam.training.shapes import NOT_A_DIE, READER_SIZE


@pytest.mark.parametrize("surface", sorted(clutter.SURFACES))
def test_each_printed_surface_fills_the_texture_and_names_decoys_on_it(surface) -> None:
    draw, _ = clutter.SURFACES[surface]
    img, boxes = draw(np.random.default_rng(3), 300, 400, 40.0)
    assert img.shape == (300, 400, 3) and img.dtype == np.uint8
    assert img.std() > 5  # a print, not a flat colour
    assert all(x1 > x0 and y1 > y0 for x0, y0, x1, y1 in boxes)


@pytest.mark.parametrize("kind", sorted(clutter.OBJECTS))
def test_each_object_is_painted_where_its_box_says(kind) -> None:
    img = np.full((200, 200, 3), 128, np.uint8)
    box = clutter.OBJECTS[kind][0](np.random.default_rng(5), img, (100.0, 100.0), 30.0)
    x0, y0, x1, y1 = (round(v) for v in box)
    changed = np.abs(img.astype(int) - 128).sum(axis=2) > 0
    assert changed[max(y0, 0):y1, max(x0, 0):x1].any()
    assert x0 <= 100 <= x1 and y0 <= 100 <= y1


def test_domino_halves_carry_a_die_s_pip_layouts() -> None:
    assert all(len(drawing.DIE_PIPS[n]) == n for n in range(7))
    six = drawing.DIE_PIPS[6]
    assert {x for x, _ in six} == {-1, 1} and sorted(y for _, y in six) == [-1, -1, 0, 0, 1, 1]  # two rows of three
    assert set(drawing.DIE_PIPS[4]) == {(-1, -1), (1, -1), (-1, 1), (1, 1)}  # the corners


@pytest.mark.parametrize("seed", range(6))
def test_a_row_of_dominoes_is_painted_inside_its_box(seed) -> None:
    img = np.full((300, 300, 3), 128, np.uint8)
    x0, y0, x1, y1 = (round(v) for v in clutter.domino_row(np.random.default_rng(seed), img, (150.0, 150.0), 30.0))
    assert x0 <= 150 <= x1 and y0 <= 150 <= y1
    assert 30 <= max(x1 - x0, y1 - y0) <= 3 * 2 * 1.1 * 30 + 2 * 0.3 * 33  # one to three dominoes, half 0.7-1.1 ppd
    # Body and pips lie in the box; only the soft shadow (at most 0.35 darker: 3 x 45 on this
    # grey) may spill past it.
    strong = np.abs(img.astype(int) - 128).sum(axis=2) > 150
    inside = np.zeros_like(strong)
    inside[max(y0 - 2, 0):y1 + 2, max(x0 - 2, 0):x1 + 2] = True
    assert strong.any() and not (strong & ~inside).any()


def test_cluttered_scenes_carry_decoys_apart_from_every_die() -> None:
    rng = np.random.default_rng(11)
    scenes = [render_scene(rng, clutter=1.0) for _ in range(12)]
    assert sum(len(s.decoys) for s in scenes) > 12
    for s in scenes:
        h, w = s.image.shape[:2]
        for x0, y0, x1, y1 in s.decoys:
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h


def test_every_decoy_of_a_scene_says_what_it_is() -> None:
    rng = np.random.default_rng(11)
    scenes = [render_scene(rng, clutter=1.0) for _ in range(12)]
    kinds = [kind for s in scenes for kind in s.decoy_kinds]
    assert all(len(s.decoy_kinds) == len(s.decoys) for s in scenes)
    assert set(kinds) <= set(clutter.SURFACES) | set(clutter.OBJECTS) | {"numeral_d6"}
    assert len(set(kinds)) >= 4  # surfaces and objects both, not one name for all


def test_the_kinds_do_not_change_what_is_drawn() -> None:
    # The benchmark's scenes come from fixed seeds: naming decoys must not draw anything more.
    a, b = (render_scene(np.random.default_rng(7), clutter=1.0) for _ in range(2))
    assert np.array_equal(a.image, b.image) and a.decoys == b.decoys and a.decoy_kinds == b.decoy_kinds


def test_no_clutter_asked_gives_no_decoys() -> None:
    rng = np.random.default_rng(11)
    assert all(not render_scene(rng).decoys for _ in range(6))


def test_a_decoy_is_shown_to_the_reader_as_not_a_die() -> None:
    rng = np.random.default_rng(2)
    img = np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8)
    die = np.array([[20, 20, 50, 50]], np.float32)
    decoy = np.array([[120, 120, 160, 160]], np.float32)
    with_decoy = reader_samples(img, die, np.array([3]), rng, negatives=0, exact_boxes=False, decoys=decoy)
    assert [label for _, label in with_decoy] == [2, NOT_A_DIE]
    assert with_decoy[1][0].shape == (READER_SIZE, READER_SIZE, 3)


def test_a_decoy_window_that_would_frame_a_die_is_not_a_negative() -> None:
    img = np.zeros((100, 100, 3), np.uint8)
    die = np.array([[40, 40, 60, 60]], np.float32)
    on_the_die = np.array([42, 42, 58, 58], np.float32)
    assert all(decoy_crop(img, on_the_die, die, np.random.default_rng(s)) is None for s in range(10))


def test_each_kind_of_decoy_is_shown_as_often_however_many_of_it_a_scene_has() -> None:
    kinds = ["eyes"] * 500 + ["numeral_d6", "domino", "domino"]
    rng = np.random.default_rng(4)
    picked = [kinds[pick_decoy(kinds, len(kinds), rng)] for _ in range(3000)]
    for kind in ("eyes", "numeral_d6", "domino"):
        assert abs(picked.count(kind) / 3000 - 1 / 3) < 0.05


@given(st.lists(st.sampled_from(["eyes", "token", "domino"]), min_size=1, max_size=30), st.integers(0, 2**32 - 1))
def test_a_picked_decoy_is_one_of_the_scene_s(kinds, seed) -> None:
    rng = np.random.default_rng(seed)
    assert 0 <= pick_decoy(kinds, len(kinds), rng) < len(kinds)
    assert 0 <= pick_decoy(None, len(kinds), rng) < len(kinds)  # kinds unknown: any decoy
