"""`NAME=VALUE` reader options (`dicecam eval --option`, the benchmarks' `--option`) read as their settings' types."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from dicecam.cli import main
from dicecam.vision.settings import ReaderSettings, SettingError, parse_options

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


@pytest.mark.parametrize(("spec", "name", "value"), [
    ("zoom_margin=8", "zoom_margin", 8.0),
    ("zoom_margin=inf", "zoom_margin", math.inf),
    (" zoom_margin = 0.5 ", "zoom_margin", 0.5),
    ("zoom_max_side=1536", "zoom_max_side", 1536),
    ("search_missing=false", "search_missing", False),
    ("colours=on", "colours", True),
    ("capped=0", "capped", False),
    ("weak_score=none", "weak_score", None),
    ("min_score=None", "min_score", None),
    ("rescue_not_a_die=0.4", "rescue_not_a_die", 0.4),
])
def test_an_option_is_read_as_its_settings_type(spec: str, name: str, value: object) -> None:
    changes = parse_options([spec])
    assert changes == {name: value} and type(changes[name]) is type(value)
    assert getattr(ReaderSettings().but(**changes), name) == value


@pytest.mark.parametrize(("spec", "words"), [
    ("zoom_margin", "NAME=VALUE"),
    ("=3", "NAME=VALUE"),
    ("zoom_margin=", "NAME=VALUE"),
    ("no_such_thing=1", "unknown reader setting 'no_such_thing'"),
    ("zoom_margin=wide", "zoom_margin takes a number, not 'wide'"),
    ("zoom_margin=none", "zoom_margin takes a number, not 'none'"),
    ("zoom_max_side=1.5", "zoom_max_side takes a whole number"),
    ("colours=maybe", "colours takes true or false"),
    ("weak_score=low", "weak_score takes a number or none"),
])
def test_a_bad_option_is_named_plainly(spec: str, words: str) -> None:
    with pytest.raises(SettingError, match=words.replace("(", r"\(")):
        parse_options([spec])


def test_later_options_win_and_none_change_nothing() -> None:
    assert parse_options(["zoom_margin=2", "zoom_margin=3"]) == {"zoom_margin": 3.0}
    assert parse_options([]) == {}


def test_eval_reads_with_the_options_given(capsys) -> None:
    # The closer look off: the samples' small dice are found less well, so the figures move.
    assert main(["eval", str(SAMPLES), "--split", "all", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["eval", str(SAMPLES), "--split", "all", "--json", "--option", "zoom_below=0",
                 "--option", "turn_below=0", "--option", "max_not_a_die=1"]) == 0
    changed = json.loads(capsys.readouterr().out)
    assert changed["photos"] == plain["photos"]
    assert (changed["predicted"], changed["right"]) != (plain["predicted"], plain["right"])


def test_eval_refuses_a_bad_option_before_reading(capsys) -> None:
    assert main(["eval", str(SAMPLES), "--option", "zoom_margin=wide"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "dicecam: reader setting zoom_margin takes a number, not 'wide'"
