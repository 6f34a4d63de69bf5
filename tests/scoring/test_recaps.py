"""What an event did, in player terms (`Game.recap`, `Game.describe`), and entries as events."""

import pytest

from dicecam.scoring import FillRecap, Game, KeepRecap, RuleError


def _fill(game, dice, box, column=None):
    choice = {"box": box} if column is None else {"box": box, "column": column}
    return game.enter(dice, choice)


def test_weighted_fill_in_wuerfelspiel():
    game = _fill(Game.new("wuerfelspiel", ["Anna"]), [3, 3, 3, 5, 5], "full_house", 3)
    recap = game.describe(-1, "de")
    assert (recap["kind"], recap["player"], recap["box"], recap["column"]) == ("fill", "Anna", "full_house", 3)
    assert (recap["weight"], recap["points"], recap["weighted"], recap["gain"]) == (3, 25, 75, 75)
    assert recap["text"] == "Anna: Full House ×3 · 25 (75)"
    assert game.describe(-1, "en")["text"] == "Anna: Full house ×3 · 25 (75)"


def test_single_column_fill_has_weight_one_and_no_column_mark():
    game = _fill(Game.new("spiffel", ["Anna"]), [2, 2, 3, 4, 5], "small_straight")
    assert game.describe()["text"] == "Anna: Kleine Straße · 30"
    recap = game.recap()
    assert isinstance(recap, FillRecap) and recap.column is None and recap.weight == 1


def test_scratch_is_written_as_the_variant_writes_it():
    spiffel = _fill(Game.new("spiffel", ["Anna"]), [1, 2, 2, 4, 6], "five_kind")
    assert spiffel.describe()["text"] == "Anna: Spiffel · XXX"
    yahtzee = _fill(Game.new("yahtzee", ["Anna"]), [1, 2, 2, 4, 6], "five_kind")
    assert yahtzee.describe(lang="en")["text"] == "Anna: Yahtzee · 0 (scratched)"


def test_upper_bonus_and_extra_bonus_are_named():
    game = Game.new("spiffel", ["Anna"])
    game = _fill(game, [6, 6, 6, 6, 6], "five_kind")
    game = _fill(game, [6, 6, 6, 6, 1], "sixes")
    game = _fill(game, [5, 5, 5, 5, 1], "fives")
    game = _fill(game, [4, 4, 4, 1, 1], "fours")   # 24 + 20 + 12 = 56
    game = _fill(game, [3, 3, 3, 1, 1], "threes")  # 65: the bonus
    recap = game.recap()
    assert isinstance(recap, FillRecap) and recap.upper_bonus == 35 and recap.gain == 9 + 35
    assert game.describe(lang="en")["text"] == "Anna: Threes · 9 · bonus +35"
    game = _fill(game, [2, 2, 2, 2, 2], "full_house")  # the second Spiffel: joker, +100
    recap = game.recap()
    assert isinstance(recap, FillRecap)
    assert (recap.points, recap.joker, recap.extra_bonus, recap.gain) == (25, True, 100, 125)
    assert game.describe()["text"] == "Anna: Full House · 25 · Joker · Spiffel-Bonus +100"


def test_push_recaps():
    game = Game.new("wuerfelpoker", ["Anna", "Ben"], {"target": 500})
    game = game.enter([1, 1, 5, 5, 3, 6], {"keep": [5, 1, 1, 5]})
    assert game.describe()["text"] == "Anna: 1, 1, 5, 5 beiseite · 300 (Runde 300)"
    game = game.enter([4, 2], {})
    assert game.describe(lang="en")["text"] == "Anna: bust, 300 points lost"
    assert game.recap().to_dict() == {"kind": "bust", "player": "Anna", "throw": [4, 2], "lost": 300}
    game = game.enter([2, 3, 4, 6, 6, 3], {"keep": []})
    assert game.describe()["text"] == "Ben: Niete"
    game = game.enter([5, 5, 1, 3, 4, 4], {"keep": [5, 5, 1]})
    game = game.enter([1, 4, 6], {"keep": [1]})
    game = game.enter([5, 1], {"keep": [5, 1]})
    recap = game.recap()
    assert isinstance(recap, KeepRecap) and recap.hot_dice and recap.dice_left == 6
    assert game.describe(lang="en")["text"].endswith("hot dice: all six again")
    game = game.enter([], {"bank": True})
    assert game.recap().to_dict() == {"kind": "bank", "player": "Anna", "points": 450,
                                      "score": 450, "reached_target": False}
    assert game.describe()["text"] == "Anna: schreibt 450 an · 450"


def test_every_event_keeps_its_recap():
    game = Game.new("spiffel", ["Anna", "Ben"])
    for dice, box in [([1, 1, 1, 2, 3], "ones"), ([2, 2, 2, 2, 3], "twos"), ([6, 6, 6, 6, 6], "five_kind")]:
        game = _fill(game, dice, box)
    assert [r.points for r in game.recaps if isinstance(r, FillRecap)] == [3, 8, 50]
    assert game.recap(0).player == "Anna" and game.recap(1).player == "Ben"
    assert game.undo().recaps == game.recaps[:-1]
    assert Game.from_dict(game.to_dict()).recaps == game.recaps


@pytest.mark.parametrize(("variant", "players", "events", "expected"), [
    ("spiffel", ["Anna"], [], 5),
    ("wuerfelspiel", ["Anna"], [], 5),
    ("wuerfelpoker", ["Anna", "Ben"], [], 6),
    ("wuerfelpoker", ["Anna", "Ben"], [{"player": "Anna", "throw": [1, 5, 2, 3, 4, 6], "keep": [1, 5]}], 4),
    ("wuerfelpoker", ["Anna", "Ben"], [{"player": "Anna", "throw": [1, 1, 1, 5, 5, 5], "keep": [1, 1, 1, 5, 5, 5]}], 6),
])
def test_expected_dice(variant, players, events, expected):
    game = Game.from_dict({"variant": variant, "players": players, "events": events})
    assert game.expected_dice == expected


@pytest.mark.parametrize(("variant", "dice", "choice", "event"), [
    ("spiffel", [3, 3, 3, 5, 5], {"box": "full_house"},
     {"player": "Anna", "dice": [3, 3, 3, 5, 5], "box": "full_house"}),
    ("wuerfelspiel", [3, 3, 3, 5, 5], {"box": "full_house", "column": 2},
     {"player": "Anna", "dice": [3, 3, 3, 5, 5], "box": "full_house", "column": 2}),
    ("spiffel", [3, 3, 3, 5, 5], {"box": "chance", "column": None},
     {"player": "Anna", "dice": [3, 3, 3, 5, 5], "box": "chance"}),
    ("wuerfelpoker", [1, 2, 3, 4, 6, 6], {"keep": [1]},
     {"player": "Anna", "throw": [1, 2, 3, 4, 6, 6], "keep": [1]}),
    ("wuerfelpoker", [2, 3, 4, 6, 6, 3], {"keep": []},
     {"player": "Anna", "throw": [2, 3, 4, 6, 6, 3]}),
    ("wuerfelpoker", [2, 3, 4, 6, 6, 3], {},
     {"player": "Anna", "throw": [2, 3, 4, 6, 6, 3]}),
    ("wuerfelpoker", [], {"bank": True}, {"player": "Anna", "bank": True}),
])
def test_an_entry_becomes_the_event_the_rules_ask_for(variant, dice, choice, event):
    game = Game.new(variant, ["Anna", "Ben"])
    assert game.entry_event(dice, choice) == event


@pytest.mark.parametrize(("variant", "choice", "code"), [
    ("spiffel", {"box": "chance", "keep": [1]}, "event_field"),
    ("wuerfelpoker", {"box": "chance"}, "event_field"),
    ("wuerfelpoker", {"bank": True, "keep": [1]}, "event_shape"),
    ("spiffel", ["chance"], "event_shape"),
    ("spiffel", {"box": "sevens"}, "unknown_box"),
])
def test_bad_entries_are_refused(variant, choice, code):
    game = Game.new(variant, ["Anna", "Ben"])
    with pytest.raises(RuleError) as info:
        game.enter([1, 2, 3, 4, 5, 6][: game.expected_dice], choice)
    assert info.value.code == code


def test_no_entry_once_the_game_is_over():
    game = Game.new("wuerfelpoker", ["Anna", "Ben"], {"target": 50})
    game = game.enter([5, 2, 3, 4, 6, 6], {"keep": [5]}).enter([], {"bank": True})
    assert game.finished
    with pytest.raises(RuleError) as info:
        game.entry_event([1, 2, 3, 4, 5, 6], {"keep": [1]})
    assert info.value.code == "game_over"
