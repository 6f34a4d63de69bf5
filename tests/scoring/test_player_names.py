"""Player names: the text rules (issue 33.1) and the cap on players, for new and loaded games."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicecam.scoring import MAX_PLAYERS, Game, GameFileError, RuleError, check_name

NAME_CASES = [
    # (raw name, code of the refusal)
    ("\udc80Eve", "player_name_characters"),       # a lone surrogate: not valid Unicode
    ("Eve\x00", "player_name_characters"),
    ("Eve\x1b[31m", "player_name_characters"),      # a terminal escape
    ("An\nna", "player_name_characters"),
    ("An\tna", "player_name_characters"),
    ("\u202eevE", "player_name_characters"),        # right-to-left override
    ("Eve\u2066", "player_name_characters"),        # isolate
    ("Eve\u200f", "player_name_characters"),        # right-to-left mark
    ("Eve\u2028Ben", "player_name_characters"),     # line separator
    ("", "player_name"),
    ("   ", "player_name"),
    ("\u00a0", "player_name"),                      # no-break space only
    ("\u200b\u200b", "player_name"),                # zero-width spaces only: a blank row
    ("\u00ad\ufeff", "player_name"),                # soft hyphen, byte-order mark
    ("\u3164", "player_name"),                      # Hangul filler: a letter that shows nothing
    ("\u200d", "player_name"),                      # a joiner alone
    (None, "player_name"),
    (3, "player_name"),
    ("x" * 41, "player_name_too_long"),
]


@pytest.mark.parametrize(("raw", "code"), NAME_CASES)
def test_bad_names_are_refused_with_a_code(raw, code):
    with pytest.raises(RuleError) as info:
        Game.new("spiffel", ["Anna", raw])
    assert info.value.code == code
    assert str(info.value).encode("utf-8")  # the message itself is printable


@pytest.mark.parametrize(("raw", "code"), NAME_CASES)
def test_import_applies_the_same_name_rules(raw, code):
    with pytest.raises(GameFileError) as info:
        Game.from_dict({"variant": "spiffel", "players": ["Anna", raw]})
    assert info.value.code == code and info.value.event_number is None


def test_the_refused_character_is_named():
    with pytest.raises(RuleError) as info:
        check_name("Eve\u202e")
    assert info.value.params["character"] == "U+202E"
    assert "U+202E" in str(info.value)


@pytest.mark.parametrize(("raw", "clean"), [
    ("  Anna  ", "Anna"),
    ("Anna   Lena", "Anna Lena"),
    ("Jose\u0301", "Jos\u00e9"),       # NFC: e + combining acute becomes é
    ("x" * 40, "x" * 40),
    ("Zo\u00eb 👩\u200d👩\u200d👧", "Zo\u00eb 👩\u200d👩\u200d👧"),  # emoji with joiners stay
    ("\u05e9\u05e8\u05d4", "\u05e9\u05e8\u05d4"),  # right-to-left letters are letters
    ("An\u200bna\u00ad", "Anna"),  # characters that show nothing are dropped
])
def test_good_names_are_cleaned(raw, clean):
    assert check_name(raw) == clean
    assert Game.new("spiffel", [raw]).players == (clean,)


def test_names_that_differ_only_in_normal_form_are_the_same_player():
    with pytest.raises(RuleError) as info:
        Game.new("spiffel", ["Jos\u00e9", "JOSE\u0301"])
    assert info.value.code == "player_duplicate"


@pytest.mark.parametrize("twin", ["Anna\u200b", "\ufeffANNA", "An\u200dna", "Anna\u2060"])
def test_names_that_look_the_same_are_the_same_player(twin):
    with pytest.raises(RuleError) as info:
        Game.new("spiffel", ["Anna", twin])
    assert info.value.code == "player_duplicate"


def test_a_stored_game_with_two_look_alike_players_keeps_each_one_s_throws():
    from dicecam.scoring import repair_names

    old = {"variant": "spiffel", "players": ["Anna", "Anna\u200b", "\u200b"],
           "events": [{"player": "Anna", "dice": [1, 1, 1, 2, 2], "box": "ones"},
                      {"player": "Anna\u200b", "dice": [6, 6, 6, 6, 6], "box": "five_kind"}]}
    fixed = repair_names(old)
    assert fixed["players"] == ["Anna", "Anna 2", "Spieler 3"]
    game = Game.from_dict(fixed)
    assert game.totals["Anna"] == 3 and game.totals["Anna 2"] == 50


def test_events_find_their_player_in_any_normal_form():
    game = Game.new("spiffel", ["Jos\u00e9", "Ben"])
    game = game.play({"player": " Jose\u0301 ", "dice": [1, 2, 3, 4, 5], "box": "chance"})
    assert game.events[0].player == "Jos\u00e9"


def test_at_most_twelve_players():
    assert MAX_PLAYERS == 12
    Game.new("spiffel", [f"P{i}" for i in range(12)])
    with pytest.raises(RuleError) as info:
        Game.new("spiffel", [f"P{i}" for i in range(13)])
    assert info.value.code == "players_too_many" and info.value.params == {"max_players": 12}


def test_import_obeys_the_player_cap():
    with pytest.raises(GameFileError) as info:
        Game.from_dict({"variant": "wuerfelpoker", "players": [f"P{i}" for i in range(10_000)]})
    assert info.value.code == "players_too_many"


@given(st.text(max_size=60))
def test_any_text_is_either_refused_or_a_clean_name(raw):
    try:
        name = check_name(raw)
    except RuleError as exc:
        assert exc.code in {"player_name", "player_name_characters", "player_name_too_long"}
        return
    name.encode("utf-8")  # never a lone surrogate
    assert name == name.strip() and 0 < len(name) <= 40
    assert unicodedata.is_normalized("NFC", name)
    assert not any(unicodedata.category(c) in {"Cc", "Cs", "Zl", "Zp"} for c in name)
    assert not any(c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" for c in name)
    assert any(unicodedata.category(c)[0] not in "CMZ" for c in name)  # something shows
    assert not any(c in "\u200b\u00ad\ufeff\u2060\u3164" for c in name)
    assert check_name(name) == name  # cleaning twice changes nothing


# -- games kept by an earlier release -------------------------------------------------------

def test_a_stored_game_with_names_refused_now_is_repaired_to_load():
    from dicecam.scoring import repair_names

    old = {"variant": "spiffel", "players": ["\udc80Eve", "\u202eEve", "  ", "B" * 60],
           "events": [{"player": "\udc80Eve", "dice": [1, 1, 1, 2, 2], "box": "ones"},
                      {"player": "\u202eEve", "dice": [6, 6, 6, 6, 6], "box": "five_kind"}]}
    fixed = repair_names(old)
    assert fixed["players"] == ["Eve", "Eve 2", "Spieler 3", "B" * 40]
    assert [e["player"] for e in fixed["events"]] == ["Eve", "Eve 2"]
    game = Game.from_dict(fixed)  # loads now
    assert game.totals["Eve"] == 3 and game.totals["Eve 2"] == 50


@given(st.lists(st.text(min_size=0, max_size=60), min_size=1, max_size=12))
def test_any_repaired_seating_list_is_accepted(names):
    from dicecam.scoring import check_players, repair_names

    fixed = repair_names({"variant": "spiffel", "players": names, "events": []})
    assert len(check_players(fixed["players"])) == len(names)


def test_good_names_are_left_alone():
    from dicecam.scoring import repair_names

    data = {"variant": "spiffel", "players": ["Anna", "Ben"], "events": []}
    assert repair_names(data) is data
