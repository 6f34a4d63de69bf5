"""The half-size search network (`HalfSearchDetector`): the search's maps from the photo at
half the search's scale, learned on the search's own samples, and a file that says so."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

import onnxruntime as ort  # noqa: E402
from helpers_nets import trained_looking  # noqa: E402

import dicecam.training.learn.train as train  # noqa: E402
from dicecam.training.learn.export import export_search  # noqa: E402
from dicecam.training.learn.export import main as export_main  # noqa: E402
from dicecam.training.learn.nets import (  # noqa: E402
    FULL_SEARCH_PROBE,
    HalfSearchDetector,
    SearchDetector,
    half_search_of,
)
from dicecam.training.shapes import SEARCH_STRIDE  # noqa: E402
from dicecam.vision.halvings import Halvings  # noqa: E402
from dicecam.vision.reader import DEFAULT_MODELS, SEARCH_FILE, DiceReader  # noqa: E402


def test_it_gives_the_search_s_maps_for_the_search_s_samples():
    x = torch.rand(2, 3, 256, 320)
    out = HalfSearchDetector().eval()(x)
    assert out.shape == SearchDetector().eval()(x).shape == (2, 5, 256 // SEARCH_STRIDE, 320 // SEARCH_STRIDE)


def test_it_reads_a_sample_as_the_photo_halved_by_2x2_means():
    net = trained_looking(HalfSearchDetector(), seed=1)
    x = torch.rand(1, 3, 128, 192)
    half = x.reshape(1, 3, 64, 2, 96, 2).mean(dim=(3, 5))
    assert torch.allclose(net(x), net.maps(half), atol=1e-5)


def test_it_starts_from_a_full_search_network_without_its_stride_4_block():
    full = trained_looking(SearchDetector(), seed=2).state_dict()
    start = half_search_of(full).state_dict()
    assert FULL_SEARCH_PROBE in full and not any(name.startswith("near.") for name in start)
    assert set(start) == {name for name in full if not name.startswith("near.")}
    assert all(torch.equal(start[name], full[name]) for name in start)
    # The first stride-8 block keeps its weights and stays at the stride the patch reached.
    assert half_search_of(full).down8[0].dw[0].stride == (1, 1)


def test_a_half_size_checkpoint_loads_as_it_was_saved():
    state = trained_looking(HalfSearchDetector(), seed=3).state_dict()
    loaded = half_search_of(state).state_dict()
    assert set(loaded) == set(state) and all(torch.equal(loaded[name], state[name]) for name in state)


@pytest.fixture(scope="module")
def half_file(tmp_path_factory) -> tuple[Path, HalfSearchDetector]:
    """A models folder: the shipped networks, and a half-size search network beside them."""
    folder = tmp_path_factory.mktemp("models")
    for f in DEFAULT_MODELS.iterdir():
        if f.suffix in (".onnx", ".json"):
            shutil.copy(f, folder / f.name)
    net = trained_looking(HalfSearchDetector(), seed=4)
    export_search(net, folder / SEARCH_FILE, min_score=0.25)
    return folder, net


def test_its_file_takes_the_half_size_photo_and_says_so(half_file):
    folder, net = half_file
    session = ort.InferenceSession(str(folder / SEARCH_FILE), providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    assert (meta["stride"], meta["input_scale"], meta["min_score"]) == (str(SEARCH_STRIDE // 2), "0.5", "0.25")
    photo = torch.rand(1, 3, 160, 224)
    maps = session.run(None, {"image": photo.numpy()})[0]
    np.testing.assert_allclose(maps, net.maps(photo).detach().numpy(), atol=1e-4)
    searcher = DiceReader(folder).detector.searcher
    assert searcher is not None and (searcher.stride, searcher.input_scale) == (SEARCH_STRIDE // 2, 0.5)
    assert DiceReader(folder).detector.input_scale == 1.0  # the first look's network takes the photo as it is


class _PeakAt:
    """A network's run that answers one peak at a cell, a box of 3 x 2 cells, whatever the input."""

    def __init__(self, stride: int, cell: tuple[int, int]) -> None:
        self.stride, self.cell, self.inputs = stride, cell, []

    def run(self, names, feeds):
        x = feeds["image"]
        self.inputs.append(x.shape)
        stride = self.stride
        maps = np.full((1, 5, x.shape[2] // stride, x.shape[3] // stride), -9.0, np.float32)
        iy, ix = self.cell
        maps[0, 0, iy, ix] = 9.0
        maps[0, 1, iy, ix], maps[0, 2, iy, ix] = np.log(3.0), np.log(2.0)
        maps[0, 3:5, iy, ix] = 0.0  # offsets at the cell's middle
        return [maps]


@pytest.mark.parametrize("half", [False, True])
def test_a_peak_lands_on_the_same_photo_place_from_either_network(half_file, half, monkeypatch):
    folder, _ = half_file
    reader = DiceReader(folder if half else DEFAULT_MODELS)
    searcher = reader.detector.searcher
    assert searcher is not None
    fake = _PeakAt(searcher.stride, (30, 50))
    monkeypatch.setattr(searcher, "session", fake)
    image = np.full((480, 640, 3), 120, np.uint8)
    photo = Halvings(image)
    found = reader.detector.search(photo, reader.detector.find(photo))
    # The search is at twice the photo's size (1,280 px): the full network sees it so, the
    # half-size one sees the photo itself; cell (30, 50) at stride 8 there is photo pixel
    # (50.5 * 4, 30.5 * 4), its box 3 x 2 cells of 8 search pixels.
    assert fake.inputs == [(1, 3, 480, 640) if half else (1, 3, 960, 1280)]
    np.testing.assert_allclose(found.boxes, [[202 - 6, 122 - 4, 202 + 6, 122 + 4]], atol=1e-3)


def test_the_command_line_trains_the_half_size_network(monkeypatch):
    seen: dict[str, object] = {}

    def fake_train_search(steps, **kwargs):
        seen.update(kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(train, "train_search", fake_train_search)
    with pytest.raises(SystemExit):
        train.main(["search", "--half-size"])
    assert seen["half"] is True


def test_the_export_command_writes_a_half_size_run_as_such(tmp_path):
    torch.save(trained_looking(HalfSearchDetector(), seed=5).state_dict(), tmp_path / "search.pt")
    export_main([str(tmp_path), str(tmp_path / "out"), "--search-min-score", "0.3"])
    session = ort.InferenceSession(str(tmp_path / "out" / SEARCH_FILE), providers=["CPUExecutionProvider"])
    assert session.get_modelmeta().custom_metadata_map["input_scale"] == "0.5"
