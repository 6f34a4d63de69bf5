"""Why dice read with their count are marked unsure (benchmarks/unsure_dice.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import unsure_dice  # benchmarks/ is on pytest's pythonpath

from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.mark.parametrize(("kept", "held", "tempered", "capped", "why"), [
    (False, 0.99, 0.99, 0.99, "fill"),      # a dropped box taken for the count, however plain
    (True, 0.60, 0.50, 0.40, "doubt"),      # the reader's own doubt comes before what tempers it
    (True, 0.90, 0.60, 0.50, "weak peak"),
    (True, 0.90, 0.80, 0.60, "fit"),
    (True, 0.90, 0.80, 0.75, "ask"),        # sure by every measure: only the count's ask is left
])
def test_an_unsure_die_goes_under_the_first_cause_that_holds(kept, held, tempered, capped, why) -> None:
    assert unsure_dice.cause(kept=kept, held=held, tempered=tempered, capped=capped, low=0.7) == why


def test_every_unsure_die_of_the_samples_has_one_cause() -> None:
    reader = DiceReader()
    marked, reported = unsure_dice.unsure_causes(reader, SAMPLES, "all")
    dice = [reader.read(load_image(p.path), count=len(p.dice)) for p in read_dataset(SAMPLES) if not p.crop]
    assert reported == sum(len(d) for d in dice)
    assert sum(marked.values()) == sum(int((d.confidences < reader.low_confidence).sum()) for d in dice)
    assert {why for why, _ in marked} <= set(unsure_dice.CAUSES)


def test_json_gives_each_cause_its_right_dice_and_mistakes(capsys) -> None:
    unsure_dice.main([str(SAMPLES), "--split", "all", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert set(out["causes"]) == set(unsure_dice.CAUSES)
    assert out["unsure"] == sum(row["right"] + row["mistakes"] for row in out["causes"].values())
    assert 0 <= out["unsure"] <= out["dice"]


def test_max_dice_keeps_only_the_photos_of_that_many_dice_or_fewer() -> None:
    reader = DiceReader()
    photos = [p for p in read_dataset(SAMPLES) if not p.crop]
    few = min(len(p.dice) for p in photos)
    assert any(len(p.dice) > few for p in photos)  # the samples hold photos on both sides of the bound
    _, reported = unsure_dice.unsure_causes(reader, SAMPLES, "all", max_dice=few)
    kept = [p for p in photos if len(p.dice) <= few]
    assert reported == sum(len(reader.read(load_image(p.path), count=len(p.dice))) for p in kept)
    _, every = unsure_dice.unsure_causes(reader, SAMPLES, "all")
    assert reported < every


def test_max_dice_under_one_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        unsure_dice.main([str(SAMPLES), "--max-dice", "0"])
    assert "the number of dice must be a whole number of at least 1" in capsys.readouterr().err
