"""A detector that also boxes whole dice: its targets, its start from a top-face detector,
and its file in the runtime."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.data.detector_targets import detector_sample, die_side_targets, random_view  # noqa: E402
from dicecam.training.learn.export import export_detector, export_reader  # noqa: E402
from dicecam.training.learn.losses import detector_loss  # noqa: E402
from dicecam.training.learn.nets import STRIDE, DiceDetector, FaceReader, detector_of  # noqa: E402
from dicecam.training.learn.train import _fitted  # noqa: E402
from dicecam.vision.reader import DiceReader  # noqa: E402


def _photo() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    img = np.full((300, 400, 3), 90, np.uint8)
    tops = np.array([[100, 100, 140, 130], [250, 60, 280, 85]], np.float32)
    wholes = np.array([[98, 98, 142, 160], [248, 58, 282, 110]], np.float32)
    return img, tops, wholes


@pytest.mark.parametrize("seed", range(6))
def test_a_view_moves_each_whole_die_with_its_top_face(seed):
    img, tops, wholes = _photo()
    rng = np.random.default_rng(seed)
    _, boxes = random_view(img, tops, rng, crop=256, wholes=wholes)
    assert boxes.shape[1] == 8
    top, whole = boxes[:, :4], boxes[:, 4:]
    # Each top face's centre stays inside its own whole die (clipped to the view).
    cx, cy = (top[:, 0] + top[:, 2]) / 2, (top[:, 1] + top[:, 3]) / 2
    assert ((whole[:, 0] <= cx) & (cx <= whole[:, 2]) & (whole[:, 1] <= cy) & (cy <= whole[:, 3])).all()


def test_without_whole_dice_a_view_draws_as_before():
    img, tops, _ = _photo()
    a = random_view(img, tops, np.random.default_rng(3))
    b = detector_sample(img, tops, np.random.default_rng(3), augment=False)
    assert a[1].shape[1] == 4 and "whole_heat" not in b[1]


def test_whole_die_targets_are_known_only_where_the_photo_has_them():
    img, tops, wholes = _photo()
    _, known = detector_sample(img, tops, np.random.default_rng(0), whole=True, wholes=wholes)
    _, unknown = detector_sample(img, tops, np.random.default_rng(0), whole=True, wholes=None)
    assert known["has_whole"] == 1 and known["whole_mask"].sum() == known["mask"].sum() > 0
    assert unknown["has_whole"] == 0 and unknown["whole_heat"].max() == 0
    assert known["whole_heat"].shape == (256 // STRIDE, 256 // STRIDE)


def _known_and_unknown(**kind: bool) -> tuple[Any, dict[str, Any]]:
    """A batch of two views of one photo: the first knows its whole dice, the second not."""
    img, tops, wholes = _photo()
    pairs = [detector_sample(img, tops, np.random.default_rng(s), wholes=w, whole=kind.get("whole", False),
                             sides=kind.get("sides", False))
             for s, w in ((0, wholes), (1, None))]
    x = torch.from_numpy(np.stack([p[0] for p in pairs]))
    return x, {k: torch.from_numpy(np.stack([np.asarray(p[1][k]) for p in pairs])) for k in pairs[0][1]}


def test_whole_die_loss_counts_only_photos_that_know_their_whole_dice():
    x, t = _known_and_unknown(whole=True)
    torch.manual_seed(0)
    out = DiceDetector(whole=True)(x)
    _, parts = detector_loss(out, t)
    assert parts["whole"] > 0
    # Whatever the second photo's whole-die channels say, the loss does not change.
    changed = out.detach().clone()
    changed[1, 5:] = 10.0
    assert detector_loss(changed, t)[1]["whole"] == pytest.approx(detector_loss(out.detach(), t)[1]["whole"])


def test_a_whole_die_detector_starts_from_a_top_face_one():
    torch.manual_seed(0)
    five = DiceDetector().state_dict()
    fresh = DiceDetector(whole=True)
    start = {k: v.clone() for k, v in fresh.state_dict().items()}
    fresh.load_state_dict(_fitted(five, fresh.state_dict()))
    for name, weights in fresh.state_dict().items():
        # What the top-face detector has comes from it; the whole-die branch starts fresh.
        assert torch.equal(weights, five[name] if name in five else start[name]), name
    assert any(name.startswith("whole_head") for name in start)


def test_a_checkpoint_with_parts_the_network_lacks_still_fails_to_load():
    """Fitting fills only what the loaded weights lack: a wrong file is still an error."""
    eight = DiceDetector(whole=True).state_dict()
    with pytest.raises(RuntimeError):
        DiceDetector().load_state_dict(_fitted(eight, DiceDetector().state_dict()))


def test_the_runtime_pairs_faces_only_with_a_whole_die_detector(tmp_path):
    torch.manual_seed(0)
    export_detector(DiceDetector(whole=True), tmp_path / "detector.onnx")
    export_reader(FaceReader(), tmp_path / "reader.onnx")
    photo = np.random.default_rng(0).integers(0, 255, (240, 320, 3), np.uint8)
    assert DiceReader(tmp_path).detector.boxes_whole_dice
    assert DiceReader(tmp_path).detect(photo).die_boxes is None  # the setting is off
    found = DiceReader(tmp_path, whole_die_peak=0.0).detect(photo)
    assert found.die_boxes is not None and found.die_boxes.shape == (len(found), 4)


def test_learning_the_whole_die_branch_alone_leaves_the_top_faces_as_they_were():
    torch.manual_seed(0)
    model = DiceDetector(whole=True)
    model.freeze_top_faces()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    model.train()
    opt = torch.optim.SGD([w for w in model.parameters() if w.requires_grad], lr=0.1)
    out = model(torch.rand(2, 3, 64, 64))
    out.square().mean().backward()
    opt.step()
    after = model.state_dict()
    changed = {k for k in before if not torch.equal(before[k], after[k])}
    # Weights and batch-norm statistics alike: only the branch moves.
    assert changed and all(k.startswith("whole_head.") for k in changed)
    assert model.whole_head is not None
    assert not model.stem.training and model.whole_head.training


def test_a_detector_without_the_branch_cannot_learn_it_alone():
    with pytest.raises(ValueError, match="whole-die branch"):
        DiceDetector().freeze_top_faces()


@pytest.mark.parametrize("stride", [4, 8])
def test_the_branch_gives_stride_4_maps_from_either_features(stride):
    torch.manual_seed(0)
    plain = DiceDetector().eval()
    model = DiceDetector(whole=True, whole_stride=stride)
    model.load_state_dict(_fitted(plain.state_dict(), model.state_dict()))
    x = torch.rand(1, 3, 96, 128)
    out = model.eval()(x)
    assert out.shape == (1, 8, 96 // STRIDE, 128 // STRIDE)
    # The top faces are the plain detector's, wherever the branch sits.
    assert torch.allclose(out[:, :5], plain(x))


def test_a_branch_on_the_stride_8_features_looks_at_them():
    """Changing the stride-8 branch's weights changes its maps, and nothing else."""
    torch.manual_seed(0)
    model = DiceDetector(whole=True, whole_stride=8).eval()
    x = torch.rand(1, 3, 64, 64)
    before = model(x)
    assert model.whole_head is not None
    with torch.no_grad():
        for w in model.whole_head.parameters():
            w.add_(0.5)
    after = model(x)
    assert torch.equal(before[:, :5], after[:, :5]) and not torch.equal(before[:, 5:], after[:, 5:])


@pytest.mark.parametrize("stride", [4, 8])
def test_a_checkpoint_knows_where_its_branch_sits(stride):
    torch.manual_seed(0)
    model = DiceDetector(whole=True, whole_stride=stride)
    back = detector_of(model.state_dict())
    assert back.whole_at == stride
    x = torch.rand(1, 3, 64, 64)
    assert torch.equal(model.eval()(x), back.eval()(x))


def test_a_checkpoint_saved_before_the_stride_was_kept_has_its_branch_at_stride_4():
    state = DiceDetector(whole=True).state_dict()
    del state["whole_stride"]
    assert detector_of(state).whole_at == 4
    assert detector_of(DiceDetector().state_dict()).whole_head is None


def test_a_start_from_another_checkpoint_keeps_the_network_s_own_branch_place():
    four = DiceDetector(whole=True).state_dict()
    eight = DiceDetector(whole=True, whole_stride=8)
    eight.load_state_dict(_fitted(four, eight.state_dict()))
    assert int(eight.state_dict()["whole_stride"]) == 8


def test_the_branch_sits_only_where_there_are_features():
    with pytest.raises(ValueError, match="stride-4 or stride-8"):
        DiceDetector(whole=True, whole_stride=16)


def test_a_stride_8_detector_s_file_boxes_whole_dice_in_the_runtime(tmp_path):
    torch.manual_seed(0)
    export_detector(DiceDetector(whole=True, whole_stride=8), tmp_path / "detector.onnx")
    export_reader(FaceReader(), tmp_path / "reader.onnx")
    photo = np.random.default_rng(1).integers(0, 255, (240, 320, 3), np.uint8)
    found = DiceReader(tmp_path, whole_die_peak=0.0).detect(photo)
    assert found.die_boxes is not None and found.die_boxes.shape == (len(found), 4)



def test_every_cell_inside_a_whole_die_knows_its_edges():
    wholes = np.array([[8, 8, 40, 56], [100, 20, 120, 40]], np.float32)
    t = die_side_targets(wholes, (64, 128))
    assert t["has_whole"] == 1
    ys, xs = np.nonzero(t["sides_mask"])
    d = np.exp(t["sides"][:, ys, xs]) * STRIDE
    cx, cy = (xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE
    back = np.stack([cx - d[0], cy - d[1], cx + d[2], cy + d[3]], axis=1)
    # Each marked cell gives back the box of the die it lies in.
    assert all(np.allclose(b, wholes[0], atol=1e-3) or np.allclose(b, wholes[1], atol=1e-3) for b in back)
    assert len(back) == 8 * 12 + 5 * 5  # the cells whose centres lie inside each die


def test_where_dice_overlap_a_cell_knows_the_smaller_die():
    big, small = [0, 0, 64, 64], [16, 16, 32, 32]
    for order in ([big, small], [small, big]):
        t = die_side_targets(np.array(order, np.float32), (64, 64))
        d = np.exp(t["sides"][:, 5, 5]) * STRIDE  # cell centre (22, 22), inside both
        assert np.allclose([22 - d[0], 22 - d[1], 22 + d[2], 22 + d[3]], small, atol=1e-3)


def test_a_photo_without_whole_dice_teaches_no_edges():
    img, tops, _ = _photo()
    _, t = detector_sample(img, tops, np.random.default_rng(0), sides=True, wholes=None)
    assert t["has_whole"] == 0 and t["sides_mask"].sum() == 0 and "whole_heat" not in t


def test_the_edge_loss_counts_only_photos_that_know_their_whole_dice():
    x, t = _known_and_unknown(sides=True)
    torch.manual_seed(0)
    out = DiceDetector(whole=True, whole_sides=True)(x)
    assert out.shape[1] == 9
    _, parts = detector_loss(out, t)
    changed = out.detach().clone()
    changed[1, 5:] = 10.0
    assert parts["sides"] > 0
    assert detector_loss(changed, t)[1]["sides"] == pytest.approx(detector_loss(out.detach(), t)[1]["sides"])


@pytest.mark.parametrize("stride", [4, 8])
def test_a_checkpoint_knows_its_branch_gives_die_edges(stride):
    model = DiceDetector(whole=True, whole_stride=stride, whole_sides=True)
    back = detector_of(model.state_dict())
    assert back.whole_head is not None and back.whole_head[-1].out_channels == 4 and back.whole_at == stride


def test_an_edge_detector_s_file_gives_die_boxes_only_when_asked(tmp_path):
    torch.manual_seed(0)
    export_detector(DiceDetector(whole=True, whole_stride=8, whole_sides=True), tmp_path / "detector.onnx")
    export_reader(FaceReader(), tmp_path / "reader.onnx")
    photo = np.random.default_rng(2).integers(0, 255, (240, 320, 3), np.uint8)
    assert DiceReader(tmp_path).detector.knows_die_sides
    assert DiceReader(tmp_path, min_score=0.0).detect(photo).die_boxes is None
    found = DiceReader(tmp_path, min_score=0.0, max_face_drop=0.25).detect(photo)
    assert len(found) and found.die_boxes is not None and not np.isnan(found.die_boxes).any()
