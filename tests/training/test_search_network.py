"""The count's search network: stride-8 targets, a network started from a detector's layers,
its file and the runtime that searches with it, and a schedule that ends on the clock."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from helpers_nets import trained_looking  # noqa: E402
from torch.utils.data import IterableDataset  # noqa: E402

import dicecam.training.learn.train as train  # noqa: E402
from dicecam.training.data.detector_targets import centernet_targets, detector_sample  # noqa: E402
from dicecam.training.learn.export import export_search  # noqa: E402
from dicecam.training.learn.export import main as export_main  # noqa: E402
from dicecam.training.learn.nets import (  # noqa: E402
    SEARCH_PROBE,
    DiceDetector,
    SearchDetector,
    search_from_detector,
    search_of,
)
from dicecam.training.shapes import SEARCH_STRIDE, STRIDE  # noqa: E402
from dicecam.vision.halvings import Halvings  # noqa: E402
from dicecam.vision.reader import DEFAULT_MODELS, SEARCH_FILE, DiceReader  # noqa: E402


@pytest.mark.parametrize("stride", [STRIDE, SEARCH_STRIDE])
def test_targets_are_laid_on_the_cells_of_their_stride(stride):
    boxes = np.array([[20, 40, 60, 72]], np.float32)  # centre (40, 56), 40 x 32
    t = centernet_targets(boxes, (128, 160), stride=stride)
    assert t["heat"].shape == (128 // stride, 160 // stride)
    iy, ix = int(56 / stride), int(40 / stride)
    assert t["heat"][iy, ix] == 1.0 and t["mask"].sum() == 1.0
    np.testing.assert_allclose(np.exp(t["size"][:, iy, ix]) * stride, [40, 32], rtol=1e-5)
    np.testing.assert_allclose(t["offset"][:, iy, ix], [40 / stride - ix, 56 / stride - iy], atol=1e-6)


def test_a_search_sample_s_targets_sit_at_stride_8_and_its_dice_in_the_search_s_range():
    img = np.full((480, 640, 3), 90, np.uint8)
    boxes = np.array([[300, 200, 330, 230]], np.float32)
    sizes = []
    for seed in range(20):
        x, t = detector_sample(img, boxes, np.random.default_rng(seed), die_px=train.SEARCH_DIE_PX,
                               stride=SEARCH_STRIDE, augment=False)
        assert x.shape == (3, 256, 256) and t["heat"].shape == (32, 32)
        if t["mask"].any():
            iy, ix = np.argwhere(t["mask"] > 0)[0]
            sizes.append(float(np.exp(t["size"][0, iy, ix])) * SEARCH_STRIDE)
    assert sizes and min(sizes) >= train.SEARCH_DIE_PX[0] - 1 and max(sizes) <= train.SEARCH_DIE_PX[1] + 1


def test_the_search_network_gives_the_detector_s_maps_at_stride_8():
    out = SearchDetector().eval()(torch.zeros(1, 3, 256, 320))
    assert out.shape == (1, 5, 256 // SEARCH_STRIDE, 320 // SEARCH_STRIDE)


def test_it_starts_from_a_detector_s_stride_8_layers_its_sizes_counted_in_its_own_cells():
    detector = trained_looking(DiceDetector(), seed=3).state_dict()
    start = search_from_detector(detector)
    fresh = SearchDetector().state_dict()
    assert set(start) == set(fresh)
    shared = [name for name in start if name in detector and not name.startswith("head.")]
    assert any(n.startswith("down8.") for n in shared) and any(n.startswith("fuse8.") for n in shared)
    for name in shared:
        assert torch.equal(start[name], detector[name]), name
    assert not any(name.startswith(("stem.", "down4.", "fuse4.")) for name in start)
    assert torch.equal(start["head.weight"], detector["head.weight"])
    shift = math.log(SEARCH_STRIDE / STRIDE)
    assert torch.allclose(start["head.bias"][1:3], detector["head.bias"][1:3] - shift)
    assert torch.equal(start["head.bias"][[0, 3, 4]], detector["head.bias"][[0, 3, 4]])
    # The same layers compute the same stride-16 features from the same stride-4 input.
    model, plain = search_of(detector).eval(), DiceDetector().eval()
    plain.load_state_dict(detector)
    x4 = torch.rand(1, 32, 32, 32)
    assert torch.allclose(model.down16(model.down8(x4)), plain.down16(plain.down8(x4)))


def test_a_search_checkpoint_loads_as_it_was_saved():
    state = trained_looking(SearchDetector(), seed=5).state_dict()
    assert SEARCH_PROBE in state
    loaded = search_of(state).state_dict()
    assert all(torch.equal(loaded[name], state[name]) for name in state)


@pytest.fixture(scope="module")
def models_with_search(tmp_path_factory) -> Path:
    """The shipped networks, and beside them a search network (started from a fresh detector)."""
    folder = tmp_path_factory.mktemp("models")
    for f in DEFAULT_MODELS.iterdir():
        if f.suffix in (".onnx", ".json"):
            shutil.copy(f, folder / f.name)
    torch.manual_seed(0)
    export_search(trained_looking(SearchDetector(), seed=7), folder / SEARCH_FILE, min_score=0.25)
    return folder


def test_the_search_network_s_file_carries_its_stride_and_threshold(models_with_search):
    reader = DiceReader(models_with_search)
    searcher = reader.detector.searcher
    assert searcher is not None
    assert (searcher.stride, searcher.min_score, searcher.input_side) == (SEARCH_STRIDE, 0.25, 512)
    assert reader.detector.stride == STRIDE
    assert DiceReader(models_with_search, search_network=False).detector.searcher is None
    shipped = DiceReader().detector.searcher  # S279: the shipped folder searches with its own (S272)
    assert shipped is not None and (shipped.stride, shipped.min_score) == (SEARCH_STRIDE, 0.25)


def test_the_export_command_writes_a_run_s_search_network_with_its_threshold(tmp_path):
    torch.manual_seed(0)
    torch.save(trained_looking(SearchDetector(), seed=3).state_dict(), tmp_path / "search.pt")
    export_main([str(tmp_path), str(tmp_path / "out"), "--search-min-score", "0.25"])
    folder = tmp_path / "out"
    # A run with only a search network: it and its twin, which the reader takes as folded from it.
    assert sorted(f.name for f in folder.iterdir()) == [SEARCH_FILE, "search_x2.onnx"]
    for f in DEFAULT_MODELS.iterdir():
        if f.suffix in (".onnx", ".json") and not (folder / f.name).exists():
            shutil.copy(f, folder / f.name)
    searcher = DiceReader(folder).detector.searcher
    assert searcher is not None and (searcher.stride, searcher.min_score) == (SEARCH_STRIDE, 0.25)
    assert searcher.twice is not None


def test_the_count_s_search_is_the_search_network_s_look(models_with_search, monkeypatch):
    reader = DiceReader(models_with_search)
    searcher = reader.detector.searcher
    assert searcher is not None
    looks: list[float] = []
    closer = searcher._closer

    def spy(photo, window, zscale, *, min_score=None):
        looks.append(min_score)
        return closer(photo, window, zscale, min_score=min_score)

    monkeypatch.setattr(searcher, "_closer", spy)
    image = np.full((480, 640, 3), 120, np.uint8)
    photo = Halvings(image)
    reader.detector.search(photo, reader.detector.find(photo))
    assert looks == [0.25]  # its own threshold, under the setting's 0.3 weak peaks
    reader.read(image, count=5)  # an empty table told of five dice searches
    assert len(looks) == 2


def test_a_schedule_bounded_by_minutes_ends_on_the_clock_and_saves(tmp_path, capsys):
    class Endless(IterableDataset):
        def __iter__(self):
            while True:
                yield torch.rand(1), torch.rand(1)

    def step(model, data):
        x, y = data
        return torch.nn.functional.mse_loss(model(x), y), ""

    model = torch.nn.Linear(1, 1)
    train.fit(model, Endless(), 10**9, batch=4, lr=0.01, resume=None, checkpoint=tmp_path / "m.pt",
              log_every=10**9, loss_step=step, workers=0, minutes=0.02)
    assert "schedule ended at step" in capsys.readouterr().out
    assert (tmp_path / "m.pt").is_file()


@pytest.mark.parametrize("argv", [
    ["detector", "--minutes", "5"],
    ["search", "--minutes", "0"],
    ["search", "--whole-die"],
    ["search", "--deep", "2"],
    ["search", "--paste-dice", "0.5"],
])
def test_the_command_line_refuses_what_the_search_network_has_not(argv, capsys):
    with pytest.raises(SystemExit):
        train.main(argv)
    assert "error" in capsys.readouterr().err


def test_a_reader_tune_may_be_bounded_by_minutes_too(monkeypatch):
    """`--minutes` reaches the reader's schedule (session 53: a tune beside another on 2 cores)."""
    seen: dict[str, object] = {}

    def fake_train_reader(steps, **kwargs):
        seen.update(kwargs, steps=steps)
        raise SystemExit(0)

    monkeypatch.setattr(train, "train_reader", fake_train_reader)
    with pytest.raises(SystemExit):
        train.main(["reader", "--minutes", "40", "--reader-steps", "4000"])
    assert seen["minutes"] == 40 and seen["steps"] == 4000
