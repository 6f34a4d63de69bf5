"""A copy of the train splits small enough to take along (training.data.pack)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.training.data.pack import PackError, folder_bytes, kept_rows, main, pack
from dicecam.vision.dataset import read_dataset


def _photo(path: Path, seed: int) -> None:
    # Noise compresses badly, so a lower JPEG quality shows in the file's size.
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.random.default_rng(seed).integers(0, 255, (96, 128, 3), np.uint8),
                [cv2.IMWRITE_JPEG_QUALITY, 98])


def _set(root: Path, name: str, rows: list[dict]) -> None:
    for i, row in enumerate(rows):
        _photo(root / name / row["image"], i)
    (root / name / "LICENSE").parent.mkdir(parents=True, exist_ok=True)
    (root / name / "LICENSE").write_text("CC BY 4.0\n")
    (root / name / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _row(image: str, split: str = "train", source: str | None = None) -> dict:
    row = {"image": image, "split": split, "size": [128, 96], "dice": [{"value": 3, "box": [10, 10, 40, 40]}]}
    return row if source is None else {**row, "source_photo": source}


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """Two tiny sets: one with three augmented copies of each of two source photos, one plain."""
    root = tmp_path / "shared"
    _set(root, "aug", [_row(f"images/train/{s}_{k}.jpg", source=s) for s in ("a", "b") for k in range(3)]
         + [_row("images/dev/c.jpg", split="dev", source="c")])
    _set(root, "plain", [_row(f"images/{i}.jpg") for i in range(4)])
    return root


@pytest.mark.parametrize(("copies", "expected"), [
    (None, ["a0", "a1", "a2", "b0", "b1"]),
    (1, ["a0", "b0"]),
    (2, ["a0", "a1", "b0", "b1"]),
])
def test_rows_keep_their_split_and_at_most_so_many_of_a_source(copies, expected):
    rows = [{"image": f"{s}{k}", "split": "train", "source_photo": s} for s, k in
            [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1)]] + [{"image": "c0", "split": "dev"}]
    assert [r["image"] for r in kept_rows(rows, split="train", copies=copies)] == expected


def test_the_copy_holds_the_train_photos_asked_for_and_reads_as_a_dataset(shared, tmp_path):
    out = tmp_path / "packed"
    packed, size = pack(out, src=shared, sets=("aug", "plain"), copies={"aug": 2})
    assert size == folder_bytes(out) > 0
    assert [(p.name, p.kept, p.photos) for p in packed] == [("aug", 4, 6), ("plain", 4, 4)]
    assert packed[0].weight_factor == 1.5 and packed[1].weight_factor == 1.0
    photos = read_dataset(out / "aug")
    assert [p.path.name for p in photos] == ["a_0.jpg", "a_1.jpg", "b_0.jpg", "b_1.jpg"]
    assert {p.split for p in photos} == {"train"}  # the dev photo stays behind
    # Photos copied byte for byte where no quality is asked for, and the licence goes along.
    assert (out / "plain/images/2.jpg").read_bytes() == (shared / "plain/images/2.jpg").read_bytes()
    assert (out / "aug/LICENSE").read_text() == "CC BY 4.0\n"


def test_a_lower_quality_makes_the_copy_smaller_and_keeps_the_photos(shared, tmp_path):
    full = tmp_path / "full"
    small = tmp_path / "small"
    pack(full, src=shared, sets=("plain",))
    pack(small, src=shared, sets=("plain",), quality={"plain": 40})
    assert folder_bytes(small / "plain") < 0.6 * folder_bytes(full / "plain")
    before = cv2.imread(str(shared / "plain/images/0.jpg"))
    after = cv2.imread(str(small / "plain/images/0.jpg"))
    assert before is not None and after is not None
    assert after.shape == before.shape
    assert np.abs(after.astype(int) - before.astype(int)).mean() < 40  # the same picture, coarser


def test_a_copy_too_large_is_refused_and_nothing_is_left(shared, tmp_path):
    out = tmp_path / "packed"
    pack(out, src=shared, sets=("plain",))
    before = sorted(str(f.relative_to(out)) for f in out.rglob("*"))
    with pytest.raises(PackError, match="more than"):
        pack(out, src=shared, sets=("aug", "plain"), max_bytes=10_000)
    assert sorted(str(f.relative_to(out)) for f in out.rglob("*")) == before  # the earlier copy stands
    assert not (tmp_path / "packed.part").exists()


def test_an_earlier_copy_is_replaced_but_no_other_folder(shared, tmp_path):
    out = tmp_path / "packed"
    pack(out, src=shared, sets=("aug", "plain"))
    pack(out, src=shared, sets=("plain",))
    assert sorted(f.name for f in out.iterdir()) == ["PACKED.json", "plain"]
    assert json.loads((out / "PACKED.json").read_text())["sets"] == {"plain": {"kept": 4, "photos": 4}}
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("not a copy")
    with pytest.raises(PackError, match="not an earlier copy"):
        pack(mine, src=shared, sets=("plain",))
    assert [f.name for f in mine.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize(("args", "says"), [
    (["--copies", "aug=two"], "--copies takes SET=N"),
    (["--quality", "aug=5"], "--quality takes SET=N with N from 10 to 100"),
    (["--copies", "nowhere=2"], "name sets that are not packed: nowhere"),
    (["--sets", "aug,missing"], "missing is not a photo set"),
    (["--split", "test"], "aug has no test photos"),
])
def test_the_command_refuses_plainly(shared, tmp_path, capsys, args, says):
    sets = [] if "--sets" in args else ["--sets", "aug,plain"]
    assert main([str(tmp_path / "out"), "--src", str(shared), *sets, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pack: ") and says in err
    assert not (tmp_path / "out").exists()


def test_the_command_says_how_to_keep_a_thinned_set_s_share(shared, tmp_path, capsys):
    assert main([str(tmp_path / "out"), "--src", str(shared), "--sets", "aug,plain", "--copies", "aug=1"]) == 0
    out = capsys.readouterr().out
    assert "aug: 2 of 6 train photos (its --weight times 3.00 keeps its share)" in out
    assert "plain: 4 of 4 train photos\n" in out
