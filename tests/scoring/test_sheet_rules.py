"""Kniffel-family rules: bonuses, jokers, extra bonuses, scratching, columns, game end."""

import pytest
from helpers_scoring import fill, fill_for, upper_dice

from dicecam.scoring import Game, RuleError

# (ones, twos, threes, fours, fives, sixes) as dice counts, and the upper sum they make
UPPER_62 = (2, 3, 3, 3, 3, 3)   # 2 + 6 + 9 + 12 + 15 + 18
UPPER_63 = (3, 3, 3, 3, 3, 3)   # 3 + 6 + 9 + 12 + 15 + 18
UPPER_64 = (1, 2, 3, 3, 4, 3)   # 1 + 4 + 9 + 12 + 20 + 18
UPPER_65 = (2, 2, 3, 3, 4, 3)   # 2 + 4 + 9 + 12 + 20 + 18
UPPER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")


def _upper(game, player, counts):
    fills = [(upper_dice(face, n), box) for face, n, box in zip(range(1, 7), counts, UPPER_BOXES)]
    return fill_for(game, player, fills)


@pytest.mark.parametrize(("variant", "counts", "upper", "bonus"), [
    ("spiffel", UPPER_62, 62, 0),
    ("spiffel", UPPER_63, 63, 35),
    ("yahtzee", UPPER_62, 62, 0),
    ("yahtzee", UPPER_63, 63, 35),
    ("wuerfelware", UPPER_63, 63, 0),
    ("wuerfelware", UPPER_64, 64, 0),
    ("wuerfelware", UPPER_65, 65, 35),
    ("wuerfelspiel", UPPER_62, 62, 0),
    ("wuerfelspiel", UPPER_63, 63, 35),
])
def test_upper_bonus_threshold(variant, counts, upper, bonus):
    game = Game.new(variant, ["Anna", "Ben"])
    if variant == "wuerfelspiel":
        for face, n, box in zip(range(1, 7), counts, UPPER_BOXES):
            game = fill(game, upper_dice(face, n), box, column=2)
            game = fill(game, [1, 2, 3, 4, 6], "chance" if face == 1 else UPPER_BOXES[face - 2], 1)
        column = 2
    else:
        game = _upper(game, "Anna", counts)
        column = 1
    sheet = game.sheet_of("Anna")
    assert sheet.upper_subtotal(column) == upper
    assert sheet.upper_bonus(column) == bonus
    weight = column if variant == "wuerfelspiel" else 1
    assert sheet.total == weight * (upper + bonus)


def test_bonus_counts_when_reached_before_the_sheet_is_full():
    game = _upper(Game.new("spiffel", ["Anna"]), "Anna", UPPER_63)
    assert game.state()["sheet"]["Anna"]["columns"][0]["bonus"] == 35
    assert game.totals["Anna"] == 98


# -- Spiffel: once-only free joker --------------------------------------------------

def _spiffel_with_five_kind(points):
    dice = [2, 2, 2, 2, 2] if points == 50 else [1, 2, 3, 4, 6]
    return fill(Game.new("spiffel", ["Anna"]), dice, "five_kind")


def test_spiffel_second_five_of_a_kind_is_a_free_joker():
    game = _spiffel_with_five_kind(50)
    options = {o["box"]: o["points"] for o in game.options([4, 4, 4, 4, 4])}
    assert options == {
        "ones": 0, "twos": 0, "threes": 0, "fours": 20, "fives": 0, "sixes": 0,
        "three_kind": 20, "four_kind": 20, "full_house": 25, "small_straight": 30,
        "large_straight": 40, "chance": 20,
    }
    assert all(o["joker"] for o in game.options([4, 4, 4, 4, 4]))


@pytest.mark.parametrize(("box", "points"), [
    ("large_straight", 40), ("full_house", 25), ("small_straight", 30), ("fours", 20),
    ("chance", 20), ("ones", 0),
])
def test_spiffel_joker_scores_and_earns_100(box, points):
    game = fill(_spiffel_with_five_kind(50), [4, 4, 4, 4, 4], box)
    sheet = game.sheet_of("Anna")
    assert sheet.box(box) == points
    assert sheet.extra_bonus == 100 and sheet.extra_bonus_earned
    assert sheet.total == 50 + points + 100


def test_spiffel_third_five_of_a_kind_scores_by_the_normal_rules():
    game = fill(_spiffel_with_five_kind(50), [4, 4, 4, 4, 4], "chance")
    options = {o["box"]: o for o in game.options([3, 3, 3, 3, 3])}
    assert options["full_house"]["points"] == 0
    assert options["large_straight"]["points"] == 0
    assert not options["threes"]["joker"]
    game = fill(game, [3, 3, 3, 3, 3], "threes")
    assert game.sheet_of("Anna").extra_bonus == 100


def test_spiffel_scratched_five_kind_gives_neither_bonus_nor_joker():
    game = _spiffel_with_five_kind(0)
    assert game.sheet_of("Anna").box("five_kind") == 0
    options = {o["box"]: o for o in game.options([4, 4, 4, 4, 4])}
    assert options["full_house"]["points"] == 0 and not options["full_house"]["joker"]
    game = fill(game, [4, 4, 4, 4, 4], "fours")
    assert game.sheet_of("Anna").extra_bonus == 0


def test_spiffel_first_five_of_a_kind_is_no_joker():
    game = Game.new("spiffel", ["Anna"])
    options = {o["box"]: o for o in game.options([6, 6, 6, 6, 6])}
    assert options["five_kind"]["points"] == 50
    assert options["full_house"]["points"] == 0
    assert options["five_kind"]["gain"] == 50
    assert game.options([6, 6, 6, 6, 6])[0]["box"] == "five_kind"


# -- WÜRFELWARE: +100 for every further ERP, no joker ---------------------------------

def test_wuerfelware_every_further_erp_earns_100_without_joker():
    game = fill_for(Game.new("wuerfelware", ["Anna", "Ben"]), "Anna", [
        ([5, 5, 5, 5, 5], "five_kind"), ([2, 2, 2, 2, 2], "full_house"), ([3, 3, 3, 3, 3], "threes"),
    ])
    sheet = game.sheet_of("Anna")
    assert sheet.box("full_house") == 0          # no joker
    assert sheet.box("threes") == 15
    assert sheet.extra_bonus == 200
    assert sheet.total == 50 + 0 + 15 + 200


def test_wuerfelware_no_extra_bonus_after_a_scratched_erp():
    game = fill_for(Game.new("wuerfelware", ["Anna", "Ben"]), "Anna", [
        ([1, 2, 3, 4, 6], "five_kind"), ([2, 2, 2, 2, 2], "twos"),
    ])
    assert game.sheet_of("Anna").extra_bonus == 0


def test_wuerfelware_needs_two_players():
    with pytest.raises(RuleError, match="at least 2 players"):
        Game.new("wuerfelware", ["Anna"])


# -- Yahtzee: forced joker -------------------------------------------------------------

def _yahtzee(five_kind_points, more=()):
    dice = [2, 2, 2, 2, 2] if five_kind_points == 50 else [1, 2, 3, 4, 6]
    return fill_for(Game.new("yahtzee", ["Anna"]), "Anna", [(dice, "five_kind"), *more])


def test_yahtzee_joker_must_go_into_the_matching_upper_box_when_open():
    game = _yahtzee(50)
    assert game.options([4, 4, 4, 4, 4]) == [
        {"box": "fours", "column": None, "points": 20, "joker": True, "gain": 120}]
    with pytest.raises(RuleError, match="must go into Fours"):
        fill(game, [4, 4, 4, 4, 4], "large_straight")
    game = fill(game, [4, 4, 4, 4, 4], "fours")
    assert game.sheet_of("Anna").extra_bonus == 100


def test_yahtzee_joker_goes_into_an_open_lower_box_at_full_value():
    game = _yahtzee(50, [([4, 4, 1, 2, 3], "fours"), ([1, 1, 2, 2, 3], "full_house")])
    options = {o["box"]: o["points"] for o in game.options([4, 4, 4, 4, 4])}
    assert options == {"three_kind": 20, "four_kind": 20, "small_straight": 30,
                       "large_straight": 40, "chance": 20}
    with pytest.raises(RuleError, match="lower section"):
        fill(game, [4, 4, 4, 4, 4], "sixes")
    game = fill(game, [4, 4, 4, 4, 4], "large_straight")
    sheet = game.sheet_of("Anna")
    assert sheet.box("large_straight") == 40 and sheet.extra_bonus == 100


def test_yahtzee_joker_goes_into_an_upper_box_for_zero_when_the_lower_section_is_full():
    lower = [([1, 2, 3, 4, 6], box) for box in
             ("three_kind", "four_kind", "full_house", "small_straight", "large_straight", "chance")]
    game = _yahtzee(50, [([4, 4, 1, 2, 3], "fours"), *lower])
    options = {o["box"]: o["points"] for o in game.options([4, 4, 4, 4, 4])}
    assert options == {"ones": 0, "twos": 0, "threes": 0, "fives": 0, "sixes": 0}
    game = fill(game, [4, 4, 4, 4, 4], "sixes")
    assert game.sheet_of("Anna").box("sixes") == 0


def test_yahtzee_scratched_box_still_forces_the_joker_but_earns_nothing():
    game = _yahtzee(0)
    assert [o["box"] for o in game.options([6, 6, 6, 6, 6])] == ["sixes"]
    game = fill(game, [6, 6, 6, 6, 6], "sixes")
    assert game.sheet_of("Anna").extra_bonus == 0


def test_yahtzee_every_further_yahtzee_earns_100():
    game = _yahtzee(50, [([3, 3, 3, 3, 3], "threes"), ([5, 5, 5, 5, 5], "fives")])
    assert game.sheet_of("Anna").extra_bonus == 200


def test_yahtzee_first_yahtzee_is_no_joker():
    options = {o["box"]: o for o in Game.new("yahtzee", ["Anna"]).options([4, 4, 4, 4, 4])}
    assert len(options) == 13
    assert options["full_house"]["points"] == 0 and not options["full_house"]["joker"]


# -- scratching ------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["spiffel", "yahtzee", "wuerfelware"])
@pytest.mark.parametrize("box", ["large_straight", "five_kind", "sixes", "full_house"])
def test_any_open_box_may_be_scratched(variant, box):
    game = fill(Game.new(variant, ["Anna", "Ben"]), [1, 1, 2, 3, 3], box)
    sheet = game.sheet_of("Anna")
    assert sheet.box(box) == 0
    assert not sheet.is_open(box)
    assert box not in sheet.open_boxes()


# -- Würfelspiel: three weighted columns -------------------------------------------------

def test_wuerfelspiel_columns_are_weighted_1_2_3():
    game = Game.new("wuerfelspiel", ["Anna"])
    game = fill(game, [6, 6, 6, 6, 5], "chance", 1)
    game = fill(game, [6, 6, 6, 6, 5], "chance", 2)
    game = fill(game, [6, 6, 6, 6, 5], "chance", 3)
    sheet = game.sheet_of("Anna")
    assert [sheet.column_total(c) for c in (1, 2, 3)] == [29, 29, 29]
    assert sheet.total == 29 + 58 + 87


def test_wuerfelspiel_a_box_is_open_in_each_column_separately():
    game = fill(Game.new("wuerfelspiel", ["Anna"]), [1, 2, 3, 4, 5], "large_straight", 3)
    sheet = game.sheet_of("Anna")
    assert sheet.is_open("large_straight", 1) and sheet.is_open("large_straight", 2)
    assert sheet.box("large_straight", 3) == 40
    assert len(sheet.open_cells()) == 38


def test_wuerfelspiel_options_cover_every_column_best_first():
    options = Game.new("wuerfelspiel", ["Anna"]).options([1, 2, 3, 4, 5])
    assert len(options) == 39
    assert options[0] == {"box": "large_straight", "column": 3, "points": 40, "joker": False,
                          "gain": 120}
    assert {o["column"] for o in options} == {1, 2, 3}


def test_wuerfelspiel_has_no_joker_and_no_extra_bonus():
    game = fill(Game.new("wuerfelspiel", ["Anna"]), [3, 3, 3, 3, 3], "five_kind", 1)
    game = fill(game, [4, 4, 4, 4, 4], "full_house", 1)
    sheet = game.sheet_of("Anna")
    assert sheet.box("full_house", 1) == 0 and sheet.extra_bonus == 0


def test_wuerfelspiel_column_bonus_is_per_column():
    game = Game.new("wuerfelspiel", ["Anna"])
    for face, n, box in zip(range(1, 7), UPPER_63, UPPER_BOXES):
        game = fill(game, upper_dice(face, n), box, 3)
    sheet = game.sheet_of("Anna")
    assert (sheet.upper_bonus(1), sheet.upper_bonus(2), sheet.upper_bonus(3)) == (0, 0, 35)
    assert sheet.total == 3 * (63 + 35)


# -- turns, game end, winner -----------------------------------------------------------

def test_players_take_turns_in_seating_order():
    game = Game.new("spiffel", ["Anna", "Ben", "Cleo"])
    seen = []
    for _ in range(7):
        player = str(game.current_player)
        seen.append((player, game.turn))
        game = fill(game, [1, 2, 3, 4, 6], game.sheet_of(player).open_boxes()[0])
    assert seen == [("Anna", 1), ("Ben", 1), ("Cleo", 1), ("Anna", 2), ("Ben", 2),
                    ("Cleo", 2), ("Anna", 3)]


def _play_out(game, dice_for):
    while not game.finished:
        player = game.current_player
        box = game.sheet_of(player).open_boxes()[0]
        game = fill(game, dice_for[player], box)
    return game


def test_game_ends_when_every_box_is_filled_and_the_highest_total_wins():
    game = _play_out(Game.new("spiffel", ["Anna", "Ben"]),
                     {"Anna": [6, 6, 6, 6, 6], "Ben": [1, 2, 3, 4, 5]})
    assert len(game.events) == 26
    state = game.state()
    assert state["finished"] and state["current_player"] is None and state["turn"] == 13
    # Anna: sixes 30, three/four kind 30 each, five_kind 50, chance 30; then the second
    # Spiffel bonus once (100); no upper bonus (30 < 63).
    assert state["totals"] == {"Anna": 30 + 30 + 30 + 50 + 30 + 100, "Ben": 1 + 2 + 3 + 4 + 5 + 30 + 40 + 15}
    assert state["winner"] == "Anna"


def test_tie_gives_the_list_of_leaders():
    game = _play_out(Game.new("yahtzee", ["Anna", "Ben", "Cleo"]),
                     {"Anna": [1, 2, 3, 4, 5], "Ben": [5, 4, 3, 2, 1], "Cleo": [1, 1, 2, 2, 3]})
    assert game.winner == ["Anna", "Ben"]


def test_single_player_game_has_a_winner():
    game = _play_out(Game.new("spiffel", ["Anna"]), {"Anna": [1, 2, 3, 4, 6]})
    assert game.winner == "Anna" and game.finished


def test_options_refused_once_the_game_is_over():
    game = _play_out(Game.new("spiffel", ["Anna"]), {"Anna": [1, 2, 3, 4, 6]})
    with pytest.raises(RuleError, match="over"):
        game.options([1, 2, 3, 4, 5])


def test_column_null_is_accepted_in_one_column_games():
    # options() reports "column": null for these games; sending it back must work.
    game = Game.new("spiffel", ["Anna"]).play(
        {"player": "Anna", "dice": [2, 2, 3, 3, 3], "box": "full_house", "column": None})
    assert game.sheet_of("Anna").box("full_house") == 25
    assert "column" not in game.to_dict()["events"][0]


def test_events_use_the_options_of_the_same_throw():
    # Every option offered for a throw is accepted as an event and scores what it said.
    game = fill(Game.new("wuerfelspiel", ["Anna"]), [2, 2, 2, 2, 2], "five_kind", 2)
    for option in game.options([3, 3, 3, 4, 4]):
        after = fill(game, [3, 3, 3, 4, 4], option["box"], option["column"])
        sheet = after.sheet_of("Anna")
        assert sheet.box(option["box"], option["column"]) == option["points"]
        assert after.totals["Anna"] - game.totals["Anna"] == option["gain"]
