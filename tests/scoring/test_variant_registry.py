"""The variants registry: ids, aliases, attributes, labels, options."""

import pytest

from dicecam.scoring import BOXES, UnknownVariant, all_variants, get_variant


@pytest.mark.parametrize(("name", "expected"), [
    ("spiffel", "spiffel"), ("kniffel", "spiffel"), ("Kniffel", "spiffel"),
    ("wuerfelware", "wuerfelware"), ("wuerfelspiel", "wuerfelspiel"), ("yahtzee", "yahtzee"),
    ("wuerfelpoker", "wuerfelpoker"), ("zehntausend", "wuerfelpoker"), (" ZEHNTAUSEND ", "wuerfelpoker"),
])
def test_lookup_by_id_and_alias(name, expected):
    assert get_variant(name).id == expected


@pytest.mark.parametrize("name", ["", "kniffle", "poker", None, 3])
def test_unknown_variant(name):
    with pytest.raises(UnknownVariant, match="Unknown game"):
        get_variant(name)


def test_unknown_variant_is_a_value_error():
    assert issubclass(UnknownVariant, ValueError)


def test_display_order():
    assert [v.id for v in all_variants()] == [
        "spiffel", "wuerfelware", "wuerfelspiel", "yahtzee", "wuerfelpoker"]


@pytest.mark.parametrize(("vid", "family", "dice", "columns", "min_players", "nboxes", "options"), [
    ("spiffel", "sheet", 5, 1, 1, 13, {}),
    ("wuerfelware", "sheet", 5, 1, 2, 13, {}),
    ("wuerfelspiel", "sheet", 5, 3, 1, 13, {}),
    ("yahtzee", "sheet", 5, 1, 1, 13, {}),
    ("wuerfelpoker", "push", 6, 1, 2, 0, {"target": 10000, "finish_round": False}),
])
def test_attributes(vid, family, dice, columns, min_players, nboxes, options):
    v = get_variant(vid)
    assert (v.family, v.dice_count, v.columns, v.min_players, len(v.boxes), v.default_options) == (
        family, dice, columns, min_players, nboxes, options)


def test_default_options_cannot_be_changed_through_the_variant():
    get_variant("wuerfelpoker").default_options["target"] = 1
    assert get_variant("wuerfelpoker").default_options["target"] == 10000


# German labels as in RULES.md's table; Yahtzee's as on German Yahtzee blocks.
GERMAN = {
    "spiffel": ["1er", "2er", "3er", "4er", "5er", "6er", "Dreierpasch", "Viererpasch",
                "Full House", "Kleine Straße", "Große Straße", "Spiffel", "Chance"],
    "wuerfelware": ["1er", "2er", "3er", "4er", "5er", "6er", "Kasse", "ERP2X", "WEBWARE",
                    "PAN-Aufgabe", "PAN-Prozess", "ERP", "Reorg."],
    "wuerfelspiel": ["1-er", "2-er", "3-er", "4-er", "5-er", "6-er", "3 Gleiche", "4 Gleiche",
                     "Full House", "Kleine Straße", "Große Straße", "5 Gleiche", "Chance"],
    "yahtzee": ["1er", "2er", "3er", "4er", "5er", "6er", "Dreierpasch", "Viererpasch",
                "Full House", "Kleine Straße", "Große Straße", "Yahtzee", "Chance"],
}


@pytest.mark.parametrize(("vid", "box", "label"), [
    (vid, box.value, label) for vid, names in GERMAN.items() for box, label in zip(BOXES, names)
])
def test_german_labels(vid, box, label):
    assert get_variant(vid).label(box) == label
    assert get_variant(vid).label(box, "de") == label


@pytest.mark.parametrize(("vid", "box", "label"), [
    ("spiffel", "three_kind", "Three of a kind"), ("spiffel", "five_kind", "Spiffel"),
    ("yahtzee", "five_kind", "Yahtzee"), ("yahtzee", "small_straight", "Small straight"),
    ("wuerfelware", "full_house", "WEBWARE (full house)"), ("wuerfelware", "ones", "Ones"),
    ("wuerfelspiel", "five_kind", "Five of a kind"), ("wuerfelspiel", "chance", "Chance"),
])
def test_english_labels(vid, box, label):
    assert get_variant(vid).label(box, "en") == label


@pytest.mark.parametrize("vid", list(GERMAN))
def test_every_box_has_an_english_label_distinct_within_the_variant(vid):
    labels = [get_variant(vid).label(b, "en") for b in BOXES]
    assert len(set(labels)) == 13 and all(labels)


@pytest.mark.parametrize("v", all_variants(), ids=lambda v: v.id)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_names_and_one_line_summaries(v, lang):
    assert v.name(lang) and v.summary(lang)
    assert "\n" not in v.summary(lang)


@pytest.mark.parametrize("lang, written", [("en", "10,000"), ("de", "10.000")])
def test_poker_summary_names_its_target_as_the_language_writes_it(lang, written):
    summary = get_variant("zehntausend").summary(lang)
    assert written in summary and "10000" not in summary and "1000 " not in summary


def test_unknown_language():
    with pytest.raises(ValueError, match="language"):
        get_variant("spiffel").label("ones", "fr")


def test_unknown_box_label():
    with pytest.raises(ValueError, match="no box"):
        get_variant("spiffel").label("sevens")
