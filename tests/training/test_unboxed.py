"""The train photos where a models folder leaves a labelled die unboxed (`training.data.unboxed`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import dicecam.training.data.unboxed as unboxed
from dicecam.training.data.photos import Sample
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DEFAULT_MODELS

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def test_a_photo_is_listed_when_a_labelled_die_has_no_box(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = next(p for p in read_dataset(SAMPLES) if p.image.startswith("matteop65_wood/"))
    image = load_image(photo.path)
    boxes = photo.dice.boxes.astype(np.float32)
    # The same photo labelled with one more "die" where the table is bare (its top-left corner).
    ghost = np.concatenate([boxes, np.array([[2, 2, 30, 30]], np.float32)])
    assert not any((b[0] < 30 and b[1] < 30) for b in boxes)
    fake = {"plain": [Sample(image, boxes, photo.dice.values, "read.jpg")],
            "ghost": [Sample(image, ghost, np.r_[photo.dice.values, 1], "ghost.jpg")]}
    monkeypatch.setattr(unboxed, "load_split", lambda name, split: fake[name])
    assert unboxed.unboxed_photos(DEFAULT_MODELS, ("plain", "ghost")) == ["ghost/ghost.jpg"]


def test_the_command_writes_a_focus_file_the_trainer_reads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(unboxed, "unboxed_photos", lambda models, sets: [f"{s}/x.jpg" for s in sets])
    out = tmp_path / "runs" / "focus.txt"
    unboxed.main([str(DEFAULT_MODELS), "--out", str(out), "--sets", "roboflow_dice,byler_d6"])
    assert unboxed.read_focus(out) == {"roboflow_dice/x.jpg", "byler_d6/x.jpg"}
    assert capsys.readouterr().out.startswith("2 train photos")


def test_a_photo_is_listed_as_misread_when_a_kept_die_reads_another_value(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = next(p for p in read_dataset(SAMPLES) if p.image.startswith("matteop65_wood/"))
    image = load_image(photo.path)
    boxes = photo.dice.boxes.astype(np.float32)
    values = np.asarray(photo.dice.values)
    # The same photo with its first die labelled one pip more (a 6 as 1): the reader still reads what it shows.
    wrong = values.copy()
    wrong[0] = wrong[0] % 6 + 1
    fake = {"plain": [Sample(image, boxes, values, "read.jpg")],
            "relabelled": [Sample(image, boxes, wrong, "relabelled.jpg")],
            "bare": [Sample(image, np.zeros((0, 4), np.float32), np.zeros(0, int), "bare.jpg")]}
    monkeypatch.setattr(unboxed, "load_split", lambda name, split: fake[name])
    assert unboxed.misread_photos(DEFAULT_MODELS, ("plain", "relabelled", "bare")) == ["relabelled/relabelled.jpg"]


def test_a_photo_is_listed_as_dropped_when_a_boxed_die_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from dicecam.vision.boxes import centres
    from dicecam.vision.candidates import filled
    from dicecam.vision.reader import DiceReader

    photo = next(p for p in read_dataset(SAMPLES) if p.image.startswith("matteop65_wood/"))
    image = load_image(photo.path)
    boxes, values = photo.dice.boxes.astype(np.float32), np.asarray(photo.dice.values)
    half = float(centres(boxes)[:, 0].mean())  # a line between the sample's dice
    right = centres(boxes)[:, 0] > half
    assert right.any() and not right.all(), "the sample should show dice on both sides of their mean"
    candidates = DiceReader.candidates

    def left_half_dropped(self: DiceReader, img: np.ndarray):
        # The rules' word changed: every box left of the line is dropped.
        found = candidates(self, img)
        return replace(found, kept=filled(found.kept, "kept") & (centres(found.boxes)[:, 0] > half))

    monkeypatch.setattr(DiceReader, "candidates", left_half_dropped)
    fake = {"kept": [Sample(image, boxes[right], values[right], "kept.jpg")],
            "dropped": [Sample(image, boxes, values, "dropped.jpg")],
            "ghost": [Sample(image, np.array([[2, 2, 30, 30]], np.float32), np.array([1]), "ghost.jpg")]}
    monkeypatch.setattr(unboxed, "load_split", lambda name, split: fake[name])
    # A labelled die with no box at all (the ghost on bare table) is unboxed, not dropped.
    assert unboxed.dropped_photos(DEFAULT_MODELS, ("kept", "dropped", "ghost")) == ["dropped/dropped.jpg"]


@pytest.mark.parametrize(("flag", "lister", "says"), [("--misread", "misread_photos", "read as another value"),
                                                     ("--dropped", "dropped_photos", "a boxed die dropped")])
def test_the_command_lists_other_photos_when_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str], flag: str, lister: str,
                                                   says: str) -> None:
    monkeypatch.setattr(unboxed, lister, lambda models, sets: [f"{s}/listed.jpg" for s in sets])
    monkeypatch.setattr(unboxed, "unboxed_photos", lambda models, sets: pytest.fail(f"asked for {flag}"))
    out = tmp_path / "focus.txt"
    unboxed.main([str(DEFAULT_MODELS), flag, "--out", str(out), "--sets", "byler_d6"])
    assert unboxed.read_focus(out) == {"byler_d6/listed.jpg"}
    assert says in capsys.readouterr().out


def test_the_command_takes_one_list_at_a_time(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        unboxed.main([str(DEFAULT_MODELS), "--dropped", "--misread", "--out", str(tmp_path / "focus.txt")])
