"""The top look's training: its crops are cut where run time cuts them, its networks learn and
keep their contract in their files, and each throw's boxes come with a fold."""

from __future__ import annotations

from itertools import islice

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.data.throw_boxes import FOLDS, fold_of, throw_boxes  # noqa: E402
from dicecam.training.learn.nets import FaceReader  # noqa: E402
from dicecam.training.learn.top_look import (  # noqa: E402
    CROP_SIZE,
    VIEW_GROW,
    VIEW_SIZE,
    ViewNet,
    _view_input,
    export_view,
    rendered_tops,
    rendered_views,
    top_crops,
    train_view,
    tune_top_reader,
    view_crop,
)
from dicecam.training.render.scene import render_die_and_box  # noqa: E402
from dicecam.vision.onnx import session  # noqa: E402
from dicecam.vision.view import ViewCheck  # noqa: E402


@pytest.mark.parametrize("image", ["images/train/a.jpg", "images/dev/dice_1_jpg.rf.x.jpg", ""])
def test_a_photo_s_fold_is_fixed_by_its_name(image) -> None:
    assert 0 <= fold_of(image) < FOLDS
    assert fold_of(image) == fold_of(str(image))


def test_the_copies_of_one_source_photo_share_a_fold() -> None:
    copies = [f"images/train/dice_{i}_jpg.rf.{h}.jpg" for i in range(40) for h in ("0a1b", "9f8e", "77cc")]
    folds = np.array([fold_of(name) for name in copies]).reshape(40, 3)
    assert (folds == folds[:, :1]).all()
    assert len(set(folds[:, 0])) == FOLDS  # the sources themselves still spread over every fold


def test_the_folds_split_names_about_evenly() -> None:
    counts = np.bincount([fold_of(f"images/train/{i}.jpg") for i in range(1000)], minlength=FOLDS)
    assert counts.min() > 150


def test_top_crops_show_the_box_s_upper_part_only() -> None:
    image = np.zeros((400, 400, 3), np.uint8)
    image[:, :, 2] = 255  # red everywhere ...
    image[330:] = (255, 0, 0)  # ... blue from y 330 down
    # 200 high: its edges moved 12 px at most, the upper 0.85 of 212 grown 1.35x ends by 112 + 1.175 * 180 = 323.5
    box = (150.0, 100.0, 250.0, 300.0)
    crops = top_crops(image, box, np.random.default_rng(0), 20)
    assert crops.shape == (20, CROP_SIZE, CROP_SIZE, 3)
    assert (crops[..., 0] == 0).all() and (crops[..., 2] == 255).all()


def test_top_crops_are_mirrored_about_half_the_time() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    image[:, 100:] = 255  # white right of the box's middle
    crops = top_crops(image, (50.0, 50.0, 150.0, 150.0), np.random.default_rng(1), 40)
    right_white = crops[:, CROP_SIZE // 2, -1, 0] == 255
    assert 8 <= right_white.sum() <= 32


def test_the_top_reader_learns_its_crops() -> None:
    rng = np.random.default_rng(2)
    crops = rng.integers(0, 256, (64, CROP_SIZE, CROP_SIZE, 3), dtype=np.uint8)
    values = np.where(crops.mean(axis=(1, 2, 3)) > 127.5, 6, 1)
    crops[values == 6] //= 2
    crops[values == 6] += 128  # light crops show 6, dark ones 1
    crops[values == 1] //= 2
    init = FaceReader().state_dict()
    tuned = tune_top_reader(init, crops, values, steps=60, batch=32, lr=3e-3)
    with torch.no_grad():
        read = tuned(torch.from_numpy(crops.transpose(0, 3, 1, 2).astype(np.float32) / 255)).argmax(1).numpy() + 1
    assert (read == values).mean() >= 0.9


def test_a_view_input_keeps_the_crop_s_centre_at_its_centre() -> None:
    crop = np.zeros((64, 64, 3), np.uint8)
    crop[28:36, 28:36] = 255
    out = _view_input(crop, np.random.default_rng(3), turn=True)
    assert out.shape == (VIEW_SIZE, VIEW_SIZE, 3)
    ys, xs = np.nonzero(out[..., 0] > out[..., 0].mean())
    assert abs(ys.mean() - VIEW_SIZE / 2) < 3 and abs(xs.mean() - VIEW_SIZE / 2) < 3


def test_a_view_crop_is_a_square_grown_from_the_box() -> None:
    image = np.zeros((300, 300, 3), np.uint8)
    image[95:185, 80:170] = 200  # the 90 px square 1.8x a 50 px box centred at (125, 140)
    assert VIEW_GROW == 1.8
    np.testing.assert_array_equal(view_crop(image, (100, 120, 150, 160)), np.full((64, 64, 3), 200, np.uint8))


def test_rendered_views_leave_the_tilts_between_out() -> None:
    crops, labels = rendered_views(np.random.default_rng(4), 12)
    assert crops.shape == (12, 64, 64, 3) and set(np.unique(labels)) <= {0.0, 1.0}


@pytest.mark.parametrize("tilt", [15.0, 35.0, 55.0])
def test_a_rendered_die_is_boxed_whole_within_its_photo(tilt) -> None:
    rng = np.random.default_rng(int(tilt))
    image, (x0, y0, x1, y1) = render_die_and_box(rng, 4, size=96, tilt=tilt)
    assert image.shape == (96, 96, 3) and image.dtype == np.uint8
    assert 0 <= x0 < x1 <= 96 and 0 <= y0 < y1 <= 96
    assert 0.35 * 96 - 1e-3 <= max(x1 - x0, y1 - y0) <= 0.5 * 96 + 1e-3  # the die 35-50% of the photo
    # The box holds the die: it differs from the table around it more than the table does.
    inside = image[int(y0):int(y1), int(x0):int(x1)].reshape(-1, 3).std(axis=0).mean()
    assert inside > 3


def test_a_rendered_die_shows_a_die_s_value() -> None:
    with pytest.raises(ValueError, match=r"1\.\.6"):
        render_die_and_box(np.random.default_rng(0), 7, tilt=30.0)


def test_rendered_tops_are_top_crops_with_the_value_of_each_die() -> None:
    crops, values = rendered_tops(np.random.default_rng(6), 5, 3)
    assert crops.shape == (15, CROP_SIZE, CROP_SIZE, 3) and crops.dtype == np.uint8
    assert values.shape == (15,) and set(values) <= set(range(1, 7))
    assert (values.reshape(5, 3) == values.reshape(5, 3)[:, :1]).all()  # each die's crops share its value
    again, same = rendered_tops(np.random.default_rng(6), 5, 3)
    np.testing.assert_array_equal(again, crops)  # one seed, one set of crops
    np.testing.assert_array_equal(same, values)


def test_the_view_check_learns_and_its_file_gives_what_the_network_gives(tmp_path) -> None:
    rng = np.random.default_rng(5)

    def noise(n: int, bright: bool) -> np.ndarray:
        low = 150 if bright else 0
        return rng.integers(low, low + 100, (n, 64, 64, 3), dtype=np.uint8)

    labels = np.r_[np.ones(16), np.zeros(16)].astype(np.float32)
    rendered = (np.concatenate([noise(16, True), noise(16, False)]), labels)
    model = train_view(rendered, noise(8, False), noise(16, True), noise(16, False), steps=40)
    export_view(model, tmp_path / "view.onnx")
    check = ViewCheck(session(tmp_path / "view.onnx", 1))
    assert (check.size, check.grow) == (VIEW_SIZE, VIEW_GROW)
    image = np.zeros((200, 400, 3), np.uint8)
    image[:, 200:] = 220  # a bright half ("low views") and a dark one
    low = check.low_view(image, np.array([[280, 80, 320, 120], [80, 80, 120, 120]], np.float32))
    assert low[0] > 0.5 > low[1]
    x = check.crops(image, np.array([[280, 80, 320, 120]], np.float32))
    with torch.no_grad():
        want = torch.sigmoid(model(torch.from_numpy(x))).numpy().reshape(-1)
    np.testing.assert_allclose(low[:1], want, atol=1e-5)


def test_a_view_net_takes_any_batch() -> None:
    assert ViewNet().eval()(torch.zeros(3, 3, VIEW_SIZE, VIEW_SIZE)).shape == (3, 1)


def test_throw_boxes_pair_read_boxes_with_labels(shared_datasets) -> None:
    from dicecam.vision.reader import DiceReader

    reader = DiceReader()
    boxes = list(islice(throw_boxes(reader, ("matteop65_wood",), root=shared_datasets, split="dev"), 40))
    assert {b.source for b in boxes} >= {"label", "told"}
    assert all(1 <= b.value <= 6 and b.fold == fold_of(b.path.relative_to(shared_datasets / b.dataset).as_posix())
               for b in boxes)
