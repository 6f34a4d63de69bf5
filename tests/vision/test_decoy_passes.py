"""The count passes over what the decoy reader doubts (C358): told a count where the rules keep
more boxes than it, a kept box the decoy reader reads "not a die" at `decoy_passes` or more ranks
after the other kept boxes, as a domino's half does (C357). A numeral die or a token read as
surely as a die took a real die's place; passed over, it is left out and the die is taken. That
real throws read as before is `test_domino_passes.py`'s, for both checks."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.training.render.scene import render_scene
from dicecam.vision.boxes import centres, inside
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import score_photo
from dicecam.vision.reader import DECOY_READER_FILE, DiceReader

#: Rendered game tables (the renderer's seeds, upright, all on clutter) told their count, where a
#: decoy the rules keep outranks a real die: a 5-dice throw beside tokens, numeral dice and a
#: piece, and a 10-dice heap beside a numeral d6.
DECOY_SCENES = (7056, 7163)


@pytest.fixture(scope="module")
def shipped() -> DiceReader:
    """The shipped reader: C358 as measured (models/HISTORY.md, session 72)."""
    reader = DiceReader()
    assert reader.settings.decoy_passes == 0.8 and reader.decoy_reader is not None
    return reader


@pytest.fixture(scope="module")
def unpassed() -> DiceReader:
    return DiceReader(decoy_passes=None)


@pytest.mark.parametrize("seed", [
    DECOY_SCENES[0],
    # Since C434 (the domino check made again, session 90) this heap of ten's die at the tray's
    # far side gets 0.71 from the domino check (0.11 before) and ranks last among the kept boxes.
    pytest.param(DECOY_SCENES[1], marks=pytest.mark.xfail(strict=True, reason="C434: a die ranked as a half")),
])
def test_a_decoy_that_outranked_a_die_is_left_out_for_it(shipped, unpassed, seed) -> None:
    scene = render_scene(np.random.default_rng(seed), upright=True, clutter=1.0)
    truth = Dice(np.array([d.top_box for d in scene.dice], np.float32),
                 np.array([d.value for d in scene.dice]), np.ones(len(scene.dice), np.float32))
    decoys = np.array(scene.decoys, np.float32).reshape(-1, 4)
    before, after = (r.read_counted(scene.image, len(scene.dice)) for r in (unpassed, shipped))
    assert inside(centres(before.dice.boxes), decoys).any(), "a decoy took a die's place"
    assert not score_photo(truth, before.dice).exact
    assert score_photo(truth, after.dice).exact
    assert not inside(centres(after.dice.boxes), decoys).any()
    assert inside(centres(after.left_out.boxes), decoys).any(), "the decoy is shown left out"


def test_a_folder_without_the_decoy_reader_passes_nothing(models_without, unpassed) -> None:
    bare = DiceReader(models_without(DECOY_READER_FILE), decoy_passes=0.0)
    assert bare.decoy_reader is None
    scene = render_scene(np.random.default_rng(DECOY_SCENES[0]), upright=True, clutter=1.0)
    count = len(scene.dice)
    np.testing.assert_array_equal(bare.read(scene.image, count=count).boxes,
                                  unpassed.read(scene.image, count=count).boxes)
