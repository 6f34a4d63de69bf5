"""Hypothesis properties: dice order never matters, totals add up, export/replay is exact."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.scoring import BOXES, UPPER, Game, RuleError, get_variant, keep_options, keep_points, score_all
from dicecam.scoring.poker import is_bust

die = st.integers(1, 6)
five = st.lists(die, min_size=5, max_size=5)
SHEET_VARIANTS = ["spiffel", "wuerfelware", "wuerfelspiel", "yahtzee"]
# Upper bonus thresholds as RULES.md states them, independent of the code under test.
THRESHOLD = {"spiffel": 63, "wuerfelware": 65, "wuerfelspiel": 63, "yahtzee": 63}
WEIGHTS = {"spiffel": (1,), "wuerfelware": (1,), "wuerfelspiel": (1, 2, 3), "yahtzee": (1,)}


@given(five, st.randoms(use_true_random=False))
def test_box_scores_ignore_dice_order(dice, rnd):
    shuffled = dice[:]
    rnd.shuffle(shuffled)
    assert score_all(shuffled) == score_all(dice)


@given(st.lists(die, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_set_aside_options_ignore_dice_order(dice, rnd):
    shuffled = dice[:]
    rnd.shuffle(shuffled)
    assert keep_options(shuffled) == keep_options(dice)
    assert is_bust(shuffled) == is_bust(dice)


@given(st.lists(die, min_size=1, max_size=6))
def test_every_option_is_thrown_dice_that_score(throw):
    for option in keep_options(throw):
        assert option.points > 0 and option.points % 50 == 0
        rest = list(throw)
        for d in option.keep:
            rest.remove(d)          # raises if the option uses a die that was not thrown
        assert keep_points(list(reversed(option.keep))) == option.points


@st.composite
def sheet_game(draw, variant):
    """A game played with random throws into random legal boxes."""
    players = ["Anna", "Ben"][: draw(st.integers(get_variant(variant).min_players, 2))]
    game = Game.new(variant, players)
    for _ in range(draw(st.integers(0, 40))):
        if game.finished:
            break
        dice = draw(five)
        choices = game.options(dice)
        pick = choices[draw(st.integers(0, len(choices) - 1))]
        event = {"player": game.current_player, "dice": dice, "box": pick["box"]}
        if pick["column"] is not None:
            event["column"] = pick["column"]
        game = game.play(event)
    return game


def _independent_total(variant, sheet_dict):
    total = 0
    for weight, column in zip(WEIGHTS[variant], sheet_dict["columns"]):
        boxes = column["boxes"]
        upper = sum(boxes[b.value] or 0 for b in UPPER)
        lower = sum(boxes[b.value] or 0 for b in BOXES if b not in UPPER)
        bonus = 35 if upper >= THRESHOLD[variant] else 0
        assert (column["upper"], column["bonus"], column["lower"]) == (upper, bonus, lower)
        total += weight * (upper + bonus + lower)
    return total + sheet_dict["extra_bonus"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHEET_VARIANTS).flatmap(lambda v: sheet_game(v).map(lambda g: (v, g))))
def test_total_is_boxes_plus_bonuses(case):
    variant, game = case
    state = game.state()
    for player, sheet in state["sheet"].items():
        assert sheet["total"] == _independent_total(variant, sheet) == state["totals"][player]
        assert sheet["extra_bonus"] % 100 == 0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHEET_VARIANTS).flatmap(sheet_game), st.randoms(use_true_random=False))
def test_options_ignore_dice_order(game, rnd):
    if game.finished:
        return
    dice = [rnd.randint(1, 6) for _ in range(5)]
    shuffled = dice[:]
    rnd.shuffle(shuffled)
    assert game.options(shuffled) == game.options(dice)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHEET_VARIANTS).flatmap(sheet_game))
def test_sheet_game_export_and_replay_gives_the_same_sheets(game):
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.state() == game.state()
    if game.events:
        assert game.undo().state() == Game.from_dict(
            {**game.to_dict(), "events": game.to_dict()["events"][:-1]}).state()


@st.composite
def push_game(draw):
    game = Game.new("wuerfelpoker", ["Anna", "Ben", "Cleo"][: draw(st.integers(2, 3))],
                    {"target": draw(st.sampled_from([500, 2000, 10000])),
                     "finish_round": draw(st.booleans())})
    for _ in range(draw(st.integers(0, 30))):
        if game.finished:
            break
        player = game.current_player
        ts = game.turn_state
        assert ts is not None
        if ts.turn_total and draw(st.booleans()):
            game = game.play({"player": player, "bank": True})
            continue
        throw = draw(st.lists(die, min_size=ts.dice_left, max_size=ts.dice_left))
        options = game.options(throw)
        event = {"player": player, "throw": throw}
        if options:
            event["keep"] = options[draw(st.integers(0, len(options) - 1))]["keep"]
        game = game.play(event)
    return game


@settings(max_examples=60, deadline=None)
@given(push_game())
def test_push_game_scores_and_replay(game):
    state = game.state()
    for player, sheet in state["sheet"].items():
        assert sheet["score"] == sum(sheet["turns"]) == state["totals"][player]
    if state["finished"]:
        best = max(state["totals"].values())
        leaders = [p for p, t in state["totals"].items() if t == best]
        assert state["winner"] in (leaders[0], leaders) and best >= game.settings["target"]
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.state() == state


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHEET_VARIANTS).flatmap(sheet_game), five,
       st.sampled_from([b.value for b in BOXES]), st.sampled_from([None, 1, 2, 3, 4]),
       st.sampled_from(["Anna", "Ben", "Carl"]))
def test_any_event_is_either_accepted_or_changes_nothing(game, dice, box, column, player):
    before = json.dumps(game.state())
    event = {"player": player, "dice": dice, "box": box}
    if column is not None:
        event["column"] = column
    try:
        after = game.play(event)
    except RuleError:
        assert json.dumps(game.state()) == before
    else:
        assert len(after.events) == len(game.events) + 1
        assert json.dumps(game.state()) == before
