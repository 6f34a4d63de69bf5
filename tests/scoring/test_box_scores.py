"""Every box of the Kniffel family, scored by the plain rules (RULES.md, "Box ids")."""

import pytest

from dicecam.scoring import BOXES, Box, SheetVariant, get_variant, score_all, score_box

CASES = [
    # upper boxes: face x number of dice showing it
    ([1, 1, 1, 2, 3], "ones", 3),
    ([1, 1, 1, 2, 3], "twos", 2),
    ([1, 1, 1, 2, 3], "threes", 3),
    ([1, 1, 1, 2, 3], "fours", 0),
    ([4, 4, 1, 4, 2], "fours", 12),
    ([5, 2, 5, 4, 5], "fives", 15),
    ([6, 6, 6, 6, 6], "sixes", 30),
    ([6, 6, 6, 6, 6], "ones", 0),
    # three of a kind: sum of all dice if at least three match
    ([2, 2, 2, 4, 5], "three_kind", 15),
    ([2, 2, 3, 4, 5], "three_kind", 0),
    ([6, 6, 6, 6, 1], "three_kind", 25),
    ([3, 3, 3, 3, 3], "three_kind", 15),
    # four of a kind
    ([4, 4, 4, 4, 2], "four_kind", 18),
    ([4, 4, 4, 2, 2], "four_kind", 0),
    ([5, 5, 5, 5, 5], "four_kind", 25),
    # full house: exactly three and two; five of a kind is not one
    ([3, 3, 3, 5, 5], "full_house", 25),
    ([2, 5, 2, 5, 5], "full_house", 25),
    ([4, 4, 4, 4, 4], "full_house", 0),
    ([1, 1, 2, 2, 3], "full_house", 0),
    ([6, 6, 6, 6, 1], "full_house", 0),
    # small straight: 1234, 2345 or 3456 among the dice
    ([1, 2, 3, 4, 6], "small_straight", 30),
    ([2, 3, 4, 5, 5], "small_straight", 30),
    ([3, 4, 5, 6, 1], "small_straight", 30),
    ([6, 5, 4, 3, 3], "small_straight", 30),
    ([1, 2, 3, 4, 5], "small_straight", 30),
    ([1, 2, 3, 5, 6], "small_straight", 0),
    ([1, 2, 4, 5, 6], "small_straight", 0),
    # large straight: 12345 or 23456
    ([1, 2, 3, 4, 5], "large_straight", 40),
    ([6, 5, 4, 3, 2], "large_straight", 40),
    ([1, 2, 3, 4, 6], "large_straight", 0),
    ([1, 3, 4, 5, 6], "large_straight", 0),
    # five of a kind
    ([2, 2, 2, 2, 2], "five_kind", 50),
    ([2, 2, 2, 2, 3], "five_kind", 0),
    # chance: sum of all dice
    ([1, 2, 3, 4, 6], "chance", 16),
    ([6, 6, 6, 6, 6], "chance", 30),
]


@pytest.mark.parametrize(("dice", "box", "points"), CASES)
def test_box_score(dice, box, points):
    assert score_box(box, dice) == points


def test_every_box_has_cases():
    assert {box for _, box, _ in CASES} == {b.value for b in BOXES}


def test_whole_sheet_of_one_throw():
    assert score_all([3, 3, 3, 5, 5]) == {
        "ones": 0, "twos": 0, "threes": 9, "fours": 0, "fives": 10, "sixes": 0,
        "three_kind": 19, "four_kind": 0, "full_house": 25, "small_straight": 0,
        "large_straight": 0, "five_kind": 0, "chance": 19,
    }


@pytest.mark.parametrize("variant", ["spiffel", "wuerfelware", "wuerfelspiel", "yahtzee"])
def test_plain_scores_are_the_same_in_every_sheet_variant(variant):
    # The variants differ in bonuses, jokers and labels, not in what a box is worth.
    sheet_variant = get_variant(variant)
    assert isinstance(sheet_variant, SheetVariant)
    assert sheet_variant.plain_scores([2, 3, 4, 5, 5]) == {
        Box.ONES: 0, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 10, Box.SIXES: 0,
        Box.THREE_KIND: 0, Box.FOUR_KIND: 0, Box.FULL_HOUSE: 0, Box.SMALL_STRAIGHT: 30,
        Box.LARGE_STRAIGHT: 0, Box.FIVE_KIND: 0, Box.CHANCE: 19,
    }


def test_unknown_box_is_refused():
    with pytest.raises(ValueError):
        score_box("sevens", [1, 2, 3, 4, 5])
