"""Scoring against what the photos show: label faults corrected, each by a row checked by eye."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dicecam.vision.corrections import Correction, CorrectionError, corrected, read_corrections
from dicecam.vision.dataset import LabelledPhoto, read_dataset
from dicecam.vision.detections import Dice

ROOT = Path(__file__).resolve().parents[2]
FAULTS = ROOT / "benchmarks" / "label_faults.jsonl"


def _photo(image: str = "a.jpg", split: str = "dev") -> LabelledPhoto:
    dice = Dice(np.array([[10, 10, 50, 50], [60, 10, 100, 50]], np.float32), np.array([2, 5]), np.ones(2, np.float32))
    return LabelledPhoto(Path(image), image, split, (120, 60), dice)


def _fix(box=(10, 10, 50, 50), labelled=2, shows=3, image="a.jpg", dataset="set") -> Correction:
    x0, y0, x1, y1 = (float(v) for v in box)
    return Correction(dataset, image, (x0, y0, x1, y1), labelled, shows)


def test_a_wrong_value_is_set_to_what_the_photo_shows_and_nothing_else_moves():
    photos, applied = corrected([_photo()], [_fix()], "set")
    assert applied == 1
    assert photos[0].dice.values.tolist() == [3, 5]
    np.testing.assert_array_equal(photos[0].dice.boxes, _photo().dice.boxes)


def test_a_die_with_no_label_is_added():
    photos, _ = corrected([_photo()], [_fix(box=(102, 20, 118, 58), labelled=None, shows=4)], "set")
    assert photos[0].dice.values.tolist() == [2, 5, 4] and len(photos[0].dice.boxes) == 3


@pytest.mark.parametrize("fix, says", [
    (_fix(labelled=4), "matches no die labelled 4"),               # the label changed under it
    (_fix(box=(11, 10, 50, 50)), "matches no die labelled 2"),     # the label's box moved
    (_fix(labelled=None), "has a label already"),                  # the "missing" die is labelled
])
def test_a_correction_that_no_longer_fits_its_photo_is_refused(fix, says):
    with pytest.raises(CorrectionError, match=says):
        corrected([_photo()], [fix], "set")


def test_corrections_of_other_sets_and_other_splits_are_skipped():
    photos, applied = corrected([_photo()], [_fix(dataset="other"), _fix(image="b.jpg")], "set")
    assert applied == 0 and photos[0].dice.values.tolist() == [2, 5]


@pytest.mark.parametrize("row", [
    "not json",
    '{"dataset": "s", "image": "a.jpg", "box": [1, 2, 3], "labelled": 2, "shows": 3}',
    '{"dataset": "s", "image": "a.jpg", "box": [1, 2, 3, 4], "labelled": 2, "shows": 7}',
    '{"dataset": "s", "image": "a.jpg", "box": [1, 2, 3, 4], "labelled": 3, "shows": 3}',
    '{"dataset": "s", "image": "a.jpg", "box": [1, 2, 3, 4], "shows": 3}',
])
def test_a_bad_row_is_refused_naming_its_line(tmp_path, row):
    path = tmp_path / "faults.jsonl"
    path.write_text('{"dataset": "s", "image": "a.jpg", "box": [1, 2, 3, 4], "labelled": null, "shows": 3}\n' + row)
    with pytest.raises(CorrectionError, match="line 2"):
        read_corrections(path)


def test_a_missing_file_is_refused_by_name(tmp_path):
    with pytest.raises(CorrectionError, match=r"gone\.jsonl"):
        read_corrections(tmp_path / "gone.jsonl")


@pytest.mark.datasets("byler_d6")
def test_every_shipped_correction_still_finds_its_die_in_the_dev_split(shared_datasets):
    faults = read_corrections(FAULTS)
    for name in sorted({f.dataset for f in faults}):
        photos = read_dataset(shared_datasets / name, split="dev")
        fixed, applied = corrected(photos, faults, name)
        assert applied == sum(f.dataset == name for f in faults)
        after = {photo.image: photo for photo in fixed}
        left_out = sum(photo.image not in after for photo in photos)
        assert left_out == sum(f.dataset == name and f.unlabelled_photo for f in faults)
        changed = sum(int(np.any(a.dice.values != after[a.image].dice.values))
                      if len(a.dice) == len(after[a.image].dice) else 1
                      for a in photos if a.image in after)
        # Every photo a correction names is changed or left out (one photo may have several).
        assert changed + left_out == len({f.image for f in faults if f.dataset == name})


def test_eval_scores_against_the_corrected_labels(capsys, reader, tmp_path):
    from test_vision_cli import WOOD, _dataset, _reading

    from dicecam.cli import main

    read = _reading(reader, WOOD)
    wrong = [dict(d, value=d["value"] % 6 + 1) if i == 0 else d for i, d in enumerate(read)]
    root = _dataset(tmp_path / "set", [(WOOD, [{"value": d["value"], "box": d["box"]} for d in wrong])])
    faults = tmp_path / "faults.jsonl"
    faults.write_text(json.dumps({"dataset": "set", "image": f"img/{WOOD.path.name}", "box": read[0]["box"],
                                  "labelled": wrong[0]["value"], "shows": read[0]["value"]}) + "\n")
    assert main(["eval", str(root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] == 0
    assert main(["eval", str(root), "--json", "--corrections", str(faults)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["exact"], result["labels_corrected"]) == (1, 1)


def test_eval_refuses_a_broken_corrections_file(capsys, tmp_path):
    from dicecam.cli import main

    faults = tmp_path / "faults.jsonl"
    faults.write_text("{}\n")
    assert main(["eval", str(ROOT / "sample_images"), "--corrections", str(faults)]) == 2
    assert "faults.jsonl, line 1" in capsys.readouterr().err


def test_a_photo_never_labelled_is_left_out_of_the_score(tmp_path):
    photos = read_dataset(ROOT / "sample_images")
    gone = photos[0].image
    path = tmp_path / "faults.jsonl"
    path.write_text(json.dumps({"dataset": "sample_images", "image": gone, "unlabelled_photo": True,
                                "why": "its dice were never labelled"}) + "\n")
    kept, applied = corrected(photos, read_corrections(path), "sample_images")
    assert applied == 1 and [p.image for p in kept] == [p.image for p in photos if p.image != gone]
