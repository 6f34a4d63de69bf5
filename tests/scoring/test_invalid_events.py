"""Every kind of refused event: a clear message, and the game is left exactly as it was."""

import json

import pytest

from dicecam.scoring import Game, GameFileError, RuleError

A, B = "Anna", "Ben"
FH = {"player": A, "dice": [3, 3, 3, 5, 5], "box": "full_house"}

SHEET_CASES: list[tuple[str, list, object, str]] = [
    # (variant, events before, refused event, words the message must contain)
    ("spiffel", [], {**FH, "player": B}, "It is Anna's turn, not Ben's"),
    ("spiffel", [], {**FH, "player": "Carl"}, "No player named 'Carl'"),
    ("spiffel", [], {**FH, "dice": [3, 3, 3, 5, 7]}, "Dice must be numbers 1 to 6"),
    ("spiffel", [], {**FH, "dice": [0, 3, 3, 5, 5]}, "Dice must be numbers 1 to 6"),
    ("spiffel", [], {**FH, "dice": [3, 3, 3, 5, "5"]}, "Dice must be numbers 1 to 6"),
    ("spiffel", [], {**FH, "dice": [3, 3, 3, 5, 2.5]}, "Dice must be numbers 1 to 6"),
    ("spiffel", [], {**FH, "dice": [3, 3, 3, 5, True]}, "Dice must be numbers 1 to 6"),
    ("spiffel", [], {**FH, "dice": [3, 3, 3, 5]}, "must have 5 dice, not 4"),
    ("spiffel", [], {**FH, "dice": [3, 3, 3, 5, 5, 5]}, "must have 5 dice, not 6"),
    ("spiffel", [], {**FH, "dice": "33355"}, "must be a list of dice"),
    ("spiffel", [], {"player": A, "box": "chance"}, "must give the dice"),
    ("spiffel", [], {"player": A, "dice": [1, 2, 3, 4, 5]}, "must name the box"),
    ("spiffel", [], {"dice": [1, 2, 3, 4, 5], "box": "chance"}, "must name its player"),
    ("spiffel", [], {**FH, "box": "sevens"}, "Unknown box 'sevens'"),
    ("spiffel", [], {**FH, "colour": "red"}, "Unknown field 'colour'"),
    ("spiffel", [], ["Anna", [3, 3, 3, 5, 5], "full_house"], "must be an object"),
    ("spiffel", [FH, {**FH, "player": B}], FH, "Box 'Full house' is already filled for Anna"),
    ("wuerfelware", [FH, {**FH, "player": B}], FH, "Box 'WEBWARE (full house)' is already filled"),
    ("spiffel", [], {**FH, "column": 1}, "one column"),
    ("yahtzee", [], {**FH, "column": 2}, "one column"),
    ("wuerfelspiel", [], FH, "Say which column"),
    ("wuerfelspiel", [], {**FH, "column": 4}, "column must be 1 to 3, not 4"),
    ("wuerfelspiel", [], {**FH, "column": 0}, "column must be 1 to 3, not 0"),
    ("wuerfelspiel", [], {**FH, "column": "2"}, "column must be a number"),
    ("wuerfelspiel", [{**FH, "column": 2}, {**FH, "player": B, "column": 2}],
     {**FH, "column": 2}, "Box 'Full house' in column 2 is already filled for Anna"),
    ("yahtzee", [{"player": A, "dice": [2, 2, 2, 2, 2], "box": "five_kind"},
                 {"player": B, "dice": [1, 2, 3, 4, 6], "box": "chance"}],
     {"player": A, "dice": [6, 6, 6, 6, 6], "box": "chance"}, "must go into Sixes"),
]

PUSH_CASES: list[tuple[str, list, object, str]] = [
    ("wuerfelpoker", [], {"player": B, "throw": [1, 2, 3, 4, 5, 6], "keep": [1]},
     "It is Anna's turn, not Ben's"),
    ("wuerfelpoker", [{"player": A, "throw": [1, 2, 2, 3, 4, 6], "keep": [1]}],
     {"player": B, "throw": [1, 2, 3, 4, 5, 6], "keep": [1]}, "It is Anna's turn, not Ben's"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 2, 3, 4, 5], "keep": [1]},
     "Anna has 6 dice in play, so the throw must have 6, not 5"),
    ("wuerfelpoker", [{"player": A, "throw": [1, 2, 2, 3, 4, 6], "keep": [1]}],
     {"player": A, "throw": [1, 2, 2, 3, 4, 6], "keep": [1]}, "5 dice in play"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 2, 3, 4, 5, 9], "keep": [1]},
     "Dice must be numbers 1 to 6"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 1, 5, 5, 3, 6], "keep": [1, 1, 5, 5, 3]},
     "Only scoring dice can be set aside: 3 does not score"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 2, 3, 4, 6, 6], "keep": [1, 1]},
     "Only dice that were thrown can be set aside"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 2, 3, 4, 6, 6], "keep": [5]},
     "Only dice that were thrown can be set aside"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 2, 3, 4, 6, 6], "keep": []},
     "Set aside at least one scoring die"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 2, 3, 4, 6, 6]},
     "This throw has scoring dice: set at least one aside"),
    ("wuerfelpoker", [], {"player": A, "throw": [2, 3, 4, 6, 6, 3], "keep": [2]},
     "it is a bust"),
    ("wuerfelpoker", [], {"player": A, "bank": True}, "Nothing to bank yet"),
    ("wuerfelpoker", [], {"player": A, "bank": False}, "bank event"),
    ("wuerfelpoker", [], {"player": A, "bank": True, "throw": [1]}, "bank event"),
    ("wuerfelpoker", [], {"player": A}, "must give the throw"),
    ("wuerfelpoker", [], {"player": A, "dice": [1, 2, 3, 4, 5, 6]}, "Unknown field 'dice'"),
    ("wuerfelpoker", [], {"player": A, "throw": [1, 2, 3, 4, 5, 6], "keep": "1"},
     "must be a list of dice"),
]


def _replayed(variant, before):
    game = Game.new(variant, [A, B])
    for event in before:
        game = game.play(event)
    return game


@pytest.mark.parametrize(("variant", "before", "event", "message"), SHEET_CASES + PUSH_CASES)
def test_refused_event_changes_nothing(variant, before, event, message):
    game = _replayed(variant, before)
    snapshot = (json.dumps(game.to_dict()), json.dumps(game.state()))
    with pytest.raises(RuleError) as info:
        game.play(event)
    assert message in str(info.value)
    assert (json.dumps(game.to_dict()), json.dumps(game.state())) == snapshot
    assert len(game.events) == len(before)


@pytest.mark.parametrize(("variant", "before", "event", "message"), SHEET_CASES + PUSH_CASES)
def test_game_file_names_the_refused_event(variant, before, event, message):
    data = {"variant": variant, "players": [A, B], "options": {}, "events": [*before, event]}
    with pytest.raises(GameFileError) as info:
        Game.from_dict(data)
    n = len(before) + 1
    assert info.value.event_number == n
    assert str(info.value).startswith(f"Event {n}: ")
    assert message in str(info.value)


def test_refused_event_leaves_the_event_dict_alone():
    event = {**FH, "dice": [3, 3, 3, 5, 7]}
    copy = json.loads(json.dumps(event))
    with pytest.raises(RuleError):
        Game.new("spiffel", [A]).play(event)
    assert event == copy


def test_nothing_is_accepted_after_the_game_is_over():
    game = Game.new("spiffel", [A])
    for box in game.variant.boxes:
        game = game.play({"player": A, "dice": [1, 2, 3, 4, 6], "box": box})
    with pytest.raises(RuleError, match="The game is over"):
        game.play({"player": A, "dice": [1, 2, 3, 4, 6], "box": "chance"})


def test_errors_carry_a_code_for_translation():
    with pytest.raises(RuleError) as info:
        Game.new("spiffel", [A, B]).play({**FH, "player": B})
    assert info.value.code == "not_your_turn"
    assert info.value.params == {"player": B, "current": A}


@pytest.mark.parametrize(("players", "message"), [
    ([], "at least 1 player"),
    (["Anna", "anna"], "Two players are called 'anna'"),
    (["Anna", " "], "Every player needs a name"),
    (["Anna", 3], "Every player needs a name"),
    ("Anna", "list of names"),
    (["x" * 41], "at most 40 characters"),
])
def test_bad_players_are_refused(players, message):
    with pytest.raises(RuleError, match=message):
        Game.new("spiffel", players)


def test_player_names_are_trimmed():
    game = Game.new("spiffel", [" Anna ", "Ben"])
    assert game.players == ("Anna", "Ben")
    game = game.play({**FH, "player": "Anna "})
    assert game.to_dict()["events"][0]["player"] == "Anna"


def test_sheet_variants_take_no_options():
    with pytest.raises(RuleError, match="no option 'target'"):
        Game.new("spiffel", [A], {"target": 100})


def test_undo_of_an_empty_game():
    with pytest.raises(RuleError, match="Nothing to undo"):
        Game.new("spiffel", [A]).undo()
