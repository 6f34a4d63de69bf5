"""The whole-die check: its crops in context, and what its word does to the judging."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.vision.candidates import Candidates
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DEFAULT_MODELS, DETECTOR_FILE, READER_FILE, DiceReader
from dicecam.vision.whole_die import as_input, context_crops

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def test_a_crop_shows_its_box_in_its_middle_half_with_the_context_around() -> None:
    photo = np.zeros((300, 400, 3), np.uint8)
    photo[100:140, 200:240] = 255  # the box: a white square on black
    crop = context_crops(photo, np.array([[200, 100, 240, 140]]), size=40, context=2.0)[0]
    assert crop.shape == (40, 40, 3) and crop.dtype == np.uint8
    assert crop[12:28, 12:28].min() > 200  # the box, scaled to the middle half
    assert crop[:8].max() < 50 and crop[32:].max() < 50 and crop[:, :8].max() < 50  # its surroundings


@pytest.mark.parametrize("lift", [0.25, 0.5])
def test_a_lifted_crop_shows_more_above_its_box_than_below(lift) -> None:
    photo = np.zeros((300, 400, 3), np.uint8)
    photo[100:140, 200:240] = 255  # the box
    crop = context_crops(photo, np.array([[200, 100, 240, 140]]), size=40, context=2.0, lift=lift)[0]
    rows = np.flatnonzero(crop[:, 20, 0] > 128)
    shift = lift * 40 * 40 / 80  # `lift` of the box's side (40 px), at the crop's scale (40 / 80)
    assert rows.min() == pytest.approx(10 + shift, abs=1) and rows.max() == pytest.approx(29 + shift, abs=1)
    columns = np.flatnonzero(crop[20 + int(shift), :, 0] > 128)
    assert (columns.min(), columns.max()) == (10, 29)  # sideways it stays centred


@settings(max_examples=60, deadline=None)
@given(x=st.floats(-50, 450), y=st.floats(-50, 350), w=st.floats(1, 300), h=st.floats(1, 300),
       grey=st.integers(0, 255))
def test_a_crop_anywhere_even_past_the_edge_of_a_plain_photo_is_that_plain_colour(x, y, w, h, grey) -> None:
    photo = np.full((300, 400, 3), grey, np.uint8)
    crop = context_crops(photo, np.array([[x, y, x + w, y + h]]))
    assert crop.shape == (1, 40, 40, 3)
    assert np.abs(crop.astype(int) - grey).max() <= 1


def test_the_network_takes_crops_channels_first_centred_on_zero() -> None:
    crops = np.zeros((2, 40, 40, 3), np.uint8)
    crops[1] = 255
    x = as_input(crops)
    assert x.shape == (2, 3, 40, 40) and x.dtype == np.float32
    assert x[0].max() == -0.5 and x[1].min() == 0.5


def one_kept_box(whole: float | None) -> Candidates:
    """A box the other rules keep: a plain, sure, typical-sized face."""
    f = np.float32
    return Candidates(np.array([[10, 10, 40, 40]], f), np.array([1.0], f), np.array([3]), np.array([0.99], f),
                      np.array([0.99], f), np.array([0.0], f), np.array([1.0], f), None, np.array([False]),
                      None if whole is None else np.array([whole], f))


@pytest.mark.parametrize(("whole", "kept"), [
    (None, True),      # a models folder without the check
    (np.nan, True),    # not looked at: the rules' word stands
    (0.95, True),
    (0.30, True),      # at the threshold
    (0.29, False),
    (0.0, False),
])
def test_a_box_is_dropped_only_where_the_check_looked_and_saw_no_die(reader, whole, kept) -> None:
    assert reader.settings.min_whole_die == 0.3
    assert bool(reader.judge(one_kept_box(whole)).kept[0]) is kept


def test_a_models_folder_without_the_check_reads_as_before(tmp_path) -> None:
    for name in (DETECTOR_FILE, READER_FILE):
        shutil.copy(DEFAULT_MODELS / name, tmp_path / name)
    older = DiceReader(tmp_path)
    assert older.whole_die is None
    photo = load_image(SAMPLES / "byler_d6" / "IMG_20191209_100714.jpg")
    found = older.candidates(photo)
    assert found.whole is None
    assert sorted(found.dice().values.tolist()) == [2, 2, 3, 3, 3]  # as labelled
