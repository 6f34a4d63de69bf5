"""`dicecam recognize` and `dicecam eval`: output format, error lines and exit status."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.cli import main
from dicecam.vision.annotate import CONFIDENT
from dicecam.vision.dataset import read_dataset
from dicecam.vision.decode import load_image
from dicecam.vision.detections import Dice
from dicecam.vision.metrics import score_photo

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_images"
PHOTOS = read_dataset(SAMPLES)
WOOD = next(p for p in PHOTOS if p.image.startswith("matteop65_wood/"))
BYLER = next(p for p in PHOTOS if p.image.startswith("byler_d6/"))
CROP = next(p for p in PHOTOS if p.crop)


def _reading_dice(reader, photo):
    image = load_image(photo.path)
    if photo.crop:
        die = reader.read_crop(image)
        h, w = image.shape[:2]
        return Dice(np.array([[0, 0, w, h]], np.float32), np.array([die.value]),
                    np.array([die.confidence], np.float32))
    return reader.read(image)


def _reading(reader, photo) -> list[dict]:
    """What the shipped model reads in a sample photo, in the CLI's JSON form."""
    return _reading_dice(reader, photo).to_list()


def run_cli(capsys, *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@pytest.fixture
def bad_files(tmp_path) -> dict[str, Path]:
    jpeg = BYLER.path.read_bytes()
    files = {
        "empty": b"",
        "not-an-image": b"Wuerfel sind keine Bilder\n",
        "truncated": jpeg[: len(jpeg) // 2],
        "bomb": b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 40000, 40000, 8, 2, 0, 0, 0))
        + _png_chunk(b"IDAT", zlib.compress(b"\x00" * 100)) + _png_chunk(b"IEND", b""),
    }
    paths = {}
    for name, data in files.items():
        paths[name] = tmp_path / f"{name}.jpg"
        paths[name].write_bytes(data)
    paths["missing"] = tmp_path / "missing.jpg"
    paths["folder"] = tmp_path
    return paths


# --- no model needed: every photo fails before recognition ---------------------------

EXPECTED_ERRORS = {
    "empty": "empty",
    "not-an-image": "not an image",
    "truncated": "incomplete",
    "bomb": "too large",
    "missing": "no such file",
    "folder": "folder",
}


def test_recognize_json_reports_each_bad_photo_and_exits_2(capsys, bad_files):
    names = [str(bad_files[k]) for k in EXPECTED_ERRORS]
    status, lines, err = run_cli(capsys, "recognize", "--json", *names)
    assert status == 2 and err == ""
    records = [json.loads(line) for line in lines]
    assert [r["image"] for r in records] == names  # path as given, in order
    for record, word in zip(records, EXPECTED_ERRORS.values()):
        assert set(record) == {"image", "error"} and word in record["error"]


def test_recognize_text_mode_puts_errors_on_stderr(capsys, bad_files):
    status, lines, err = run_cli(capsys, "recognize", str(bad_files["empty"]))
    assert status == 2 and lines == []
    assert err == f"dicecam: {bad_files['empty']}: the file is empty\n"


def test_recognize_needs_at_least_one_photo(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["recognize"])
    assert exc.value.code == 2


def test_eval_refuses_a_folder_without_labels(capsys, tmp_path):
    status, lines, err = run_cli(capsys, "eval", str(tmp_path))
    assert status == 2 and lines == [] and "labels.jsonl is missing" in err


def test_eval_names_the_splits_there_are(capsys):
    status, _, err = run_cli(capsys, "eval", str(SAMPLES), "--split", "test")
    assert status == 2 and "splits there: dev, train" in err


@pytest.mark.parametrize("bound", ["0", "-2", "six", "2.5"])
def test_eval_refuses_a_bound_on_the_dice_that_is_not_a_count(capsys, bound):
    with pytest.raises(SystemExit) as exit_:
        main(["eval", str(SAMPLES), "--max-dice", bound])
    assert exit_.value.code == 2
    assert f"the number of dice must be a whole number of at least 1, not '{bound}'" in capsys.readouterr().err


@pytest.mark.parametrize("count", ["-1", "101", "two", "2.5"])
def test_recognize_refuses_a_count_of_dice_it_cannot_take(capsys, count):
    with pytest.raises(SystemExit) as exit_:
        main(["recognize", "--dice", count, str(WOOD.path)])
    assert exit_.value.code == 2
    assert f"the number of dice must be a whole number from 0 to 100, not '{count}'" in capsys.readouterr().err


def test_eval_says_when_no_photo_is_small_enough(capsys, tmp_path):
    labels = [{"value": int(v), "box": [float(c) for c in b]} for v, b in zip(BYLER.dice.values, BYLER.dice.boxes)]
    assert len(labels) > 1
    root = _dataset(tmp_path / "set", [(BYLER, labels)])
    status, lines, err = run_cli(capsys, "eval", str(root), "--max-dice", str(len(labels) - 1))
    assert status == 2 and lines == []
    assert f"no photo of {root} (split dev) shows at most {len(labels) - 1} labelled dice" in err


def test_eval_refuses_a_misses_folder_it_cannot_create(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status, _, err = run_cli(capsys, "eval", str(SAMPLES), "--misses", str(blocker / "sub"))
    assert status == 2 and "cannot create" in err


def test_vision_commands_import_nothing_heavy_until_run():
    code = (
        "import sys, dicecam.commands.recognize, dicecam.commands.eval;"
        "print(sorted(m for m in ('cv2', 'onnxruntime', 'numpy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- with the shipped model -------------------------------------------------------------

def test_recognize_json_lines(capsys, reader, bad_files):
    names = [str(WOOD.path), str(bad_files["empty"]), str(BYLER.path)]
    status, lines, _ = run_cli(capsys, "recognize", "--json", *names)
    assert status == 2  # one photo failed
    first, error, last = (json.loads(line) for line in lines)
    assert set(first) == {"image", "dice", "ms"} and first["image"] == names[0]
    assert isinstance(first["ms"], float) and first["ms"] > 0
    for die in first["dice"] + last["dice"]:
        assert set(die) == {"value", "box", "confidence"}
        assert die["value"] in range(1, 7) and len(die["box"]) == 4 and 0 <= die["confidence"] <= 1
    # The command prints what the library reads (the model's accuracy: test_samples.py).
    assert first["dice"] == _reading(reader, WOOD)
    assert last["dice"] == _reading(reader, BYLER)
    assert error == {"image": names[1], "error": "the file is empty"}


def test_recognize_all_good_exits_0_and_loads_the_model_once(capsys, reader, monkeypatch):
    from dicecam.vision.reader import DiceReader

    loads = []
    real_init = DiceReader.__init__

    def counting_init(self, *args, **kwargs):
        loads.append(1)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(DiceReader, "__init__", counting_init)
    status, lines, _ = run_cli(capsys, "recognize", str(WOOD.path), str(BYLER.path), str(CROP.path))
    assert status == 0 and len(lines) == 3 and len(loads) == 1
    # The line reports what the library reads (accuracy is test_samples' job).
    assert lines[0].startswith(f"{WOOD.path}: {len(reader.read(load_image(WOOD.path)))} di")


def test_recognize_annotate_writes_one_photo_per_input(capsys, reader, tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        shutil.copy(WOOD.path, tmp_path / folder / "wurf.jpg")
    out = tmp_path / "drawn"
    names = [str(tmp_path / "a" / "wurf.jpg"), str(tmp_path / "b" / "wurf.jpg"), str(BYLER.path)]
    status, lines, _ = run_cli(capsys, "recognize", "--annotate", str(out), *names)
    assert status == 0 and len(lines) == 3
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 3 and len(set(written)) == 3
    drawn, photo = cv2.imread(str(out / "wurf.annotated.jpg")), cv2.imread(names[0])
    assert drawn is not None and photo is not None and drawn.shape == photo.shape
    # The boxes of confidently read dice are green; the wood table has none of that colour.
    def green(image):
        return int(np.count_nonzero(np.all(np.abs(image.astype(int) - CONFIDENT) <= 40, axis=-1)))
    assert green(drawn) > green(photo) + 100


def test_eval_on_the_samples(capsys, reader):
    status, lines, _ = run_cli(capsys, "eval", str(SAMPLES), "--split", "all", "--json")
    assert status == 0
    result = json.loads(lines[0])
    assert result["photos"] == len(PHOTOS) and result["labelled"] == sum(len(p.dice) for p in PHOTOS)
    # eval's figures are the dataset rule applied to the library's readings, photo by photo.
    exact = sum(score_photo(p.dice, _reading_dice(reader, p)).exact for p in PHOTOS)
    assert result["exact"] == exact and result["exact_roll_rate"] == pytest.approx(exact / len(PHOTOS), abs=1e-4)


@pytest.mark.parametrize("bound", [1, 5, 6])
def test_eval_scores_only_the_photos_of_at_most_so_many_dice(capsys, reader, bound):
    status, lines, _ = run_cli(capsys, "eval", str(SAMPLES), "--split", "all", "--json", "--max-dice", str(bound))
    chosen = [p for p in PHOTOS if len(p.dice) <= bound]
    assert status == 0 and 0 < len(chosen) < len(PHOTOS)
    result = json.loads(lines[0])
    assert result["max_dice"] == bound and result["photos"] == len(chosen)
    assert result["labelled"] == sum(len(p.dice) for p in chosen)
    assert result["exact"] == sum(score_photo(p.dice, _reading_dice(reader, p)).exact for p in chosen)


def _dataset(root: Path, rows: list[tuple]) -> Path:
    """A dataset folder holding copies of sample photos with the given label rows."""
    (root / "img").mkdir(parents=True)
    with (root / "labels.jsonl").open("w") as labels:
        for photo, dice in rows:
            target = root / "img" / photo.path.name
            shutil.copy(photo.path, target)
            labels.write(json.dumps({"image": f"img/{target.name}", "split": "dev",
                                     "size": list(photo.size), "dice": dice}) + "\n")
    return root


def test_eval_scores_and_draws_the_misses(capsys, reader, tmp_path):
    # Labels one pip off what the model reads: every die is now read wrong.
    wrong = [{"value": d["value"] % 6 + 1, "box": d["box"]} for d in _reading(reader, WOOD)]
    crop_wrong = [{"value": reader.read_crop(load_image(CROP.path)).value % 6 + 1, "box": None}]
    # BYLER labelled with the model's own reading: read exactly by construction.
    root = _dataset(tmp_path / "set", [(WOOD, wrong), (CROP, crop_wrong), (BYLER, _reading(reader, BYLER))])
    misses = tmp_path / "misses"
    status, lines, _ = run_cli(capsys, "eval", str(root), "--misses", str(misses))
    assert status == 0
    assert any(line.startswith("  exact-roll rate 0.3333  1/3") for line in lines)
    # Every die of the two wrong photos is a mistake; the right photo's dice are not.
    wood_unsure = sum(d["confidence"] < reader.low_confidence for d in _reading(reader, WOOD))
    crop_unsure = int(reader.read_crop(load_image(CROP.path)).confidence < reader.low_confidence)
    byler_unsure = sum(d["confidence"] < reader.low_confidence for d in _reading(reader, BYLER))
    assert (f"  marked unsure   {wood_unsure + crop_unsure}/{len(wrong) + 1} mistakes, "
            f"{byler_unsure}/{len(_reading(reader, BYLER))} right dice") in "\n".join(lines)
    # A wrong photo is silent when none of its dice is marked unsure.
    silent = int(wood_unsure == 0) + int(crop_unsure == 0)
    assert f"  silent throws   {silent} of the 2 photos read wrong have no die marked unsure" in "\n".join(lines)
    records = [json.loads(line) for line in (misses / "misses.jsonl").read_text().splitlines()]
    assert [r["image"] for r in records] == [f"img/{WOOD.path.name}", f"img/{CROP.path.name}"]
    assert records[1]["labelled"] == crop_wrong
    drawn = sorted(p.name for p in misses.glob("*.miss.jpg"))
    assert drawn == sorted(f"img__{p.path.stem}.miss.jpg" for p in (WOOD, CROP))


def test_eval_counts_an_unreadable_photo_and_exits_2(capsys, reader, tmp_path):
    root = _dataset(tmp_path / "set", [(WOOD, _reading(reader, WOOD))])
    with (root / "labels.jsonl").open("a") as labels:
        labels.write(json.dumps({"image": "img/gone.jpg", "split": "dev", "size": [640, 480],
                                 "dice": [{"value": 3, "box": [1, 1, 50, 50]}]}) + "\n")
    status, lines, err = run_cli(capsys, "eval", str(root), "--json")
    assert status == 2 and "img/gone.jpg: no such file" in err
    result = json.loads(lines[0])
    assert (result["photos"], result["exact"], result["unreadable"]) == (2, 1, 1)


# --- one-die crops and progress ---------------------------------------------------------

@pytest.mark.parametrize(("width", "height", "found", "crop"), [
    (65, 69, 0, True), (71, 65, 1, True), (256, 200, 0, True),
    (65, 69, 2, False),     # two dice: a scene, however small
    (640, 640, 0, False),   # a photo of the table with nothing found
    (200, 60, 0, False),    # a strip, not a die
    (16, 16, 0, True),
    (1, 1, 0, False),       # too few pixels to show any die's pips
    (15, 20, 0, False),
    (0, 0, 0, False),
])
def test_what_looks_like_a_one_die_crop(width, height, found, crop):
    from dicecam.commands.recognize import looks_like_one_die

    assert looks_like_one_die(width, height, found) is crop


def test_recognize_hints_at_a_one_die_crop(capsys, reader):
    whole = reader.read_crop(load_image(CROP.path))
    status, lines, err = run_cli(capsys, "recognize", str(CROP.path))
    assert status == 0 and len(lines) == 1
    assert f"{CROP.path}: hint:" in err and "--crop" in err and f"shows {whole.value}" in err
    status, lines, _ = run_cli(capsys, "recognize", "--json", str(CROP.path))
    hint = json.loads(lines[0])["hint"]
    assert hint["kind"] == "one_die_crop" and hint["whole_photo"]["value"] == whole.value


def test_no_hint_on_a_photo_of_the_table(capsys, reader):
    status, lines, err = run_cli(capsys, "recognize", "--json", str(BYLER.path))
    assert status == 0 and "hint" not in json.loads(lines[0]) and "hint" not in err


def test_recognize_crop_reads_each_photo_as_one_die(capsys, reader):
    image = load_image(CROP.path)
    whole = reader.read_crop(image)
    status, lines, err = run_cli(capsys, "recognize", "--crop", "--json", str(CROP.path))
    (die,) = json.loads(lines[0])["dice"]
    h, w = image.shape[:2]
    assert status == 0 and err == "" and "hint" not in json.loads(lines[0])
    assert die["value"] == whole.value and die["box"] == [0.0, 0.0, float(w), float(h)]


def _on_a_terminal(*args: str) -> str:
    """Run `dicecam ARGS` with stdout and stderr on a pseudo-terminal; what it showed."""
    import os
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "dicecam", *args], cwd=ROOT, stdout=follower,
                            stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the terminal closed: the command is done
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    assert proc.wait(timeout=120) == 0
    return b"".join(chunks).decode("utf-8", "replace")


def test_progress_shows_on_a_terminal_only(reader):
    photos = [str(WOOD.path), str(BYLER.path)]
    shown = _on_a_terminal("recognize", *photos)
    assert f"reading {WOOD.path.name}" in shown and "\r" in shown and "] 0/2" in shown
    # Piped, and with --json, not a byte of it.
    piped = subprocess.run([sys.executable, "-m", "dicecam", "recognize", *photos], cwd=ROOT,
                           capture_output=True, text=True, check=True)
    assert "\r" not in piped.stdout + piped.stderr and "reading" not in piped.stderr
    assert "reading" not in _on_a_terminal("recognize", "--json", *photos)


def test_eval_told_the_count_says_which_photos_hold_more_dice_than_it(capsys, reader, tmp_path):
    # A photo whose labels name only some of the dice it shows: told that count, the others are left out.
    seen = _reading(reader, BYLER)
    assert len(seen) >= 3
    folder = _dataset(tmp_path / "fewer", [(BYLER, seen[:2])])
    status, lines, _ = run_cli(capsys, "eval", str(folder), "--split", "all", "--json", "--dice")
    result = json.loads(lines[0])
    assert status == 0 and result["throws_with_dice_left_out"] == 1
    assert result["silent_throws_left_out"] <= result["silent_throws"]
    # Labelled with every die it shows, nothing is left out; without a count the figures are not given.
    folder = _dataset(tmp_path / "all", [(BYLER, seen)])
    assert json.loads(run_cli(capsys, "eval", str(folder), "--split", "all", "--json", "--dice")[1][0])[
        "throws_with_dice_left_out"] == 0
    assert "throws_with_dice_left_out" not in json.loads(
        run_cli(capsys, "eval", str(folder), "--split", "all", "--json")[1][0])
