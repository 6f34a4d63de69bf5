"""Training streams draw real photos by their set's weight and leave the held-out ones out."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")

import dicecam.training.learn.train as train
from dicecam.training.data.photos import Sample


@pytest.fixture
def fake_sets(monkeypatch):
    """Two photo sets of 10 and 30 photos; records the holdout each was asked for."""
    asked = []

    def real_samples(sets, split="train", *, holdout=0.0):
        (name,) = sets
        asked.append(holdout)
        count = {"byler_d6": 10, "matteop65_wood": 30}[name]
        return [Sample(np.zeros((4, 4, 3), np.uint8), None, np.array([1]), f"{name}/{i}") for i in range(count)]

    monkeypatch.setattr(train, "real_samples", real_samples)
    monkeypatch.setattr(train.DetectorStream, "SETS", ("byler_d6", "matteop65_wood"))
    return asked


def _draws(stream, n=4000):
    rng = np.random.default_rng(0)
    return Counter(stream.real_photo(rng).name.split("/")[0] for _ in range(n))


def test_every_photo_is_as_likely_by_default(fake_sets):
    counts = _draws(train.DetectorStream(synth_fraction=0.0, seed=0))
    assert 0.2 < counts["byler_d6"] / 4000 < 0.3  # 10 of 40 photos


def test_a_weight_draws_a_set_that_much_more_often(fake_sets):
    counts = _draws(train.DetectorStream(synth_fraction=0.0, seed=0, weights={"byler_d6": 3.0}))
    assert 0.45 < counts["byler_d6"] / 4000 < 0.55  # 30 of 60 shares


def test_a_zero_weight_leaves_a_set_out(fake_sets):
    counts = _draws(train.DetectorStream(synth_fraction=0.0, seed=0, weights={"matteop65_wood": 0.0}))
    assert set(counts) == {"byler_d6"}


def test_the_holdout_reaches_every_set(fake_sets):
    train.DetectorStream(synth_fraction=0.0, seed=0, holdout=0.2)
    assert fake_sets == [0.2, 0.2]


@pytest.mark.parametrize("weights", [{"byler_d6": 0.0, "matteop65_wood": 0.0}, {"byler_d6": -1.0}])
def test_weights_that_leave_nothing_to_draw_are_refused(fake_sets, weights):
    with pytest.raises(ValueError, match="weights"):
        train.DetectorStream(synth_fraction=0.0, seed=0, weights=weights)


def test_a_crowded_photo_shows_every_die_in_time():
    # 21 dice, a negative and a close-up: each draw takes a few, but over many draws all.
    pairs = list(range(23))
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(200):
        some = train.some_of(pairs, rng)
        assert len(some) == len(set(some)) == 5
        seen.update(some)
    assert seen == set(pairs)


@pytest.mark.parametrize("count", [0, 1, 4, 7])
def test_a_photo_of_few_crops_gives_them_all(count):
    assert train.some_of(list(range(count)), np.random.default_rng(0)) == list(range(count))


def test_focused_photos_are_drawn_that_much_more_often(fake_sets):
    focus = frozenset(f"byler_d6/byler_d6/{i}" for i in range(5))  # half of byler's 10
    stream = train.DetectorStream(synth_fraction=0.0, seed=0, focus=focus, focus_weight=7.0)
    rng = np.random.default_rng(0)
    names = Counter(stream.real_photo(rng).name for _ in range(6000))
    focused = sum(n for name, n in names.items() if f"byler_d6/{name}" in focus)
    assert 0.48 < focused / 6000 < 0.58  # 35 of 70 shares: 5 x 7, against 5 + 30 x 1


def test_a_focus_that_names_no_train_photo_is_refused(fake_sets):
    # "roboflow_dice/NAME.jpg" for "roboflow_dice/images/train/NAME.jpg" would change nothing, silently.
    with pytest.raises(ValueError, match="no train photo is named"):
        train.DetectorStream(synth_fraction=0.0, seed=0, focus=frozenset({"byler_d6/3"}), focus_weight=50.0)


def test_a_focus_file_lists_set_and_image(tmp_path):
    from dicecam.training.data.unboxed import read_focus

    path = tmp_path / "focus.txt"
    path.write_text("# unboxed by the shipped pair\nroboflow_dice/images/train/a.jpg\n\n  byler_d6/b.jpg  # two\n")
    assert read_focus(path) == {"roboflow_dice/images/train/a.jpg", "byler_d6/b.jpg"}


@pytest.mark.parametrize("argv", [["detector", "--focus", "/nonexistent/focus.txt"],
                                  ["detector", "--focus", "README.md", "--focus-weight", "-1"]])
def test_a_focus_file_that_cannot_be_read_or_a_negative_weight_is_refused(argv):
    with pytest.raises(SystemExit):
        train.main(argv)
