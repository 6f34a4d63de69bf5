"""Würfelpoker / Zehntausend: set-aside points, bust, hot dice, bank, target."""

import pytest

from dicecam.scoring import Game, RuleError, best_points, is_bust, keep_options, keep_points


@pytest.mark.parametrize(("keep", "points"), [
    ([1], 100), ([5], 50), ([1, 5], 150), ([1, 1], 200), ([5, 5], 100), ([1, 1, 5], 250),
    ([1, 1, 5, 5], 300),
    ([2, 2, 2], 200), ([3, 3, 3], 300), ([4, 4, 4], 400), ([5, 5, 5], 500), ([6, 6, 6], 600),
    ([1, 1, 1], 1000),
    ([2, 2, 2, 2], 400), ([3, 3, 3, 3], 600), ([4, 4, 4, 4], 800), ([5, 5, 5, 5], 1000),
    ([6, 6, 6, 6], 1200), ([1, 1, 1, 1], 2000),
    ([2, 2, 2, 2, 2], 800), ([6, 6, 6, 6, 6], 2400), ([1, 1, 1, 1, 1], 4000),
    ([2, 2, 2, 2, 2, 2], 1600), ([6, 6, 6, 6, 6, 6], 4800), ([1, 1, 1, 1, 1, 1], 10000),
    ([1, 2, 3, 4, 5, 6], 1000), ([6, 5, 4, 3, 2, 1], 1000),
    ([2, 2, 2, 1, 5], 350), ([1, 1, 1, 5], 1050), ([5, 5, 5, 5, 1], 1100),
    ([2, 2, 2, 3, 3, 3], 500), ([4, 4, 4, 4, 1, 1], 1000),
])
def test_set_aside_points(keep, points):
    assert keep_points(keep) == points


@pytest.mark.parametrize(("keep", "faces"), [
    ([3], "3"), ([1, 3], "3"), ([2, 2], "2"), ([1, 2, 3, 4, 5], "2, 3, 4"), ([6, 6, 5], "6"),
])
def test_only_scoring_dice_can_be_set_aside(keep, faces):
    with pytest.raises(RuleError, match=f"Only scoring dice can be set aside: {faces} does not score"):
        keep_points(keep)


@pytest.mark.parametrize(("throw", "bust"), [
    ([4, 2], True), ([6], True), ([2, 3, 4, 6], True), ([2, 3, 4, 6, 6, 3], True),
    ([1], False), ([5], False), ([2, 2, 2, 3, 4, 6], False), ([1, 2, 3, 4, 5, 6], False),
    ([3, 4, 6, 6, 6], False),
])
def test_bust(throw, bust):
    assert is_bust(throw) is bust
    assert (keep_options(throw) == []) is bust


def test_every_legal_set_aside_of_a_throw_best_first():
    options = [(list(o.keep), o.points) for o in keep_options([1, 1, 5, 5, 3, 6])]
    assert options == [
        ([1, 1, 5, 5], 300), ([1, 1, 5], 250), ([1, 1], 200), ([1, 5, 5], 200),
        ([1, 5], 150), ([1], 100), ([5, 5], 100), ([5], 50),
    ]


@pytest.mark.parametrize(("throw", "best"), [
    ([1, 1, 5, 5, 3, 6], 300), ([5, 5, 1, 3, 4, 4], 200), ([2, 2, 2, 1, 5, 6], 350),
    ([4, 4, 4, 4, 6, 3], 800), ([1, 4, 6], 100), ([5, 1], 150), ([1, 1, 4, 4, 6, 6], 200),
    ([4, 2], 0),
])
def test_best_points(throw, best):
    assert best_points(throw) == best


# -- turns ------------------------------------------------------------------------------

def _game(**options):
    return Game.new("wuerfelpoker", ["Anna", "Ben"], options)


def _throw(game, throw, keep=None):
    event = {"player": game.current_player, "throw": throw}
    if keep is not None:
        event["keep"] = keep
    return game.play(event)


def _bank(game):
    return game.play({"player": game.current_player, "bank": True})


def test_seed_example_bust_loses_the_turn():
    game = _throw(_game(), [1, 1, 5, 5, 3, 6], [1, 1, 5, 5])
    assert game.state()["turn_state"] == {"turn_total": 300, "dice_left": 2, "hot_dice": False}
    game = _throw(game, [4, 2])
    assert game.totals == {"Anna": 0, "Ben": 0}
    assert game.state()["sheet"]["Anna"] == {"score": 0, "turns": [0]}
    assert game.current_player == "Ben"
    assert game.state()["turn_state"] == {"turn_total": 0, "dice_left": 6, "hot_dice": False}


def test_seed_example_650_with_hot_dice():
    game = _throw(_game(), [5, 5, 1, 3, 4, 4], [5, 5, 1])
    game = _throw(game, [1, 4, 6], [1])
    assert game.turn_state.turn_total == 300
    game = _throw(game, [5, 1], [5, 1])
    assert game.state()["turn_state"] == {"turn_total": 450, "dice_left": 6, "hot_dice": True}
    game = _throw(game, [1, 1, 4, 4, 6, 6], [1, 1])
    assert game.turn_state.turn_total == 650 and game.turn_state.dice_left == 4
    game = _bank(game)
    assert game.totals["Anna"] == 650
    assert game.current_player == "Ben"


def test_seed_example_1200_with_hot_dice():
    game = _throw(_game(), [2, 2, 2, 1, 5, 6], [2, 2, 2, 1, 5])
    assert game.turn_state.turn_total == 350
    game = _throw(game, [5], [5])
    assert game.turn_state.turn_total == 400 and game.turn_state.hot_dice
    game = _throw(game, [4, 4, 4, 4, 6, 3], [4, 4, 4, 4])
    game = _bank(game)
    assert game.totals["Anna"] == 1200


def test_banking_after_hot_dice_without_throwing_again():
    game = _throw(_game(), [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6])
    assert game.turn_state.hot_dice
    assert _bank(game).totals["Anna"] == 1000


def test_a_combination_counts_only_within_its_throw():
    # One 5, then two more 5s from the next throw: three singles (150), not three of a kind (500).
    game = _throw(_game(), [5, 2, 3, 4, 6, 6], [5])
    game = _throw(game, [5, 5, 2, 3, 4], [5, 5])
    assert game.turn_state.turn_total == 150
    with pytest.raises(RuleError, match="2 does not score"):
        _throw(_game(), [2, 2, 1, 3, 4, 6], [2, 2, 1])


def test_turn_numbers_and_alternation():
    game = _game()
    assert (game.current_player, game.turn) == ("Anna", 1)
    game = _throw(game, [2, 3, 4, 6, 6, 3])
    assert (game.current_player, game.turn) == ("Ben", 1)
    game = _throw(game, [2, 3, 4, 6, 6, 3])
    assert (game.current_player, game.turn) == ("Anna", 2)


def test_reaching_the_target_ends_the_game_at_once():
    game = _throw(_game(target=1000), [1, 1, 1, 2, 3, 4], [1, 1, 1])
    game = _bank(game)
    state = game.state()
    assert state["finished"] and state["winner"] == "Anna" and state["current_player"] is None
    with pytest.raises(RuleError, match="over"):
        game.play({"player": "Ben", "throw": [1, 2, 3, 4, 5, 6], "keep": [1]})


def test_six_ones_wins_the_default_game():
    game = _bank(_throw(_game(), [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]))
    assert game.finished and game.winner == "Anna" and game.totals["Anna"] == 10000


def test_below_the_target_the_game_goes_on():
    game = _bank(_throw(_game(target=1050), [1, 1, 1, 2, 3, 4], [1, 1, 1]))
    assert not game.finished and game.current_player == "Ben"


def test_finish_round_lets_the_others_play_and_the_highest_score_wins():
    game = Game.new("wuerfelpoker", ["Anna", "Ben", "Cleo"], {"target": 1000, "finish_round": True})
    game = _bank(_throw(game, [1, 1, 1, 2, 3, 4], [1, 1, 1]))     # Anna 1000
    assert not game.finished and game.current_player == "Ben"
    game = _throw(game, [2, 3, 4, 6, 6, 3])                          # Ben busts
    game = _bank(_throw(game, [1, 1, 1, 1, 2, 3], [1, 1, 1, 1]))  # Cleo 2000
    assert game.finished and game.winner == "Cleo"


def test_finish_round_tie():
    game = Game.new("wuerfelpoker", ["Anna", "Ben"], {"target": 1000, "finish_round": True})
    game = _bank(_throw(game, [1, 1, 1, 2, 3, 4], [1, 1, 1]))
    game = _bank(_throw(game, [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]))
    assert game.finished and game.winner == ["Anna", "Ben"]


def test_finish_round_when_the_last_seat_reaches_the_target_ends_at_once():
    game = Game.new("wuerfelpoker", ["Anna", "Ben"], {"target": 1000, "finish_round": True})
    game = _throw(game, [2, 3, 4, 6, 6, 3])
    game = _bank(_throw(game, [1, 1, 1, 2, 3, 4], [1, 1, 1]))
    assert game.finished and game.winner == "Ben"


@pytest.mark.parametrize("options", [
    {"target": 0}, {"target": -5}, {"target": "10000"}, {"target": True}, {"target": 2_000_000},
    {"finish_round": "yes"}, {"rounds": 3},
])
def test_bad_options_are_refused(options):
    with pytest.raises(RuleError):
        _game(**options)


def test_options_for_the_current_throw():
    game = _throw(_game(), [5, 2, 3, 4, 6, 6], [5])
    assert game.options([1, 5, 2, 3, 4]) == [
        {"keep": [1, 5], "points": 150, "turn_total": 200, "dice_left": 3, "hot_dice": False},
        {"keep": [1], "points": 100, "turn_total": 150, "dice_left": 4, "hot_dice": False},
        {"keep": [5], "points": 50, "turn_total": 100, "dice_left": 4, "hot_dice": False},
    ]
    assert game.options([2, 2, 3, 4, 6]) == []
    with pytest.raises(RuleError, match="5 dice in play"):
        game.options([1, 1, 1, 1, 1, 1])
