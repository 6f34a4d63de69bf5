"""Rendered game-table decoys shown to the reader kind by kind (`train reader --decoy-share`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from helpers_photos import one_photo_reader_stream

from dicecam.training.data import caches, decoy_cache
from dicecam.training.data.sources import decoy_source
from dicecam.training.render.clutter import OBJECTS, SURFACES
from dicecam.training.shapes import READER_SIZE

KINDS = set(SURFACES) | set(OBJECTS) | {"numeral_d6"}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    return decoy_cache.build(12, seed=3, path=tmp_path_factory.mktemp("decoys") / "decoys.npz")


def test_the_cache_holds_windows_on_known_decoys_a_few_of_each_kind_a_scene(rendered: Path) -> None:
    with np.load(rendered) as saved:
        images, kinds = saved["images"], saved["kinds"]
    assert images.dtype == np.uint8 and images.shape[1:] == (decoy_cache.SIZE, decoy_cache.SIZE, 3)
    assert len(images) == len(kinds) > 0
    assert set(kinds) <= KINDS
    # Twelve scenes keep at most PER_KIND of a kind each: a cloth's eyes cannot crowd out the rest.
    assert max(Counter(kinds).values()) <= 12 * decoy_cache.PER_KIND
    assert images.std() > 5  # pictures, not blank windows


def test_the_same_seed_renders_the_same_cache(rendered: Path, tmp_path: Path) -> None:
    again = decoy_cache.build(12, seed=3, path=tmp_path / "again.npz")
    with np.load(rendered) as a, np.load(again) as b:
        np.testing.assert_array_equal(a["images"], b["images"])
        np.testing.assert_array_equal(a["kinds"], b["kinds"])


def _two_kinds(path: Path) -> Path:
    """98 black windows of printed eyes and 2 white ones of numeral dice."""
    images = np.zeros((100, decoy_cache.SIZE, decoy_cache.SIZE, 3), np.uint8)
    images[98:] = 255
    np.savez(path, images=images, kinds=np.array(["eyes"] * 98 + ["numeral_d6"] * 2))
    return path


def test_each_kind_is_drawn_as_often_however_many_windows_it_has(tmp_path: Path) -> None:
    draw = decoy_source(_two_kinds(tmp_path / "decoys.npz"))
    assert draw is not None
    rng = np.random.default_rng(0)
    crops = [draw(rng) for _ in range(2000)]
    assert all(c.shape == (READER_SIZE, READER_SIZE, 3) for c in crops)
    numeral = np.mean([c.mean() > 128 for c in crops])
    assert 0.45 < numeral < 0.55  # 2 windows of 100, half the draws


def test_a_mined_cache_keeps_only_what_the_reader_takes_for_dice(rendered: Path, tmp_path: Path) -> None:
    models = Path(__file__).resolve().parents[2] / "models"
    mined = decoy_cache.build(12, seed=3, path=tmp_path / "mined.npz", models=models)
    with np.load(rendered) as everything, np.load(mined) as kept:
        assert bool(kept["mined"]) and not bool(everything["mined"])
        assert 0 < len(kept["images"]) < len(everything["images"])
        assert decoy_cache.taken_for_dice(kept["images"], models).all()
        dropped = ~decoy_cache.taken_for_dice(everything["images"], models)
        assert dropped.sum() == len(everything["images"]) - len(kept["images"])


def test_a_mined_cache_is_drawn_window_by_window(tmp_path: Path) -> None:
    path = _two_kinds(tmp_path / "decoys.npz")
    with np.load(path) as saved:
        np.savez(path, images=saved["images"], kinds=saved["kinds"], mined=np.array(True))
    draw = decoy_source(path)
    assert draw is not None
    rng = np.random.default_rng(0)
    assert np.mean([draw(rng).mean() > 128 for _ in range(2000)]) < 0.05  # 2 windows of 100


def test_no_cache_gives_no_source(tmp_path: Path) -> None:
    assert decoy_source(tmp_path / "missing.npz") is None


torch = pytest.importorskip("torch", reason="training needs the `train` extra")


def _stream(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, share: float):
    monkeypatch.setattr(caches, "DECOYS", _two_kinds(tmp_path / "decoys.npz"))
    grey = np.full((120, 160, 3), 128, np.uint8)
    grey[40:80, 60:100] = 60  # one dark "die"
    # Crops as cut, so a decoy window stays plain black or white.
    return one_photo_reader_stream(monkeypatch, grey, [60, 40, 100, 80], 2, decoy_share=share)


def _first(stream, n: int = 400) -> list[tuple[np.ndarray, int]]:
    out = []
    for crop, label in stream:
        out.append((crop, label))
        if len(out) == n:
            return out
    return out


def test_the_stream_shows_decoys_as_no_die_at_its_share(monkeypatch, tmp_path) -> None:
    from dicecam.training.shapes import NOT_A_DIE

    samples = _first(_stream(monkeypatch, tmp_path, 0.3), 1000)
    # Decoy windows are plain black or white; the grey photo's crops never are.
    decoys = [(crop.mean(), label) for crop, label in samples if crop.min() == crop.max() and crop.mean() in (0, 1)]
    assert {label for _, label in decoys} == {NOT_A_DIE}
    # Each draw of the photo gives its one die (class 1, a 2) once: the share is of draws.
    draws = sum(label == 1 for _, label in samples)
    assert 0.25 < len(decoys) / (len(decoys) + draws) < 0.35
    assert 0.4 < np.mean([mean == 1 for mean, _ in decoys]) < 0.6  # two kinds, drawn alike


def test_off_the_stream_draws_exactly_as_before(monkeypatch, tmp_path) -> None:
    import dicecam.training.learn.train as train

    with_none = _first(_stream(monkeypatch, tmp_path, 0.0), 50)
    monkeypatch.setattr(caches, "DECOYS", tmp_path / "absent.npz")
    before = _first(train.ReaderStream(synth_fraction=0.0, seed=5), 50)
    assert [label for _, label in with_none] == [label for _, label in before]
    for (a, _), (b, _) in zip(with_none, before):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("share", [-0.1, 1.0])
def test_a_share_outside_0_to_1_is_refused(monkeypatch, tmp_path, share) -> None:
    with pytest.raises(ValueError, match="decoy share"):
        _stream(monkeypatch, tmp_path, share)


def test_asking_for_decoys_without_a_cache_says_how_to_make_one(monkeypatch, tmp_path) -> None:
    import dicecam.training.learn.train as train

    monkeypatch.setattr(caches, "DECOYS", tmp_path / "absent.npz")
    with pytest.raises(FileNotFoundError, match="decoy_cache"):
        train.ReaderStream(synth_fraction=0.0, seed=5, decoy_share=0.2)


def test_the_command_line_takes_the_share() -> None:
    from dicecam.training.learn.train import parser

    assert parser().parse_args(["reader", "--decoy-share", "0.15"]).decoy_share == 0.15
    assert parser().parse_args(["reader"]).decoy_share == 0.0
