"""Game files whose dice or boxes are the wrong kind of value (a float die, a nested list, a box
that is not text) are refused with a coded RuleError, never a TypeError from inside the rules."""

from __future__ import annotations

import pytest

from dicecam.scoring import Game, GameFileError, RuleError
from dicecam.scoring.dice import check_dice


def _sheet(event: dict, variant: str = "spiffel") -> dict:
    return {"variant": variant, "players": ["A"], "events": [{"player": "A", **event}]}


def _push(event: dict) -> dict:
    return {"variant": "wuerfelpoker", "players": ["A", "B"], "events": [{"player": "A", **event}]}


@pytest.mark.parametrize("bad", [1.0, 6.0, [1], {}, {"value": 1}, 1.5, None, "1", True])
def test_a_die_that_is_not_a_whole_number_is_refused_as_dice_values(bad):
    with pytest.raises(RuleError) as err:
        check_dice([1, 1, 1, 1, bad], count=5)
    assert err.value.code == "dice_values"


@pytest.mark.parametrize(
    "data",
    [
        _sheet({"dice": [1, 1, 1, 1, 1.0], "box": "ones"}),
        _sheet({"dice": [[1], 1, 1, 1, 1], "box": "ones"}),
        _sheet({"dice": [{}, 1, 1, 1, 1], "box": "ones"}),
        _push({"throw": [[1], 1, 1, 1, 1, 1]}),
        _push({"throw": [1, 1, 1, 1, 1, 1], "keep": [1.0]}),
        _push({"throw": [1, 1, 1, 1, 1, 1], "keep": [[1]]}),
    ],
)
def test_a_float_or_nested_die_in_a_game_file_is_a_game_file_error(data):
    with pytest.raises(GameFileError) as err:
        Game.from_dict(data)
    assert (err.value.code, err.value.event_number) == ("dice_values", 1)


@pytest.mark.parametrize("box", [["ones"], {"a": 1}, 1, 1.5])
def test_a_box_that_is_not_text_is_an_unknown_box(box):
    with pytest.raises(GameFileError) as err:
        Game.from_dict(_sheet({"dice": [1, 1, 1, 1, 1], "box": box}))
    assert (err.value.code, err.value.event_number) == ("unknown_box", 1)


def test_plain_whole_dice_still_play():
    game = Game.from_dict(_sheet({"dice": [1, 1, 1, 2, 2], "box": "ones"}))
    assert game.totals == {"A": 3}
