"""Keypads, toy bricks, buttons, coins, tiles and chips: pieces the renderer lays on a table
that a pip reader may take for a die's face."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.training.render import clutter, grid_objects, tiles
from dicecam.training.render.objects import OBJECT_SETS
from dicecam.training.render.scene import render_scene

PIECES = grid_objects.GRID_OBJECTS | tiles.TILE_OBJECTS


@pytest.mark.parametrize("kind", sorted(PIECES))
@given(seed=st.integers(0, 2**32 - 1), ppd=st.floats(12.0, 60.0))
@settings(max_examples=60, deadline=None)
def test_each_piece_is_painted_where_its_box_says(kind, seed, ppd) -> None:
    img = np.full((400, 400, 3), 128, np.uint8)
    box = PIECES[kind][0](np.random.default_rng(seed), img, (200.0, 200.0), ppd)
    x0, y0, x1, y1 = (round(v) for v in box)
    assert x1 > x0 and y1 > y0
    changed = np.abs(img.astype(int) - 128).sum(axis=2) > 0
    assert changed[max(y0, 0):y1, max(x0, 0):x1].any()
    # The box frames a die-sized block of marks (a 2x4 brick's studs, turned: at most 2.1 die
    # edges; a score sheet's column of six printed faces, at most 6.3), not a whole remote or
    # a table's width; one pixel for the rounding.
    assert max(x1 - x0, y1 - y0) <= (6.3 if kind == "score_sheet" else 2.1) * ppd + 1


@pytest.mark.parametrize("seed", range(8))
def test_a_keypad_box_frames_a_block_of_its_keys(seed) -> None:
    img = np.full((400, 400, 3), 128, np.uint8)
    x0, y0, x1, y1 = grid_objects.GRID_OBJECTS["keypad"][0](np.random.default_rng(seed), img, (200.0, 200.0), 40.0)
    # 2-3 keys a side at a pitch of 0.28-0.45 die edges: at least 2 x 0.28 edges wide (turned, wider).
    assert min(x1 - x0, y1 - y0) >= 2 * 0.28 * 40 - 1
    body = img[round(y0):round(y1), round(x0):round(x1)].astype(int)
    assert body.std() > 10  # keys on a body, not one flat colour


@pytest.mark.parametrize(("name", "shares"), [
    ("both", {"table": 2 / 3, "grid": 1 / 3}),
    ("all", {"table": 1 / 2, "grid": 1 / 4, "tiles": 1 / 4}),
])
def test_a_mixed_set_draws_each_table_its_share(name, shares) -> None:
    assert OBJECT_SETS["table"] is clutter.OBJECTS and OBJECT_SETS["grid"] is grid_objects.GRID_OBJECTS
    mixed = OBJECT_SETS[name]
    assert set(mixed) == set().union(*(OBJECT_SETS[t] for t in shares))
    weights = {k: w for k, (_, w) in mixed.items()}
    assert sum(weights.values()) == pytest.approx(1.0)
    for table, share in shares.items():
        assert sum(weights[k] for k in OBJECT_SETS[table]) == pytest.approx(share)
        inner = {k: w for k, (_, w) in OBJECT_SETS[table].items()}
        for k in inner:  # each table's own mix kept inside its share
            assert weights[k] / share == pytest.approx(inner[k] / sum(inner.values()))


def test_the_default_table_draws_what_it_always_drew() -> None:
    # The rendered benchmark's scenes come from fixed seeds: naming the default table must not change them.
    a = render_scene(np.random.default_rng(7), upright=True, clutter=1.0)
    b = render_scene(np.random.default_rng(7), upright=True, clutter=1.0, objects=OBJECT_SETS["table"])
    assert np.array_equal(a.image, b.image) and a.decoys == b.decoys and a.decoy_kinds == b.decoy_kinds


def test_a_grid_table_lays_grid_things_and_names_them() -> None:
    rng = np.random.default_rng(3)
    kinds = {k for _ in range(10) for k in render_scene(rng, upright=True, clutter=1.0,
                                                         objects=OBJECT_SETS["grid"]).decoy_kinds}
    assert kinds & set(grid_objects.GRID_OBJECTS)
    assert not kinds & set(clutter.OBJECTS)  # only the surfaces' own decoys besides them
