"""`Variant.display`: the facts a page draws a sheet from, checked against RULES.md."""

import json

import pytest

from dicecam.scoring import all_variants, get_variant
from dicecam.scoring.display import Display

# Independent of the code: RULES.md per game (threshold, columns' weights, extra bonus).
RULES = {
    "spiffel": {"threshold": 63, "weights": [1], "extra": ("Spiffel", True, "free")},
    "wuerfelware": {"threshold": 65, "weights": [1], "extra": ("ERP", False, "none")},
    "wuerfelspiel": {"threshold": 63, "weights": [1, 2, 3], "extra": None},
    "yahtzee": {"threshold": 63, "weights": [1], "extra": ("Yahtzee", False, "forced")},
}
UPPER_IDS = ["ones", "twos", "threes", "fours", "fives", "sixes"]
LOWER_IDS = ["three_kind", "four_kind", "full_house", "small_straight", "large_straight",
             "five_kind", "chance"]


@pytest.mark.parametrize("v", all_variants(), ids=lambda v: v.id)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_display_is_json_ready_and_frozen(v, lang):
    display = v.display(lang)
    assert isinstance(display, Display)
    d = display.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["variant"] == v.id and d["lang"] == lang and d["name"] == v.name(lang)
    with pytest.raises(AttributeError):
        display.family = "x"  # type: ignore[misc]


@pytest.mark.parametrize(("vid", "facts"), RULES.items())
def test_sheet_display(vid, facts):
    d = get_variant(vid).display("de").to_dict()
    assert d["family"] == "sheet" and d["dice_per_throw"] == 5 and d["throws_per_turn"] == 3
    assert d["turns_per_player"] == 13 * len(facts["weights"])
    assert [c["weight"] for c in d["columns"]] == facts["weights"]
    assert [c["label"] for c in d["columns"]] == [f"×{w}" for w in facts["weights"]]
    assert [b["box"] for b in d["boxes"]] == UPPER_IDS + LOWER_IDS
    assert [b["section"] for b in d["boxes"]] == ["upper"] * 6 + ["lower"] * 7
    assert [b["label"] for b in d["boxes"]] == [get_variant(vid).label(b) for b in UPPER_IDS + LOWER_IDS]
    assert d["upper_bonus"]["threshold"] == facts["threshold"]
    assert d["upper_bonus"]["points"] == 35
    assert d["upper_bonus"]["label"] == "Bonus (+35)"
    assert str(facts["threshold"]) in d["upper_bonus"]["rule"]
    assert d["push"] is None


@pytest.mark.parametrize(("vid", "facts"), RULES.items())
def test_extra_bonus_names_the_five_of_a_kind_box_and_why(vid, facts):
    for lang in ("de", "en"):
        extra = get_variant(vid).display(lang).to_dict()["extra_bonus"]
        if facts["extra"] is None:
            assert extra is None
            continue
        box_label, once, joker = facts["extra"]
        assert (extra["box"], extra["points"]) == ("five_kind", 100)
        assert extra["box_label"] == get_variant(vid).label("five_kind", lang)
        assert (extra["once"], extra["joker"]) == (once, joker)
        assert extra["label"] == (f"{box_label}-Bonus" if lang == "de" else f"{box_label} bonus")
        assert box_label in extra["rule"]
        assert "100" in extra["rule"]


def test_only_spiffel_writes_a_scratch_as_xxx():
    marks = {v.id: v.display().scratch_mark for v in all_variants()}
    assert marks == {"spiffel": "XXX", "wuerfelware": None, "wuerfelspiel": None,
                     "yahtzee": None, "wuerfelpoker": None}


def test_push_display():
    d = get_variant("zehntausend").display("en").to_dict()
    assert d["family"] == "push" and d["dice_per_throw"] == 6
    assert d["throws_per_turn"] is None and d["turns_per_player"] is None
    assert d["columns"] == [] and d["boxes"] == [] and d["upper_bonus"] is None
    assert d["extra_bonus"] is None and d["min_players"] == 2 and d["max_players"] == 12
    push = d["push"]
    assert (push["target"], push["finish_round"]) == (10000, False)
    assert "10,000" in push["goal"]
    card = {c["id"]: c["points"] for c in push["combinations"]}
    assert card["single_1"] == "100" and card["single_5"] == "50"
    assert card["three_ones"] == "1,000" and card["straight"] == "1,000"
    assert card["six_ones"] == "10,000"
    german = get_variant("zehntausend").display("de").to_dict()["push"]
    assert "10.000" in german["goal"]
    assert {c["id"]: c["points"] for c in german["combinations"]}["six_ones"] == "10.000"


def test_push_display_with_a_game_s_options():
    from dicecam.scoring import Game

    game = Game.new("wuerfelpoker", ["Anna", "Ben"], {"target": 5000, "finish_round": True})
    push = game.display("de").to_dict()["push"]
    assert (push["target"], push["finish_round"]) == (5000, True)
    assert "5.000" in push["goal"] and "Runde" in push["goal"]
    # The rules' sentence says the game's own target too, not the default one.
    summary = game.display("de").to_dict()["summary"]
    assert "wer zuerst 5.000 Punkte hat" in summary and "10.000 Punkte" not in summary
    assert "first to 5,000 points" in game.display("en").to_dict()["summary"]


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language"):
        get_variant("spiffel").display("fr")


@pytest.mark.parametrize(("alias", "lang", "words"), [
    ("kniffel", "en", "kniffel: an alias of Spiffel; the five-of-a-kind box is called Spiffel"),
    ("Kniffel", "de", "Feld für fünf Gleiche heißt in diesem Spiel Spiffel"),
    ("zehntausend", "en", "an alias of Würfelpoker"),
])
def test_aliases_explain_themselves(alias, lang, words):
    assert words in (get_variant(alias).alias_note(alias, lang) or "")


def test_an_id_needs_no_alias_note():
    assert get_variant("spiffel").alias_note("spiffel") is None
