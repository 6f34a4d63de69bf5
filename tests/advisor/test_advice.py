"""advise(): ranked options, consistent with the tables and with yatzy-solver."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.cli import main
from dicecam.scoring import Game
from dicecam.scoring.advisor.advice import Action, Advice, AdviceError, advise, keep_positions, review


def _kniffel_after_one_turn():
    return Game.new("kniffel", ["Anna", "Ben"]).play(
        {"player": "Anna", "dice": [1, 1, 1, 2, 3], "box": "ones"})


def _best(advice: Advice) -> Action:
    """The advice's best action (every advice here has one)."""
    assert advice.best is not None
    return advice.best


def test_box_stage_is_ranked_with_losses(table):
    a = advise(Game.new("yahtzee", ["Anna"]), [3, 3, 5, 6, 6], 3)
    assert a.stage == "box" and a.exact and a.player == "Anna"
    exp = [x.expected for x in a.actions]
    assert exp == sorted(exp, reverse=True)
    assert _best(a).loss == 0
    assert all(x.loss == pytest.approx(_best(a).expected - x.expected) for x in a.actions)
    assert len(a.actions) == 13


def test_keeping_all_five_after_throw_two_equals_the_best_box(table):
    g = _kniffel_after_one_turn()
    dice = [2, 2, 2, 5, 6]
    keep = {x.keep: x.expected for x in advise(g, dice, 2).actions}
    assert keep[(2, 2, 2, 5, 6)] == pytest.approx(_best(advise(g, dice, 3)).expected, abs=1e-4)
    assert len(keep) == 4 * 2 * 2  # (0-3 twos) x (0-1 five) x (0-1 six)


def test_throw_one_is_worth_at_least_throw_two(table):
    g = _kniffel_after_one_turn()
    one = _best(advise(g, [1, 3, 4, 5, 6], 1)).expected
    two = _best(advise(g, [1, 3, 4, 5, 6], 2)).expected
    assert one >= two - 1e-9


def test_start_of_game_averages_to_the_expected_score(table):
    """The first-throw values averaged over all throws give the table's value."""
    from dicecam.scoring.advisor.dice_space import THROW_FACES, THROW_PROBS

    g = Game.new("yahtzee", ["Anna"])
    full = sum(p * _best(advise(g, [int(d) for d in dice], 1)).expected
               for dice, p in zip(THROW_FACES, THROW_PROBS))
    assert full == pytest.approx(table("yahtzee").expected_score, abs=1e-3)


@pytest.mark.slow  # yatzy-solver builds its own Yahtzee table first (about 20 s)
@pytest.mark.parametrize("throw, rolls_left", [(2, 1), (3, 0)])
def test_values_equal_yatzy_solver(table, throw, rolls_left):
    """The Rust exact solver (dev dependency) agrees on every option of a situation."""
    ys = pytest.importorskip("yatzy_solver")
    solver = _rust_solver(ys)
    theirs = dict(solver.option_values(f"dice 1 3 3 5 6 | rolls {rolls_left} | upper 0 | filled -"))
    actions = advise(Game.new("yahtzee", ["Anna"]), [1, 3, 3, 5, 6], throw).actions
    compared = 0
    for a in actions:
        if a.box:
            name = "score " + a.box.replace("_kind", "_of_a_kind")
        else:
            name = "keep " + (" ".join(map(str, a.keep or ())) or "-")
        if name in theirs:  # theirs has no "keep all five": that is scoring now
            assert a.expected == pytest.approx(theirs[name], abs=1e-3), name
            compared += 1
    assert compared == len(actions) - (throw < 3)


_RUST: dict[str, object] = {}


def _rust_solver(ys):
    if "s" not in _RUST:
        _RUST["s"] = ys.Solver.build(ys.Variant("american+forced-joker"))
    return _RUST["s"]


@pytest.mark.slow  # builds Würfelspiel's pass tables (about two minutes)
def test_wuerfelspiel_advice_is_marked_as_policy(table):
    a = advise(Game.new("wuerfelspiel", ["Anna"]), [6, 6, 6, 6, 2], 3)
    assert not a.exact
    assert {x.column for x in a.actions} == {1, 2, 3}
    assert _best(a).box in ("sixes", "four_kind") and _best(a).column == 3


def test_wuerfelpoker_ranks_set_asides_and_banking():
    g = Game.new("wuerfelpoker", ["A", "B"])
    a = advise(g, [1, 1, 5, 5, 3, 6])
    assert a.stage == "push"
    # Setting aside one 1 and throwing five dice on is the best start.
    assert (_best(a).keep, _best(a).bank) == ((1,), False)
    assert advise(g, [2, 3, 4, 6, 6, 2]).actions == ()  # a bust


def test_wuerfelpoker_actions_say_what_their_set_aside_scores():
    actions = advise(Game.new("wuerfelpoker", ["A", "B"]), [1, 1, 5, 5, 3, 6]).to_dict()["actions"]
    assert actions and all(set(a) >= {"keep", "positions", "points", "bank"} for a in actions)
    # The scoring rules' own points for each set-aside: a 1 is 100, a 5 is 50.
    assert {tuple(a["keep"]): a["points"] for a in actions}[(1, 1, 5, 5)] == 300


@pytest.mark.parametrize("dice, throw, code", [
    ([1, 2, 3, 4], 3, "dice_count"),
    ([1, 2, 3, 4, 7], 3, "dice_values"),
    ([1, 2, 3, 4, 5], 4, "throw"),
])
def test_bad_input_is_refused(dice, throw, code):
    with pytest.raises(AdviceError) as e:
        advise(Game.new("yahtzee", ["Anna"]), dice, throw)
    assert e.value.code == code


def test_keep_positions_point_at_the_dice_as_given():
    assert keep_positions([6, 3, 6, 1, 3], (3, 6)) == (0, 1)
    assert keep_positions([6, 3, 6, 1, 3], (6, 6)) == (0, 2)


def test_review_finds_the_costly_choice(table):
    g = Game.new("yahtzee", ["Anna"])
    g = g.play({"player": "Anna", "dice": [6, 6, 6, 6, 6], "box": "chance"})  # 50 missed
    g = g.play({"player": "Anna", "dice": [1, 2, 3, 4, 5], "box": "large_straight"})
    worst = review(g)["Anna"]
    assert worst[0].turn == 1 and worst[0].best.box == "five_kind"
    assert worst[0].chosen.loss > 30
    assert worst[1].chosen.loss == pytest.approx(0, abs=1e-6)


def test_cli_advise_json(tmp_path, capsys, table):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_kniffel_after_one_turn().to_dict()))
    assert main(["advise", str(path), "--dice", "3", "3", "5", "6", "6", "--throw", "2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["stage"] == "keep" and out["player"] == "Ben"
    assert out["best"] == out["actions"][0]


def test_cli_errors_are_one_line(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    assert main(["advise", str(path), "--dice", "1", "2", "3", "4", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "dicecam advise" in err
    assert main(["solve", "nonsense"]) == 2


def test_cli_solve_json(capsys, table):
    assert main(["solve", "kniffel", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "spiffel"
    assert out["expected_score"] == pytest.approx(table("spiffel").expected_score)
    assert main(["solve", "zehntausend", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["expected_turn_score"] > 500


_dice = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@settings(max_examples=25, deadline=None)
@given(history=st.lists(_dice, max_size=12), dice=_dice,
       variant=st.sampled_from(["yahtzee", "spiffel", "wuerfelware"]))
def test_advice_invariants_on_random_sheets(table, history, dice, variant):
    """For any sheet reached by legal play: losses are non-negative and ranked, and
    keeping all five dice after throw 2 is worth exactly the best box for them."""
    players = ["Anna"] if variant != "wuerfelware" else ["Anna", "Ben"]
    game = Game.new(variant, players)
    for d in history:  # each player writes the throw into its best legal box
        game = game.play({"player": game.current_player, "dice": d,
                          "box": game.choices(d)[0].box.value})
    boxes = advise(game, dice, 3)
    keeps = advise(game, dice, 2)
    for a in (boxes, keeps):
        losses = [x.loss for x in a.actions]
        assert losses[0] == 0 and all(x >= 0 for x in losses) and losses == sorted(losses)
    keep_all = next(x for x in keeps.actions if sorted(x.keep or ()) == sorted(dice))
    assert keep_all.expected == pytest.approx(_best(boxes).expected, abs=1e-3)
    assert {x.box for x in boxes.actions} == {c.box.value for c in game.choices(dice)}
