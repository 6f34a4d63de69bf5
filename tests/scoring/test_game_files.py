"""Game files: the seed examples, export/import, undo, state() shape, bad files."""

import json
from pathlib import Path

import pytest

from dicecam.scoring import Game, GameFileError, UnknownVariant

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name):
    return Game.from_dict(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))


def test_wuerfelspiel_seed_sheet_comes_out_exactly():
    game = _load("wuerfelspiel-seed.json")
    bram, ini4 = game.sheet_of("bram"), game.sheet_of("ini4")
    assert [bram.column_total(c) for c in (1, 2, 3)] == [22, 85, 242]
    assert [ini4.column_total(c) for c in (1, 2, 3)] == [56, 73, 269]
    assert game.totals == {"ini4": 1009, "bram": 918}
    assert bram.upper_bonus(3) == 35 and ini4.upper_bonus(3) == 0
    # The seed's "Zug: 19": bram is about to play his 19th turn.
    assert (game.current_player, game.turn, game.finished) == ("bram", 19, False)


@pytest.mark.parametrize(("player", "column", "box", "points"), [
    # a sample of cells read straight off seed 000's table
    ("bram", 1, "sixes", 12), ("bram", 2, "fives", 15), ("bram", 3, "large_straight", 40),
    ("bram", 3, "four_kind", None), ("ini4", 3, "five_kind", 50), ("ini4", 3, "ones", 3),
    ("ini4", 1, "chance", 23), ("ini4", 2, "fours", 16), ("ini4", 1, "threes", None),
])
def test_wuerfelspiel_seed_cells(player, column, box, points):
    assert _load("wuerfelspiel-seed.json").sheet_of(player).box(box, column) == points


def test_wuerfelpoker_seed_turns():
    state = _load("wuerfelpoker-seed.json").state()
    assert state["sheet"] == {"Anna": {"score": 1200, "turns": [0, 1200]},
                              "Ben": {"score": 650, "turns": [650]}}
    assert state["current_player"] == "Ben" and state["turn"] == 2


@pytest.mark.parametrize("name", ["wuerfelspiel-seed.json", "wuerfelpoker-seed.json"])
def test_export_import_round_trip(name):
    game = _load(name)
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again == game
    assert again.state() == game.state()
    assert again.to_dict() == json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def test_state_shape_sheet_family():
    game = Game.new("kniffel", ["Anna", "Ben"]).play(
        {"player": "Anna", "dice": [3, 3, 3, 5, 5], "box": "full_house"})
    state = game.state()
    assert state["variant"] == "spiffel" and state["options"] == {}
    assert (state["current_player"], state["turn"], state["finished"], state["winner"]) == (
        "Ben", 1, False, None)
    anna = state["sheet"]["Anna"]
    assert anna["columns"][0]["boxes"]["full_house"] == 25
    assert anna["columns"][0]["boxes"]["ones"] is None
    assert {k: anna["columns"][0][k] for k in ("upper", "bonus", "lower", "total")} == {
        "upper": 0, "bonus": 0, "lower": 25, "total": 25}
    assert (anna["extra_bonus"], anna["total"]) == (0, 25)
    assert "turn_state" not in state
    json.dumps(state)


def test_undo_returns_the_game_before_the_last_event():
    game = _load("wuerfelpoker-seed.json")
    undone = game.undo()
    assert len(undone.events) == len(game.events) - 1
    assert undone.state()["turn_state"] == {"turn_total": 1200, "dice_left": 2, "hot_dice": False}
    assert undone.current_player == "Anna"
    assert game.totals["Anna"] == 1200          # the original is untouched


def test_variant_alias_is_written_as_its_id():
    assert Game.new("zehntausend", ["A", "B"]).to_dict()["variant"] == "wuerfelpoker"


@pytest.mark.parametrize(("data", "message"), [
    ([], "must be a JSON object"),
    ({"players": ["A"]}, "must name the variant"),
    ({"variant": "spiffel"}, "must name the variant and the players"),
    ({"variant": "schach", "players": ["A"]}, "Unknown game 'schach'"),
    ({"variant": "spiffel", "players": ["A"], "events": {}}, "events must be a list"),
    ({"variant": "spiffel", "players": ["A"], "extra": 1}, "Unknown field 'extra'"),
    ({"variant": "spiffel", "players": ["A", "A"]}, "Two players"),
    ({"variant": "wuerfelpoker", "players": ["A", "B"], "options": {"target": "x"}}, "target"),
    ({"variant": "wuerfelpoker", "players": ["A"]}, "at least 2 players"),
])
def test_bad_file_headers(data, message):
    with pytest.raises(GameFileError, match=message) as info:
        Game.from_dict(data)
    assert info.value.event_number is None


def test_unknown_variant_in_new_is_its_own_error():
    with pytest.raises(UnknownVariant):
        Game.new("schach", ["A"])


def test_missing_options_and_events_default_to_empty():
    game = Game.from_dict({"variant": "wuerfelpoker", "players": ["A", "B"]})
    assert game.to_dict() == {"variant": "wuerfelpoker", "players": ["A", "B"],
                              "options": {"target": 10000, "finish_round": False}, "events": []}
