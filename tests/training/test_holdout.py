"""The held-out part of a train split is fixed by the photo's name, whatever run asks."""

from __future__ import annotations

import json

import cv2
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from dicecam.training.data.photos import held_out, load_split

names = st.text(min_size=1, max_size=40)
fractions = st.floats(min_value=0.0, max_value=1.0)


@given(names)
def test_nothing_is_held_out_at_zero_and_everything_at_one(name):
    assert not held_out(name, 0.0)
    assert held_out(name, 1.0)


@given(names, fractions, fractions)
def test_a_larger_fraction_holds_out_at_least_the_same_photos(name, a, b):
    small, large = sorted((a, b))
    assert not held_out(name, small) or held_out(name, large)


def test_the_share_held_out_is_about_the_fraction():
    photos = [f"images/train/IMG_{i:05d}.jpg" for i in range(2000)]
    share = np.mean([held_out(p, 0.2) for p in photos])
    assert 0.17 < share < 0.23


def test_load_split_leaves_out_exactly_the_held_out_photos(tmp_path):
    (tmp_path / "set").mkdir()
    rows = []
    for i in range(30):
        name = f"p{i}.png"
        cv2.imwrite(str(tmp_path / "set" / name), np.full((8, 8, 3), i, np.uint8))
        rows.append({"image": name, "split": "train", "dice": [{"value": 1 + i % 6, "box": [1, 1, 5, 5]}]})
    (tmp_path / "set" / "labels.jsonl").write_text("\n".join(json.dumps(r) for r in rows))

    kept = {s.name for s in load_split("set", "train", root=tmp_path, holdout=0.3)}
    everything = {s.name for s in load_split("set", "train", root=tmp_path)}

    assert everything == {r["image"] for r in rows}
    assert kept == {n for n in everything if not held_out(n, 0.3)}
    assert 0 < len(kept) < len(everything)
