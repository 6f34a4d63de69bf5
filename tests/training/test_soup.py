"""Averaging fine-tunes of one detector, or of one reader, into one network (training.learn.soup)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

import torch

from dicecam.training.learn.nets import DiceDetector
from dicecam.training.learn.soup import SoupError, average_states, main


def _state(seed: int) -> dict[str, torch.Tensor]:
    torch.manual_seed(seed)
    model = DiceDetector()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.normal_()
    # Step counters differ between runs; they must not be averaged like weights.
    state = model.state_dict()
    for value in state.values():
        if not value.is_floating_point():
            value.fill_(seed)
    return state


def test_the_soup_is_the_mean_of_every_weight_and_keeps_the_first_counters() -> None:
    states = [_state(1), _state(2), _state(3)]
    soup = average_states(states)
    assert list(soup) == list(states[0])
    for key, value in soup.items():
        if value.is_floating_point():
            expected = (states[0][key] + states[1][key] + states[2][key]) / 3
            torch.testing.assert_close(value, expected)
        else:
            assert value.dtype == states[0][key].dtype
            assert torch.equal(value, states[0][key])


def test_a_soup_of_one_is_that_network() -> None:
    state = _state(4)
    soup = average_states([state])
    assert all(torch.equal(soup[key], state[key]) for key in state)


def test_networks_of_other_shapes_are_refused() -> None:
    state = _state(5)
    other = dict(state)
    first = next(key for key, value in state.items() if value.is_floating_point())
    other[first] = torch.zeros(3, 3)
    with pytest.raises(SoupError, match="different shapes"):
        average_states([state, other])
    with pytest.raises(SoupError, match="other layers"):
        average_states([state, {key: state[key] for key in list(state)[1:]}])
    with pytest.raises(SoupError, match="no checkpoints"):
        average_states([])


def test_the_command_writes_a_loadable_checkpoint_and_an_onnx_file(tmp_path) -> None:
    paths = []
    for seed in (6, 7):
        path = tmp_path / f"run{seed}.pt"
        torch.save(_state(seed), path)
        paths.append(path)
    main([*map(str, paths), "--out", str(tmp_path / "models"), "--checkpoint", str(tmp_path / "runs" / "soup.pt")])
    model = DiceDetector()
    model.load_state_dict(torch.load(tmp_path / "runs" / "soup.pt"))
    assert (tmp_path / "models" / "detector.onnx").stat().st_size > 0
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["detector.onnx"]


def _reader_checkpoints(tmp_path, seeds) -> list:
    """Freshly made readers' weights, one file per seed."""
    from dicecam.training.learn.nets import FaceReader

    paths = []
    for seed in seeds:
        torch.manual_seed(seed)
        path = tmp_path / f"reader{seed}.pt"
        torch.save(FaceReader().state_dict(), path)
        paths.append(path)
    return paths


def test_readers_average_into_a_reader_file_that_says_how_they_were_trained(tmp_path) -> None:
    import onnxruntime as ort

    paths = _reader_checkpoints(tmp_path, (8, 9))
    main([*map(str, paths), "--reader", "--upright", "--out", str(tmp_path / "models")])
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["reader.onnx"]
    meta = ort.InferenceSession(str(tmp_path / "models" / "reader.onnx")).get_modelmeta().custom_metadata_map
    assert meta["upright"] == "1"
    with pytest.raises(SystemExit):  # a detector soup has no upright record
        main([*map(str, paths), "--upright", "--out", str(tmp_path / "other")])


def test_a_soup_of_readers_of_larger_crops_reads_them_at_their_size(tmp_path) -> None:
    import numpy as np
    import onnxruntime as ort

    paths = _reader_checkpoints(tmp_path, (10, 11))
    main([*map(str, paths), "--reader", "--crop-size", "64", "--out", str(tmp_path / "models")])
    session = ort.InferenceSession(str(tmp_path / "models" / "reader.onnx"))
    assert session.get_modelmeta().custom_metadata_map["crop_size"] == "64"
    assert session.run(None, {"crops": np.zeros((2, 3, 64, 64), np.float32)})[0].shape == (2, 7)
