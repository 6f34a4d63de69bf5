"""`dicecam score`, `replay` and `variants`, through main() and as a real process."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dicecam.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def dicecam(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "dicecam", *args], capture_output=True,
                          text=True, cwd=ROOT, input=stdin, timeout=60)


def test_score_json_sheet_family(capsys):
    assert main(["score", "kniffel", "3", "3", "3", "5", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "ones": 0, "twos": 0, "threes": 9, "fours": 0, "fives": 10, "sixes": 0,
        "three_kind": 19, "four_kind": 0, "full_house": 25, "small_straight": 0,
        "large_straight": 0, "five_kind": 0, "chance": 19,
    }


def test_score_json_wuerfelpoker(capsys):
    assert main(["score", "zehntausend", "2", "2", "2", "1", "5", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["best"], out["bust"]) == (350, False)
    assert out["options"][0] == {"keep": [1, 2, 2, 2, 5], "points": 350}
    assert len(out["options"]) == 7


def test_score_json_bust(capsys):
    assert main(["score", "wuerfelpoker", "4", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"best": 0, "bust": True, "options": []}


def test_score_text_uses_the_variants_labels(capsys):
    assert main(["score", "wuerfelware", "2", "2", "3", "3", "3"]) == 0
    out = capsys.readouterr().out
    assert "WEBWARE" in out and "25" in out
    assert main(["score", "yahtzee", "1", "2", "3", "4", "5", "--lang", "en"]) == 0
    assert "Large straight" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["score", "schach", "1", "2", "3", "4", "5"], "Unknown game 'schach'"),
    (["score", "spiffel", "1", "2", "3", "4", "7"], "Dice must be numbers 1 to 6"),
    (["score", "spiffel", "1", "2", "x", "4", "5"], "Dice must be numbers 1 to 6"),
    (["score", "spiffel", "1", "2", "3", "4"], "must have 5 dice, not 4"),
    (["score", "wuerfelpoker", "1", "2", "3", "4", "5", "6", "1"], "1 to 6 dice, not 7"),
])
def test_score_bad_input_exits_2_with_one_line(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_replay_seed_games_json():
    out = dicecam("replay", str(EXAMPLES / "wuerfelspiel-seed.json"), "--json")
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert state["totals"] == {"ini4": 1009, "bram": 918}
    assert [c["total"] for c in state["sheet"]["bram"]["columns"]] == [22, 85, 242]
    assert [c["total"] for c in state["sheet"]["ini4"]["columns"]] == [56, 73, 269]
    assert (state["finished"], state["winner"]) == (False, None)

    out = dicecam("replay", str(EXAMPLES / "wuerfelpoker-seed.json"), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["totals"] == {"Anna": 1200, "Ben": 650}


def test_replay_text(capsys):
    assert main(["replay", str(EXAMPLES / "wuerfelspiel-seed.json")]) == 0
    out = capsys.readouterr().out
    assert "bram: Gesamt 918" in out and "ini4: Gesamt 1009" in out
    assert "3 Gleiche" in out and "Am Zug: bram (Runde 19)" in out


def test_replay_from_stdin():
    out = dicecam("replay", "-", "--json", stdin=(EXAMPLES / "wuerfelpoker-seed.json").read_text())
    assert out.returncode == 0 and json.loads(out.stdout)["turn"] == 2


def test_replay_finished_game_names_the_winner(tmp_path, capsys):
    events = [{"player": "A", "throw": [1, 1, 1, 2, 3, 4], "keep": [1, 1, 1]},
              {"player": "A", "bank": True}]
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"variant": "wuerfelpoker", "players": ["A", "B"],
                                "options": {"target": 1000}, "events": events}))
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert (state["finished"], state["winner"]) == (True, "A")
    assert main(["replay", str(path), "--lang", "en"]) == 0
    assert "Winner: A" in capsys.readouterr().out


@pytest.mark.parametrize(("content", "message"), [
    ('{"variant": "spiffel", "players": ["A", "B"], "events": ['
     '{"player": "A", "dice": [1,2,3,4,5], "box": "chance"},'
     '{"player": "B", "dice": [1,2,3,4,5], "box": "chance"},'
     '{"player": "B", "dice": [1,2,3,4,5], "box": "ones"}]}', "Event 3: It is A's turn, not B's"),
    ('{"variant": "spiffel", "players": ["A"], "events": ['
     '{"player": "A", "dice": [1,2,3,4,9], "box": "chance"}]}', "Event 1: Dice must be numbers 1 to 6"),
    ('{"variant": "nope", "players": ["A"]}', "Unknown game 'nope'"),
    ("{not json", "not a JSON game file"),
    ("[1, 2]", "must be a JSON object"),
    ("", "not a JSON game file"),
])
def test_replay_bad_file_exits_2_with_one_line(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    out = dicecam("replay", str(path))
    assert out.returncode == 2
    assert message in out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_replay_missing_file(tmp_path):
    out = dicecam("replay", str(tmp_path / "none.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr and "Traceback" not in out.stderr


def test_replay_binary_file(tmp_path):
    path = tmp_path / "photo.json"
    path.write_bytes(b"\xff\xd8\xff\xe0 not text")
    out = dicecam("replay", str(path))
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_variants_one_line_each():
    out = dicecam("variants")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert len(lines) == 5
    assert lines[0].startswith("spiffel, kniffel:")
    assert lines[4].startswith("wuerfelpoker, zehntausend:")
    assert [line.split(",")[0].split(":")[0] for line in lines] == [
        "spiffel", "wuerfelware", "wuerfelspiel", "yahtzee", "wuerfelpoker"]


def test_variants_json(capsys):
    assert main(["variants", "--json", "--lang", "en"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [v["id"] for v in data] == ["spiffel", "wuerfelware", "wuerfelspiel", "yahtzee",
                                       "wuerfelpoker"]
    assert data[4]["aliases"] == ["zehntausend"] and data[4]["dice_count"] == 6


@pytest.mark.parametrize("args", [
    ["score", "spiffel", "1", "2", "3", "4", "5"],
    ["score", "wuerfelpoker", "1", "2", "3", "4", "5", "6"],
    ["replay", str(EXAMPLES / "wuerfelspiel-seed.json")],
    ["variants"],
])
def test_scoring_commands_do_not_import_heavy_libraries(args):
    code = (
        "import sys\n"
        "from dicecam.cli import main\n"
        f"status = main({args!r})\n"
        "heavy = sorted(m for m in ('cv2', 'onnxruntime', 'flask', 'torch') if m in sys.modules)\n"
        "print('HEAVY', heavy, status)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "HEAVY [] 0"


def test_replay_takes_several_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"variant": "nope", "players": ["A"]}')
    files = [str(EXAMPLES / "wuerfelspiel-seed.json"), str(bad), str(EXAMPLES / "wuerfelpoker-seed.json")]
    out = dicecam("replay", *files)
    assert out.returncode == 2  # one file was refused; the others are still shown
    assert f"== {files[0]} ==" in out.stdout and f"== {files[2]} ==" in out.stdout
    assert "bram: Gesamt 918" in out.stdout and "Anna: Punkte 1200" in out.stdout
    assert f"== {files[1]} ==" not in out.stdout
    assert out.stderr.count("\n") == 1 and "Unknown game 'nope'" in out.stderr

    out = dicecam("replay", "--json", *files)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["file"] for line in lines] == files
    assert lines[0]["state"]["totals"] == {"ini4": 1009, "bram": 918}
    assert "Unknown game 'nope'" in lines[1]["error"]
    assert lines[2]["state"]["totals"] == {"Anna": 1200, "Ben": 650}


def test_replay_usage_names_replay():
    out = dicecam("replay")
    assert out.returncode == 2 and "usage: dicecam replay" in out.stderr


def test_replay_writes_a_spiffel_scratch_as_xxx(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"variant": "kniffel", "players": ["A"], "events": [
        {"player": "A", "dice": [1, 2, 3, 4, 6], "box": "five_kind"}]}))
    assert main(["replay", str(path)]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  Spiffel "))
    assert row.split() == ["Spiffel", "XXX"]


@pytest.mark.parametrize(("args", "words"), [
    (["score", "kniffel", "1", "2", "3", "4", "5", "--lang", "en"],
     "kniffel: an alias of Spiffel; the five-of-a-kind box is called Spiffel in this game"),
    (["score", "Kniffel", "1", "2", "3", "4", "5"], "kniffel: ein anderer Name für Spiffel"),
    (["score", "zehntausend", "1", "2", "3", "4", "5", "6", "--lang", "en"], "an alias of Würfelpoker"),
    (["variants", "kniffel", "--lang", "en"],
     "kniffel: an alias of Spiffel; the five-of-a-kind box is called Spiffel in this game"),
])
def test_aliases_explain_themselves(args, words, capsys):
    assert main(args) == 0
    assert words in capsys.readouterr().out


def test_an_id_prints_no_alias_note(capsys):
    assert main(["score", "spiffel", "1", "2", "3", "4", "5", "--lang", "en"]) == 0
    assert "alias" not in capsys.readouterr().out


def test_variants_one_game_shows_its_sheet(capsys):
    assert main(["variants", "wuerfelware", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Kasse (three of a kind)" in out and "Bonus (+35): +35 once the upper boxes reach 65" in out
    assert "ERP bonus: Every further ERP earns +100" in out
    assert main(["variants", "wuerfelspiel"]) == 0
    assert "Spalten: ×1  ×2  ×3" in capsys.readouterr().out


def test_variants_one_game_json(capsys):
    assert main(["variants", "kniffel", "--json", "--lang", "en"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "spiffel" and data["aliases"] == ["kniffel"]
    assert data["alias_note"].startswith("kniffel: an alias of Spiffel")
    assert data["extra_bonus"]["box_label"] == "Spiffel" and data["scratch_mark"] == "XXX"


def test_variants_unknown_game_exits_2_with_one_line():
    out = dicecam("variants", "schach")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Unknown game 'schach'" in out.stderr


def test_version():
    from importlib.metadata import version

    out = dicecam("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"dicecam {version('dicecam')}"
