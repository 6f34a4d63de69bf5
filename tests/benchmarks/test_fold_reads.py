"""The out-of-fold benchmark (benchmarks/fold_reads.py) reads each fold with its own models, once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import fold_reads  # benchmarks/ is on pytest's pythonpath
import pytest

from dicecam.training.data.throw_boxes import FOLDS, fold_of
from dicecam.vision.dataset import read_dataset
from dicecam.vision.metrics import score_photo, total
from dicecam.vision.reader import DiceReader

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"


@pytest.fixture(scope="module")
def train_set(tmp_path_factory) -> Path:
    """The sample photos, every one of them a train photo (with its fold from its name)."""
    folder = tmp_path_factory.mktemp("set")
    rows = [json.loads(line) for line in (ROOT / "sample_images" / "labels.jsonl").read_text().splitlines()]
    for row in rows:
        (folder / row["image"]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "sample_images" / row["image"], folder / row["image"])
    (folder / "labels.jsonl").write_text("".join(json.dumps({**row, "split": "train"}) + "\n" for row in rows))
    return folder


def whole_photos(folder: Path) -> list:
    """The photos the benchmark reads: whole photos with dice (not single-die crops)."""
    return [p for p in read_dataset(folder) if not p.crop and len(p.dice)]


@pytest.mark.parametrize("spec", ["3", "=models", "x=models", "2="])
def test_a_fold_spec_without_a_number_and_a_folder_is_refused(spec) -> None:
    with pytest.raises(ValueError, match="K=DIR"):
        fold_reads.parse_fold(spec)


def test_a_fold_spec_names_its_fold_and_folder() -> None:
    assert fold_reads.parse_fold("4=runs/dom4") == (4, Path("runs/dom4"))


def test_every_photo_is_read_in_its_own_fold_only(train_set) -> None:
    folds = {fold_of(p.image) for p in whole_photos(train_set)}
    assert len(folds) > 1  # else the test could not tell one fold from all
    results = fold_reads.measure(dict.fromkeys(range(FOLDS), MODELS), [train_set], ("grey",))
    for condition in (fold_reads.AS_TAKEN, "grey"):
        for mode in fold_reads.MODES:
            assert results["all"][condition][mode]["photos"] == len(whole_photos(train_set))
    one = min(folds)
    alone = fold_reads.measure({one: MODELS}, [train_set], ())
    in_fold = [p for p in whole_photos(train_set) if fold_of(p.image) == one]
    assert alone["all"][fold_reads.AS_TAKEN]["free"]["photos"] == len(in_fold)


def test_a_fold_is_scored_as_eval_scores_its_photos(train_set) -> None:
    reader = DiceReader(MODELS)
    fold = fold_of(whole_photos(train_set)[0].image)
    photos = [p for p in whole_photos(train_set) if fold_of(p.image) == fold]
    expected = total(score_photo(p.dice, reader.read(fold_reads.load_image(p.path))) for p in photos)
    row = fold_reads.measure({fold: MODELS}, [train_set], ())[train_set.name][fold_reads.AS_TAKEN]["free"]
    assert (row["exact"], row["read_f1"], row["mistakes"]) == (
        expected.exact, round(expected.read_f1, 4), expected.mistakes)
    assert 0 <= row["silent"] <= row["mistakes"]
