"""A thinner search network taught the shipped one's maps (training.learn.distil_search, C394)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")

from helpers_nets import trained_looking  # noqa: E402

from dicecam.training.learn.distil_search import (  # noqa: E402
    CROP,
    EDGE_CELLS,
    batch,
    distil_loss,
    padded,
    search_view,
)
from dicecam.training.learn.nets import DEEP_PROBE, SEARCH_PROBE, SearchDetector, search_of  # noqa: E402
from dicecam.vision.candidates import Candidates  # noqa: E402
from dicecam.vision.detector import DieDetector  # noqa: E402
from dicecam.vision.halvings import Halvings  # noqa: E402
from dicecam.vision.reader import DiceReader  # noqa: E402

STRIDE = 8


@pytest.mark.parametrize("shape", [(640, 640, 3), (480, 640, 3), (3024, 4032, 3), (300, 400, 3)])
def test_the_search_view_is_the_photo_as_the_count_s_search_sees_it(shape, monkeypatch):
    image = np.random.default_rng(1).integers(0, 256, shape, dtype=np.uint8)
    seen: list[np.ndarray] = []
    real = DieDetector._detect_at

    def spy(self, small, *args, **kwargs):
        seen.append(small)
        return real(self, small, *args, **kwargs)

    monkeypatch.setattr(DieDetector, "_detect_at", spy)
    DiceReader().detector.search(Halvings(image), Candidates.empty())
    view = search_view(image)
    assert max(view.shape[:2]) == 1280  # enlarged or shrunk, the search looks at 1,280 px
    np.testing.assert_array_equal(view, seen[-1])


def test_padding_is_to_multiples_of_32_with_zeros():
    x = padded(np.full((40, 70, 3), 255, np.uint8))
    assert x.shape == (3, 64, 96) and x.dtype == np.float32
    assert x[:, :40, :70].min() == 1.0 and x[:, 40:].max() == 0.0 and x[:, :, 70:].max() == 0.0


def _views(h: int, w: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(2)
    view = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    maps = rng.normal(0, 1, (5, -(-h // 32) * 32 // STRIDE, -(-w // 32) * 32 // STRIDE)).astype(np.float16)
    maps[0] -= 4  # mostly no die, as a photo's heat map is
    maps[0, maps.shape[1] // 2, maps.shape[2] // 2] = 6  # one sure peak
    return [(view, maps)]


def test_a_batch_s_crops_sit_on_the_32_px_grid_with_the_teacher_s_maps_there():
    views = _views(640, 960)
    x, t, w = batch(views, np.random.default_rng(3), 16, STRIDE)
    assert x.shape == (16, 3, CROP, CROP) and t.shape == (16, 5, CROP // STRIDE, CROP // STRIDE)
    full, maps = padded(views[0][0]), views[0][1].astype(np.float32)
    for n in range(16):
        # Find where the crop came from: its first row of pixels is the photo's at a 32 px step.
        hits = [(y, xx) for y in range(0, 640 - CROP + 1, 32) for xx in range(0, 960 - CROP + 1, 32)
                if np.array_equal(full[:, y:y + CROP, xx:xx + CROP], x[n].numpy())]
        assert len(hits) == 1
        y, xx = hits[0]
        np.testing.assert_array_equal(t[n].numpy(), maps[:, y // STRIDE:(y + CROP) // STRIDE,
                                                         xx // STRIDE:(xx + CROP) // STRIDE])
        # Cells by a cut edge are left out; by the photo's own edge they count.
        assert (w[n, :EDGE_CELLS].sum() == 0) == (y > 0)
        assert (w[n, -EDGE_CELLS:].sum() == 0) == (y + CROP < 640)
        assert w[n, EDGE_CELLS:-EDGE_CELLS, EDGE_CELLS:-EDGE_CELLS].min() == 1.0


def test_most_crops_hold_the_teacher_s_peak():
    views = _views(640, 960)
    _, t, w = batch(views, np.random.default_rng(4), 40, STRIDE)
    with_peak = ((torch.sigmoid(t[:, 0]) > 0.9) & (w > 0)).flatten(1).any(1)
    assert with_peak.float().mean() >= 0.5  # 60% are cut around a peak, some random ones hold it too


def test_a_photo_smaller_than_a_crop_is_padded_and_its_cells_beyond_it_weigh_nothing():
    views = _views(200, 300)
    x, t, w = batch(views, np.random.default_rng(5), 4, STRIDE)
    cells_h, cells_w = 224 // STRIDE, 320 // STRIDE  # the photo padded to 32s
    assert float(w[:, cells_h:].sum()) == 0.0 and float(w[:, :, cells_w:].sum()) == 0.0
    assert float(x[:, :, 224:].abs().sum()) == 0.0


def test_the_loss_is_least_where_the_student_gives_the_teacher_s_maps():
    views = _views(640, 960)
    _, t, w = batch(views, np.random.default_rng(6), 8, STRIDE)
    same = float(distil_loss(t.clone(), t, w))
    off = float(distil_loss(t + torch.randn_like(t), t, w))
    flat = float(distil_loss(torch.zeros_like(t), t, w))
    assert same < off and same < flat


def test_a_thin_search_network_loads_with_its_own_widths_and_the_shipped_one_keeps_its_own():
    thin = trained_looking(SearchDetector(16, 32), seed=1).state_dict()
    loaded = search_of(thin)
    assert loaded.state_dict()[SEARCH_PROBE].shape[0] == 16 and loaded.state_dict()[DEEP_PROBE].shape[0] == 32
    assert all(torch.equal(loaded.state_dict()[k], v) for k, v in thin.items())
    wide = SearchDetector().state_dict()
    assert wide[SEARCH_PROBE].shape[0] == 32 and wide[DEEP_PROBE].shape[0] == 64
    out = loaded.eval()(torch.zeros(1, 3, 256, 320))
    assert out.shape == (1, 5, 256 // STRIDE, 320 // STRIDE)
