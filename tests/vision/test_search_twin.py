"""The search network's twin (`search_x2.onnx`): its 2x enlargement folded into its first layer,
the same maps from the photo at half the scale, used by every pass that enlarges 2x or more."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest
from test_samples import PHOTOS

from dicecam.vision.decode import load_image
from dicecam.vision.detector import DieDetector
from dicecam.vision.halvings import Halvings
from dicecam.vision.onnx import session
from dicecam.vision.reader import DEFAULT_MODELS, FREE_SEARCH_FILE, SEARCH_FILE, DiceReader
from dicecam.vision.settings import ReaderSettings

#: A Catan board's shore with two small dice among its tokens: a 640 px photo the search enlarges 2x.
BOARD = next(p for p in PHOTOS if p.image.startswith("roboflow_dice/dice_309"))


def _maps(net, image: np.ndarray) -> np.ndarray:
    x = (image.astype(np.float32) / 255).transpose(2, 0, 1)[None]
    return net.run(None, {"image": np.ascontiguousarray(x)})[0][0]


def _counted(net, runs: list[object]):
    """`net`'s run, noting `net` in `runs` at each call."""
    run = net.run

    def counted(*args):
        runs.append(net)
        return run(*args)
    return counted


def test_the_twin_gives_the_search_network_s_maps_of_the_photo_enlarged():
    image = load_image(BOARD.path)[:320, :480]  # any multiple of 16 a side
    plain, twin = (session(DEFAULT_MODELS / name, 2) for name in (SEARCH_FILE, "search_x2.onnx"))
    # A float enlargement: the network then sees what the twin computes, no byte rounded.
    enlarged = cv2.resize(image.astype(np.float32), (960, 640), interpolation=cv2.INTER_LINEAR)
    want = _maps(plain, enlarged)
    got = _maps(twin, image)
    assert got.shape == want.shape == (5, 80, 120)
    np.testing.assert_allclose(got, want, atol=2e-3)


@pytest.mark.parametrize("window", [(0, 0, 640, 640), (96, 160, 416, 480)])
def test_a_search_pass_with_the_twin_finds_the_boxes_it_finds_without(window):
    image = load_image(BOARD.path)
    with_twin = DiceReader().detector.searcher
    assert with_twin is not None and with_twin.twice is not None
    without = DieDetector(with_twin.session, with_twin.settings)
    looks = []
    for net in (with_twin, without):
        photo = Halvings(image)
        looks.append((net._closer(photo, window, 2.0, min_score=0.25), photo.looked))
    (a, looked_a), (b, looked_b) = looks
    assert looked_a == looked_b  # the free look's budget counts the pixels the network sees
    assert len(a.boxes) == len(b.boxes) >= 2
    order_a, order_b = (np.argsort(look.boxes[:, 0] + 1000 * look.boxes[:, 1]) for look in (a, b))
    # The plain pass rounds its enlarged photo to bytes; the twin does not: a pixel or so apart at most.
    np.testing.assert_allclose(a.boxes[order_a], b.boxes[order_b], atol=1.5)
    np.testing.assert_allclose(a.scores[order_a], b.scores[order_b], atol=0.03)


def test_a_pass_enlarging_under_2x_is_the_plain_network_s(monkeypatch):
    searcher = DiceReader().detector.searcher
    assert searcher is not None and searcher.twice is not None
    runs: list[object] = []
    for net in (searcher.session, searcher.twice):
        monkeypatch.setattr(net, "run", _counted(net, runs))
    searcher._closer(Halvings(load_image(BOARD.path)), (0, 0, 640, 640), 1.5)
    searcher._closer(Halvings(load_image(BOARD.path)), (0, 0, 640, 640), 2.0)
    assert runs == [searcher.session, searcher.twice]


def test_a_twin_not_folded_from_its_network_is_left_unused(tmp_path):
    for f in DEFAULT_MODELS.iterdir():
        if f.suffix in (".onnx", ".json"):
            shutil.copy(f, tmp_path / f.name)
    # The search's twin beside another network (as after a retraining that did not fold again).
    shutil.copy(DEFAULT_MODELS / "search_x2.onnx", tmp_path / "free_search_x2.onnx")
    shutil.copy(DEFAULT_MODELS / "detector.onnx", tmp_path / FREE_SEARCH_FILE)
    with pytest.warns(UserWarning, match="free_search_x2.onnx was not folded from this free_search.onnx"):
        reader = DiceReader(tmp_path)
    assert reader.detector.free_searcher is not None and reader.detector.free_searcher.twice is None
    assert reader.detector.searcher is not None and reader.detector.searcher.twice is not None


def test_a_network_given_a_twin_of_another_stride_is_refused():
    detector = session(DEFAULT_MODELS / "detector.onnx", 1)
    with pytest.raises(ValueError, match="twin"):
        DieDetector(detector, ReaderSettings(), twice=session(DEFAULT_MODELS / "search_x2.onnx", 1))


def test_a_phone_s_photo_is_searched_by_the_twin_from_its_halving(monkeypatch):
    image = load_image(BOARD.path)
    phone = cv2.resize(image, (1600, 1600), interpolation=cv2.INTER_CUBIC)  # the page's photos: ~2,000 px
    searcher = DiceReader().detector.searcher
    assert searcher is not None and searcher.twice is not None and searcher.settings.twin_from_halving
    plain = searcher.but(searcher.settings.but(twin_from_halving=False))
    runs: list[object] = []
    for net in (searcher.session, searcher.twice):
        monkeypatch.setattr(net, "run", _counted(net, runs))
    # The search's scale on a 1,600 px photo: 1,280 px, under 2x the photo but 1.6x its 800 px halving.
    a = searcher._closer(Halvings(phone), (0, 0, 1600, 1600), 0.8, min_score=0.25)
    b = plain._closer(Halvings(phone), (0, 0, 1600, 1600), 0.8, min_score=0.25)
    assert runs == [searcher.twice, searcher.session]
    # The same dice: every strong box of one within a few of the photo's pixels of one of the other.
    for one, other in ((a, b), (b, a)):
        strong = one.boxes[one.scores >= 0.5]
        assert len(strong) >= 2
        gaps = np.abs(strong[:, None, :] - other.boxes[None, :, :]).max(axis=2).min(axis=1)
        assert gaps.max() <= 8.0
