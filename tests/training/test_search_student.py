"""The free look's search network (`training.learn.search_student`): a student cut from the shipped
search network, the cells where labelled dice lift its heat, and a run whose files the reader takes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.learn.search_student import (  # noqa: E402
    SETS,
    STRIDE,
    Thin,
    cut,
    importance,
    load_teacher,
    main,
    padded,
    positive_cells,
    strongest,
    student_loss,
    teacher_views,
)
from dicecam.vision.decode import load_image  # noqa: E402
from dicecam.vision.reader import DEFAULT_MODELS, FREE_SEARCH_FILE, SEARCH_FILE, DiceReader  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TEACHER = DEFAULT_MODELS / SEARCH_FILE
STRIP = 192


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    """A datasets folder holding `SETS`, each one sample photo of its set labelled a train photo:
    a strip of it from its highest die down (a search view of 1,280 x 384 px, quick to teach on)."""
    root = tmp_path_factory.mktemp("datasets")
    rows = [json.loads(line) for line in (ROOT / "sample_images" / "labels.jsonl").read_text().splitlines() if line]
    for name in SETS:
        row = next(r for r in rows if r["image"].startswith(name + "/"))
        image = load_image(ROOT / "sample_images" / row["image"])
        top = min(int(min(d["box"][1] for d in row["dice"])), image.shape[0] - STRIP)
        dice = [d | {"box": [x0, y0 - top, x1, y1 - top]} for d in row["dice"]
                for x0, y0, x1, y1 in [d["box"]] if top <= y0 and y1 <= top + STRIP]
        (root / name / "images").mkdir(parents=True)
        cv2.imwrite(str(root / name / "images" / "strip.png"), image[top:top + STRIP])
        (root / name / "labels.jsonl").write_text(json.dumps(
            {"image": "images/strip.png", "split": "train", "size": [image.shape[1], STRIP], "dice": dice}))
    return root


@pytest.fixture(scope="module")
def teacher():
    """The shipped search network as torch layers (the teacher every stage cuts from or learns of)."""
    return load_teacher(TEACHER).eval()


#: Per module of the search network: the stream its first block's depthwise layer reads (where it
#: has one) and the stream it makes (each block of it, in a Sequential of blocks).
WIRING = {"patch": (None, "S4"), "near": ("S4", "S4"), "down8": ("S4", "S8"), "down16": ("S8", "S16"),
          "down32": ("S16", "S32"), "lat16": (None, "S16b"), "lat16b": (None, "S16b"), "fuse16": ("S16b", "S16b"),
          "lat8": (None, "S8b"), "up8": (None, "S8b"), "fuse8": ("S8b", "S8b")}


def silenced(teacher, keep: dict) -> list:
    """Hooks on `teacher` that zero every channel of a stream that `keep` leaves out, wherever
    a layer makes that stream's channels; remove them after use."""
    def keep_only(stream: str):
        def hook(_module, _inputs, out):
            mask = torch.zeros(out.shape[1], dtype=out.dtype)
            mask[keep[stream]] = 1
            return out * mask.view(1, -1, 1, 1)
        return hook

    hooks = []
    for name, (first_in, stream) in WIRING.items():
        module = teacher.get_submodule(name)
        blocks = list(module) if name.startswith("down") else [module]
        for i, block in enumerate(blocks):
            if hasattr(block, "dw"):  # a depthwise layer makes its input stream's channels again
                assert first_in is not None
                hooks.append(block.dw.register_forward_hook(keep_only(first_in if i == 0 else stream)))
            hooks.append(block.register_forward_hook(keep_only(stream)))
    return hooks


def test_a_cut_student_computes_what_its_teacher_does_with_the_channels_it_left_out_silenced(teacher):
    photo = load_image(next((ROOT / "sample_images" / "roboflow_dice").glob("dice_309_*.jpg")))
    x = torch.from_numpy(padded(photo[200:456, 160:480]))[None]
    view = (photo, np.zeros(0), np.zeros(0))
    keep = strongest(importance(teacher, [view]), 16, 32)
    student = Thin(16, 32)
    cut(teacher, student, keep)
    hooks = silenced(teacher, keep)
    with torch.no_grad():
        expected = teacher(x)
        got = student.eval()(x)
    for h in hooks:
        h.remove()
    assert got.shape == expected.shape == (1, 5, 256 // STRIDE, 320 // STRIDE)
    assert torch.allclose(got, expected, atol=1e-4)
    with torch.no_grad():
        assert not torch.allclose(teacher(x), expected, atol=1e-2)  # what was left out mattered


def test_the_cut_keeps_each_stream_s_most_active_channels_in_their_order():
    acts = {k: torch.arange(n, dtype=torch.float32).flip(0) for k, n in
            {"S4": 32, "S8": 64, "S16": 128, "S32": 128, "S16b": 64, "S8b": 32}.items()}
    acts["S4"][[30, 5]] = 100.0
    keep = strongest(acts, 4, 8)
    assert keep["S4"].tolist() == [0, 1, 5, 30]
    assert {k: len(v) for k, v in keep.items()} == {"S4": 4, "S8": 8, "S16": 16, "S32": 16, "S16b": 8, "S8b": 4}
    assert keep["S8"].tolist() == list(range(8))


def test_each_labelled_die_marks_one_cell_where_the_teacher_s_heat_peaks_inside_its_box():
    heat = np.full((10, 12), -5.0, np.float32)
    heat[2, 3], heat[3, 4] = 1.0, -1.0  # the first box's peak, and a lower cell in it
    heat[7, 9] = -3.0  # a faint die: its box's highest cell all the same
    heat[5, 1] = 4.0  # outside every box
    boxes = np.array([[2 * STRIDE, 1 * STRIDE, 6 * STRIDE - 1, 5 * STRIDE],  # cells x 2-5, y 1-4
                      [8 * STRIDE + 3, 6 * STRIDE, 11 * STRIDE, 9 * STRIDE],
                      [200 * STRIDE, 0, 210 * STRIDE, 8]], np.float32)  # off the map
    pos = positive_cells(heat, boxes)
    assert pos.dtype == np.uint8 and list(zip(*np.nonzero(pos))) == [(2, 3), (7, 9)]


def test_the_views_mark_each_labelled_die_once_at_the_teacher_s_peak_in_its_box(shared):
    views = teacher_views(shared, 0, TEACHER, labelled=True)
    plain = teacher_views(shared, 0, TEACHER, labelled=False)
    assert len(views) == len(plain) == 2 * len(SETS)  # each photo as the search sees it and at its own size
    assert not any(pos.any() for _v, _m, pos in plain)
    labels = [json.loads((shared / name / "labels.jsonl").read_text()) for name in SETS]
    for (view, maps, pos), row in zip(views, [row for row in labels for _view in range(2)]):
        assert pos.shape == maps.shape[1:]
        boxes = np.array([d["box"] for d in row["dice"]], np.float32) * (view.shape[1] / row["size"][0])
        assert len(boxes) and int(pos.sum()) == len(boxes)
        for x0, y0, x1, y1 in boxes:
            cells = (slice(int(y0 // STRIDE), int(-(-y1 // STRIDE))), slice(int(x0 // STRIDE), int(-(-x1 // STRIDE))))
            peak = maps[0][cells].max()
            assert (pos[cells] & (maps[0][cells] == peak)).any()


def test_the_label_term_lifts_a_positive_cell_s_heat_and_the_false_peak_term_spares_it():
    target = torch.full((1, 5, 4, 4), -4.0)
    target[0, 0, 1, 1] = -2.0  # the teacher sees the labelled die faintly
    out = target.clone().requires_grad_(True)  # the student sees what the teacher sees
    weight, pos = torch.ones(1, 4, 4), torch.zeros(1, 4, 4)
    pos[0, 1, 1] = 1
    student_loss(out, target, weight, pos, labelled=1.0, labelled_target=0.6).backward()
    assert out.grad is not None and out.grad[0, 0, 1, 1] < 0  # a step raises its heat towards 0.6
    above = target.clone()
    above[0, 0, 1, 1] = 3.0  # the student sees the labelled die more clearly than its teacher
    spared = student_loss(above, target, weight, pos, sym=20.0)
    assert spared == student_loss(above, target, weight, pos)
    assert student_loss(above, target, weight, torch.zeros_like(pos), sym=20.0) > spared


@pytest.fixture(scope="module")
def cut_run(shared, tmp_path_factory) -> Path:
    """A two-step run of the first stage (P444's: the student cut from the shipped search network)."""
    out = tmp_path_factory.mktemp("p444")
    main([str(out), "--steps", "2", "--batch", "1", "--scenes", "0", "--shared", str(shared)])
    return out


def test_a_short_run_writes_the_student_cut_from_the_teacher_and_its_files(cut_run, teacher):
    assert sorted(f.name for f in cut_run.iterdir()) == ["search.onnx", "search.pt", "search_x2.onnx"]
    state = torch.load(cut_run / "search.pt")
    assert state["patch.0.weight"].shape == (16, 3, 4, 4) and state["down8.0.pw.0.weight"].shape[:2] == (32, 16)
    # Each first-layer filter is one of the teacher's, moved only by two warm-up steps.
    filters = teacher.state_dict()["patch.0.weight"].flatten(1)
    gaps = (state["patch.0.weight"].flatten(1)[:, None] - filters[None]).abs().amax(dim=2).min(dim=1).values
    assert gaps.max() < 1e-4 < 0.1 * filters.abs().amax(dim=1).min()


def test_the_reader_takes_a_run_s_network_as_its_free_search_with_its_twin(cut_run, tmp_path):
    for f in DEFAULT_MODELS.iterdir():
        if f.suffix in (".onnx", ".json"):
            shutil.copy(f, tmp_path / f.name)
    shutil.copy(cut_run / "search.onnx", tmp_path / FREE_SEARCH_FILE)
    shutil.copy(cut_run / "search_x2.onnx", tmp_path / "free_search_x2.onnx")
    free = DiceReader(tmp_path).detector.free_searcher
    assert free is not None and (free.stride, free.min_score) == (STRIDE, 0.25)  # the teacher's threshold
    assert free.twice is not None  # its twin, folded from this very file


def test_the_labelled_stage_goes_on_from_a_state_dict(shared, cut_run, tmp_path):
    main([str(tmp_path), "--init", str(cut_run / "search.pt"), "--labelled", "1", "--steps", "1",
          "--batch", "1", "--scenes", "0", "--shared", str(shared)])
    start, moved = torch.load(cut_run / "search.pt"), torch.load(tmp_path / "search.pt")
    assert set(moved) == set(start)
    gaps = [float((moved[n].float() - start[n].float()).abs().max()) for n in start]
    assert 0 < max(gaps) < 0.01  # its warm-up's first step
