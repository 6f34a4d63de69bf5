"""The whole-die check's training: it learns from its examples, and its file keeps its contract."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.learn.whole_die import (  # noqa: E402
    CONTEXT,
    SIZE,
    Arch,
    Cut,
    WholeDieNet,
    export,
    jittered,
    main,
    top_face_of_a_die,
    train,
)
from dicecam.vision.candidates import Candidates  # noqa: E402
from dicecam.vision.onnx import session  # noqa: E402
from dicecam.vision.whole_die import WholeDieCheck, as_input  # noqa: E402


def _squares(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Noise crops, half of them with a light square in the middle (the "dice" here)."""
    crops = rng.integers(0, 90, (n, SIZE, SIZE, 3), dtype=np.uint8)
    labels = (np.arange(n) % 2).astype(np.float32)
    crops[labels == 1, 12:28, 12:28] = 230
    return crops, labels


def test_the_exported_check_gives_what_the_network_gives_and_reads_its_crop_contract(tmp_path) -> None:
    torch.manual_seed(0)
    model = WholeDieNet().eval()
    export(model, tmp_path / "whole_die.onnx")
    check = WholeDieCheck(session(tmp_path / "whole_die.onnx", 1))
    assert (check.size, check.context) == (SIZE, CONTEXT)
    crops, _ = _squares(6, np.random.default_rng(1))
    with torch.no_grad():
        expected = torch.sigmoid(model(torch.from_numpy(as_input(crops)))).squeeze(1).numpy()
    photo = np.zeros((SIZE, SIZE * 6, 3), np.uint8)
    for i, crop in enumerate(crops):
        photo[:, i * SIZE:(i + 1) * SIZE] = crop
    # A box half the crop's side, centred in each tile, is cut back out as that tile.
    q = SIZE / 4
    boxes = np.array([[i * SIZE + q, q, i * SIZE + 3 * q, 3 * q] for i in range(6)], np.float32)
    np.testing.assert_allclose(check.probability(photo, boxes), expected, atol=2e-3)


def test_training_tells_the_examples_dice_from_the_rest() -> None:
    torch.set_num_threads(1)
    rng = np.random.default_rng(3)
    crops, labels = _squares(512, rng)
    model = train(crops, labels, epochs=4, batch=64, log=False)
    test, truth = _squares(64, np.random.default_rng(9))
    with torch.no_grad():
        said = torch.sigmoid(model(torch.from_numpy(as_input(test)))).squeeze(1).numpy() > 0.5
    assert (said == (truth == 1)).mean() >= 0.95


def test_a_lifted_cut_travels_in_the_file(tmp_path) -> None:
    torch.manual_seed(0)
    export(WholeDieNet(), tmp_path / "whole_die.onnx", cut=Cut(48, 2.2, 0.35))
    check = WholeDieCheck(session(tmp_path / "whole_die.onnx", 1))
    assert (check.size, check.context, check.lift) == (48, pytest.approx(2.2), pytest.approx(0.35))
    assert check.probability(np.zeros((100, 100, 3), np.uint8), np.array([[20, 20, 60, 60]], np.float32)).shape == (1,)


@pytest.mark.parametrize("arch", list(Arch))
@pytest.mark.parametrize("size", [40, 48])
def test_every_build_of_the_network_gives_one_logit_a_crop_and_exports(tmp_path, arch, size) -> None:
    torch.manual_seed(0)
    model = WholeDieNet(arch=arch).eval()
    crops, _ = _squares(3, np.random.default_rng(2))
    x = torch.from_numpy(as_input(np.stack([np.resize(c, (size, size, 3)) for c in crops])))
    with torch.no_grad():
        assert model(x).shape == (3, 1)
    export(model, tmp_path / "whole_die.onnx", cut=Cut(size, 2.2, 0.35))
    check = WholeDieCheck(session(tmp_path / "whole_die.onnx", 1))
    boxes = np.array([[10, 10, 30, 30], [40, 20, 70, 50], [0, 0, 5, 5]], np.float32)
    assert check.probability(np.zeros((80, 80, 3), np.uint8), boxes).shape == (3,)


def _above_or_below(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Noise crops with a light bar in the top half (the "dice") or in the bottom half."""
    crops = rng.integers(0, 90, (n, SIZE, SIZE, 3), dtype=np.uint8)
    labels = (np.arange(n) % 2).astype(np.float32)
    crops[labels == 1, 4:14, 8:32] = 230
    crops[labels == 0, 26:36, 8:32] = 230
    return crops, labels


def test_only_an_upright_check_can_tell_above_from_below() -> None:
    torch.set_num_threads(1)
    crops, labels = _above_or_below(512, np.random.default_rng(3))
    test, truth = _above_or_below(64, np.random.default_rng(9))
    accuracy = {}
    for upright in (True, False):
        model = train(crops, labels, epochs=4, batch=64, upright=upright, log=False)
        with torch.no_grad():
            said = torch.sigmoid(model(torch.from_numpy(as_input(test)))).squeeze(1).numpy() > 0.5
        accuracy[upright] = (said == (truth == 1)).mean()
    assert accuracy[True] >= 0.95 and accuracy[False] <= 0.75  # turned, a bar above is a bar below


def test_a_lean_network_taught_by_a_trained_check_learns_what_the_teacher_says(tmp_path) -> None:
    torch.set_num_threads(1)
    crops, labels = _squares(512, np.random.default_rng(3))
    export(train(crops, labels, epochs=4, batch=64, log=False), tmp_path / "whole_die.onnx")
    teacher = WholeDieCheck(session(tmp_path / "whole_die.onnx", 1))
    # Taught with every label turned over: only the teacher's word can make it right.
    student = train(crops, 1 - labels, epochs=4, batch=64, arch=Arch.LEAN, widths=(8, 24, 48, 64),
                    teachers=[teacher], log=False)
    test, truth = _squares(64, np.random.default_rng(9))
    with torch.no_grad():
        said = torch.sigmoid(student(torch.from_numpy(as_input(test)))).squeeze(1).numpy() > 0.5
    assert (said == (truth == 1)).mean() >= 0.95


def test_a_jittered_box_stays_near_its_box_and_keeps_its_shape_within_the_scale() -> None:
    boxes = np.array([[100, 100, 140, 120], [0, 0, 10, 10]], np.float64)
    rng = np.random.default_rng(0)
    for _ in range(50):
        moved = jittered(boxes, rng, shift=0.1, scale=(0.85, 1.15))
        sides, new_sides = boxes[:, 2:] - boxes[:, :2], moved[:, 2:] - moved[:, :2]
        ratio = new_sides / sides
        assert np.allclose(ratio[:, 0], ratio[:, 1]) and (ratio >= 0.85).all() and (ratio <= 1.15).all()
        offset = np.abs((moved[:, :2] + moved[:, 2:]) / 2 - (boxes[:, :2] + boxes[:, 2:]) / 2)
        assert (offset <= 0.1 * sides + 1e-9).all()


def test_a_teacher_that_cuts_other_crops_is_refused_before_any_photo_is_read(tmp_path, capsys) -> None:
    export(WholeDieNet(), tmp_path / "whole_die.onnx")  # 40 px, no lift
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--out", str(tmp_path / "out"), "--size", "48", "--lift", "0.35",
              "--teacher", str(tmp_path / "whole_die.onnx")])
    assert "a teacher must cut its crops as this run does" in capsys.readouterr().err


def test_the_check_looks_only_at_the_boxes_the_rules_keep(tmp_path) -> None:
    torch.manual_seed(0)
    export(WholeDieNet(), tmp_path / "whole_die.onnx")
    check = WholeDieCheck(session(tmp_path / "whole_die.onnx", 1))
    f = np.float32
    two = Candidates(np.array([[10, 10, 40, 40], [60, 60, 90, 90]], f), np.ones(2, f), kept=np.array([True, False]))
    photo = np.random.default_rng(4).integers(0, 255, (120, 120, 3), dtype=np.uint8)
    whole = check.look(photo, two).whole
    assert whole is not None
    assert 0.0 <= whole[0] <= 1.0 and np.isnan(whole[1])


def test_a_side_face_below_its_top_face_is_no_die_but_the_top_face_is() -> None:
    top = np.array([[100, 100, 140, 130]], np.float32)  # the top face, found inside a whole-die box
    found = np.array([[101, 99, 141, 131],   # the top face
                      [100, 131, 140, 175],  # the side face below it: its centre outside the top face
                      [300, 300, 340, 340]], np.float32)
    assert top_face_of_a_die(top, found).tolist() == [True, False, False]
    # An estimate a little off still pairs; the overlap bound V78 tried refuses it.
    off = np.array([[112, 108, 160, 150]], np.float32)
    assert top_face_of_a_die(top, off).tolist() == [True]
    assert top_face_of_a_die(top, off, min_iou=0.3).tolist() == [False]


def test_a_crop_of_one_die_counts_that_die_as_a_die() -> None:
    from pathlib import Path

    from dicecam.training.data.photos import Sample
    from dicecam.training.learn.whole_die import _cut
    from dicecam.vision.decode import load_image
    from dicecam.vision.reader import DiceReader

    # chase_dji's photos are crops, one die filling the frame, labelled without a box.
    photo = Path(__file__).resolve().parents[2] / "sample_images" / "chase_dji" / \
        "DJI_20241005232636_0141_D_detection_1.jpg"
    crop = Sample(load_image(photo), None, np.array([1]), photo.name)
    crops, is_die = _cut(DiceReader(), crop)
    assert len(crops) == len(is_die) >= 1
    assert is_die.sum() == 1  # the die, once; any other box on it (a pip) is no die


def test_examples_whose_labels_are_known_learn_them_whatever_the_teacher_says(tmp_path) -> None:
    torch.set_num_threads(1)
    crops, labels = _squares(512, np.random.default_rng(3))
    # A teacher that has everything backwards; every label known: the teacher is overruled.
    export(train(crops, 1 - labels, epochs=4, batch=64, log=False), tmp_path / "whole_die.onnx")
    wrong = WholeDieCheck(session(tmp_path / "whole_die.onnx", 1))
    test, truth = _squares(64, np.random.default_rng(9))
    right = {}
    for known in (np.ones(len(labels), bool), np.zeros(len(labels), bool)):
        student = train(crops, labels, epochs=4, batch=64, teachers=[wrong], known=known, log=False)
        with torch.no_grad():
            said = torch.sigmoid(student(torch.from_numpy(as_input(test)))).squeeze(1).numpy() > 0.5
        right[bool(known[0])] = (said == (truth == 1)).mean()
    assert right[True] >= 0.95 and right[False] <= 0.6  # without them, the teacher misleads it


@pytest.mark.parametrize(("flags", "clutter"), [([], 0.7), (["--clutter", "1.0"], 1.0)])
def test_the_rendered_throws_are_drawn_on_a_game_table_as_often_as_asked(tmp_path, monkeypatch, flags,
                                                                          clutter) -> None:
    import dicecam.training.learn.whole_die as whole_die

    asked: dict[str, float] = {}
    crops, labels = _squares(128, np.random.default_rng(5))  # real and rendered: two batches of 128

    def rendered(models, *, scenes, seed, clutter, cut):
        asked.update(scenes=scenes, clutter=clutter)
        return crops, labels

    monkeypatch.setattr(whole_die, "examples", lambda *a, **k: (crops, labels))
    monkeypatch.setattr(whole_die, "rendered_examples", rendered)
    main([str(tmp_path), "--out", str(tmp_path / "out"), "--scenes", "3", "--epochs", "1", *flags])
    assert asked == {"scenes": 3, "clutter": clutter}
    assert (tmp_path / "out" / "whole_die.onnx").is_file()


def test_counted_examples_hold_the_small_dice_only_the_count_s_closer_look_finds() -> None:
    from helpers_photos import board_on_table

    from dicecam.training.data.photos import Sample
    from dicecam.training.learn.whole_die import _cut
    from dicecam.vision.reader import DiceReader

    image, boxes, values = board_on_table()
    sample = Sample(image, boxes, values, "board")
    reader = DiceReader()
    plain_crops, plain = _cut(reader, sample)
    counted_crops, counted = _cut(reader, sample, counted=True)
    assert plain.sum() == 0 and counted.sum() == 2
    assert len(counted) > len(plain) and (len(plain_crops), len(counted_crops)) == (len(plain), len(counted))
