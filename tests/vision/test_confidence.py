"""The confidence fit: how sure a reading is, from the reader, the detector's peak and the box's size."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_samples import PHOTOS

from dicecam.vision.candidates import Candidates
from dicecam.vision.confidence import CONFIDENCE_FILE, ConfidenceFileError, ConfidenceFit, features, load_confidence_fit
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DEFAULT_MODELS, DETECTOR_FILE, READER_FILE, DiceReader


def _shipped() -> ConfidenceFit:
    fit = load_confidence_fit(DEFAULT_MODELS)
    assert fit is not None, "the models folder ships no confidence fit"
    return fit


SHIPPED = _shipped()
chance = st.floats(0.01, 0.99)
size = st.floats(0.1, 4.0)


def _readings(held, scores, relative) -> Candidates:
    n = len(held)
    boxes = np.tile(np.array([0, 0, 10, 10], np.float32), (n, 1)) + np.arange(n, dtype=np.float32)[:, None] * 20
    held = np.array(held, np.float32)
    # The reader's softmax never gives "not a die" exactly 0: here it holds half of what the
    # value read leaves over, as a reader torn between a face and "not a die" would.
    not_a_die = (1 - held) / 2
    return Candidates(boxes, np.array(scores, np.float32), np.arange(n) % 6 + 1, held, held, not_a_die,
                      np.array(relative, np.float32))


def test_the_shipped_fit_was_made_for_the_shipped_networks():
    """`python -m dicecam.training.calibrate models` must run again whenever a network changes."""
    import hashlib

    about = json.loads((DEFAULT_MODELS / CONFIDENCE_FILE).read_text())["about"]
    for name in (DETECTOR_FILE, READER_FILE):
        assert about["networks"][name] == hashlib.sha256((DEFAULT_MODELS / name).read_bytes()).hexdigest(), name


def test_in_the_shipped_fit_a_surer_reader_a_stronger_peak_and_a_bigger_box_each_make_a_right_reading_likelier():
    assert SHIPPED.reader > 0 and SHIPPED.detector > 0 and SHIPPED.size > 0


@given(held=chance, score=chance, relative=size, more=st.floats(0.0, 0.5))
def test_the_chance_never_falls_as_what_was_seen_gets_clearer(held, score, relative, more):
    base = SHIPPED.probability([held], [score], [relative])[0]
    assert SHIPPED.probability([min(held + more, 0.999)], [score], [relative])[0] >= base - 1e-6
    assert SHIPPED.probability([held], [min(score + more, 0.999)], [relative])[0] >= base - 1e-6
    assert SHIPPED.probability([held], [score], [relative + more])[0] >= base - 1e-6


@given(st.lists(st.tuples(chance, chance, size), min_size=1, max_size=8))
def test_the_fit_only_ever_lowers_a_confidence(rows):
    held, scores, relative = (np.array(column) for column in zip(*rows))
    seen = _readings(held, scores, relative)
    capped, plain = seen.confidence(SHIPPED), seen.confidence()
    assert np.all(capped <= plain) and np.all((capped >= 0) & (capped <= 1))
    np.testing.assert_allclose(plain, held * np.minimum(1, scores / 0.5), rtol=1e-5)


def test_a_sure_reading_on_a_weak_small_box_comes_back_unsure():
    seen = _readings([0.95, 0.9], [0.9, 0.45], [1.0, 0.65])
    plain, capped = seen.confidence(), seen.confidence(SHIPPED)
    assert plain[1] >= 0.7 > capped[1], "a face read surely on a weak peak and a small box is marked"
    assert capped[0] >= 0.7, "a clear die on a strong peak of the typical size stays sure"


def test_features_clip_odd_sizes():
    x = features([0.5, 0.5], [0.5, 0.5], [0.0, 100.0])
    np.testing.assert_allclose(x[:, :3], [[1, 0, 0], [1, 0, 0]], atol=1e-9)
    np.testing.assert_allclose(x[:, 3], np.log([0.2, 3.0]))


def test_empty_readings_give_no_dice():
    dice = Candidates.empty().dice(SHIPPED)
    assert len(dice) == 0 and dice.boxes.shape == (0, 4)


def test_a_fit_survives_its_file():
    fit = ConfidenceFit(-0.5, 1.0, 1.5, 2.0)
    assert ConfidenceFit.from_json(fit.to_json(scenes=4)) == fit


@pytest.mark.parametrize("text, says", [
    ("", "not a confidence fit"),
    ("[1, 2]", "not a confidence fit"),
    ('{"bias": 0, "reader": 1, "detector": 1}', "not a confidence fit"),
    ('{"bias": "x", "reader": 1, "detector": 1, "size": 1}', "not a confidence fit"),
    ('{"bias": NaN, "reader": 1, "detector": 1, "size": 1}', "not finite"),
])
def test_a_broken_fit_is_refused_with_a_reason(text, says):
    with pytest.raises(ConfidenceFileError, match=says):
        ConfidenceFit.from_json(text)


def test_a_models_folder_without_a_fit_reads_uncapped_and_a_broken_one_names_its_file(tmp_path):
    for name in (DETECTOR_FILE, READER_FILE):
        shutil.copy(DEFAULT_MODELS / name, tmp_path / name)
    assert load_confidence_fit(tmp_path) is None and DiceReader(tmp_path).confidence_fit is None
    (tmp_path / CONFIDENCE_FILE).write_text("{not json")
    with pytest.raises(ValueError, match=str(Path(tmp_path / CONFIDENCE_FILE))):
        DiceReader(tmp_path)


def test_the_cap_changes_no_die_and_no_value_on_the_sample_photos(reader):
    plain = DiceReader(capped=False)
    for photo in [p for p in PHOTOS if not p.crop]:
        image = load_image(photo.path)
        capped, uncapped = reader.read(image), plain.read(image)
        np.testing.assert_array_equal(capped.boxes, uncapped.boxes)
        np.testing.assert_array_equal(capped.values, uncapped.values)
        assert np.all(capped.confidences <= uncapped.confidences)


def test_a_fit_that_weighs_not_a_die_doubts_a_token_more_than_a_die():
    fit = ConfidenceFit(0.0, 1.0, 1.0, 1.0, die=1.5)
    die, token = fit.probability([0.95, 0.95], [0.8, 0.8], [1.0, 1.0], [0.01, 0.6])
    assert token < die
    # without the reader's verdict the fit has nothing to tell them apart by
    same = fit.probability([0.95, 0.95], [0.8, 0.8], [1.0, 1.0])
    assert same[0] == same[1]


def test_a_fit_file_from_before_the_die_weight_reads_as_it_did():
    old = '{"bias": -0.2, "reader": 0.8, "detector": 1.1, "size": 2.1}'
    fit = ConfidenceFit.from_json(old)
    assert fit.die == 0.0
    held, scores, rel = [0.9, 0.6], [0.7, 0.4], [1.0, 0.7]
    np.testing.assert_allclose(fit.probability(held, scores, rel, [0.5, 0.9]), fit.probability(held, scores, rel))


@pytest.mark.parametrize(("whole", "lifted"), [(0.95, True), (0.8, True), (0.79, False), (np.nan, False)])
def test_a_weak_peak_lowers_a_die_unless_the_whole_die_check_saw_its_cube(whole, lifted):
    seen = replace(_readings([0.9], [0.3], [1.0]), whole=np.array([whole], np.float32))
    conf = seen.confidence(whole_lifts_peak=0.8)[0]
    assert conf == pytest.approx(0.9 if lifted else 0.9 * 0.3 / 0.5, rel=1e-5)
    assert seen.confidence()[0] == pytest.approx(0.9 * 0.3 / 0.5, rel=1e-5), "without the setting: as before"


@given(st.lists(st.tuples(chance, chance, size, chance), min_size=1, max_size=8), st.floats(0.0, 1.0))
def test_the_check_lifts_a_confidence_but_never_past_the_reading_or_the_fit(rows, lifts):
    held, scores, relative, whole = (np.array(column) for column in zip(*rows))
    seen = replace(_readings(held, scores, relative), whole=whole.astype(np.float32))
    lifted, plain = seen.confidence(SHIPPED, whole_lifts_peak=lifts), seen.confidence(SHIPPED)
    assert np.all(lifted >= plain - 1e-6)
    assert np.all(lifted <= held + 1e-6)
    assert np.all(lifted <= SHIPPED.probability(held, scores, relative, seen.not_a_die) + 1e-6)
