"""Real tables with their dice taken away (benchmarks/dice_removed.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from dice_removed import main, read_tables, remove_dice, summary  # benchmarks/ is on pytest's pythonpath

from dicecam.vision.reader import DiceReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def _table_with_die() -> np.ndarray:
    image = np.full((100, 120, 3), (30, 90, 150), np.uint8)  # the table
    image[40:60, 50:70] = (240, 240, 240)  # a white die, 20 px
    image[40:60, 0:10] = (0, 0, 255)  # a red token at the left edge, outside the grown box
    return image


@pytest.mark.parametrize(("grow", "painted"), [
    (1.0, (slice(40, 60), slice(50, 70))),
    (1.5, (slice(35, 65), slice(45, 75))),
])
def test_a_die_is_painted_over_in_the_table_colour_and_nothing_else(grow, painted) -> None:
    image = _table_with_die()
    out = remove_dice(image, np.array([[50, 40, 70, 60]], np.float32), grow=grow)
    assert (out[painted] == (30, 90, 150)).all()
    untouched = np.ones(image.shape[:2], bool)
    untouched[painted] = False
    assert (out[untouched] == image[untouched]).all()
    assert (image[40:60, 50:70] == 240).all(), "the photo passed in is left as it was"


def test_a_neighbour_painted_first_does_not_colour_the_next() -> None:
    image = np.full((60, 100, 3), 100, np.uint8)
    image[20:40, 20:40] = 250  # two dice side by side, each ring partly on the other
    image[20:40, 42:62] = 250
    out = remove_dice(image, np.array([[20, 20, 40, 40], [42, 20, 62, 40]], np.float32), grow=1.0)
    # The second die's ring holds the first die's pixels as photographed (250) and the table
    # (100): its median is the table's, whatever colour the first was painted.
    assert (out[20:40, 42:62] == 100).all() and (out[20:40, 20:40] == 100).all()


def test_a_box_at_the_frame_edge_is_painted_where_it_lies_in_the_photo() -> None:
    image = _table_with_die()
    out = remove_dice(image, np.array([[0, 40, 10, 60]], np.float32), grow=1.5)
    assert (out[40:60, 0:10] == (30, 90, 150)).all()


def test_the_summary_counts_sure_and_unsure_boxes_per_photo() -> None:
    from dice_removed import Table

    from dicecam.vision.detections import Dice

    def dice(values: list[int], confidences: list[float]) -> Dice:
        boxes = np.tile(np.array([0, 0, 10, 10], np.float32), (len(values), 1))
        return Dice(boxes, np.array(values, np.int64), np.array(confidences, np.float32))

    tables = [Table("a", dice([1, 2], [0.9, 0.4])), Table("b", Dice.empty()), Table("c", dice([6], [0.7]))]
    assert summary(tables, 0.7) == {"photos": 3, "boxes": 3, "sure": 2, "unsure": 1, "photos_with_sure": 2}


def test_the_sample_tables_hold_no_die_once_their_dice_are_gone() -> None:
    """The shipped reader on the sample photos (a Catan board among them): every die it
    reports as photographed is labelled, and with those removed it reports nothing."""
    reader = DiceReader()
    tables = read_tables(reader, SAMPLES, "all")
    assert len(tables) >= 10
    assert summary(tables, reader.low_confidence)["boxes"] == 0
    # The dice were there to remove: the same photos as taken read as dice.
    from dicecam.vision.dataset import read_dataset
    from dicecam.vision.decode import load_image

    board = next(p for p in read_dataset(SAMPLES) if p.image.startswith("roboflow_dice/"))
    assert len(reader.read(load_image(board.path))) >= 1


def test_the_command_prints_its_figures_as_json(capsys, tmp_path) -> None:
    main([str(SAMPLES), "--split", "all", "--json", "--sheet", str(tmp_path / "sheet.png")])
    out = json.loads(capsys.readouterr().out)
    assert out["photos"] >= 10 and out["sure"] + out["unsure"] == out["boxes"]
    assert (tmp_path / "sheet.png").is_file()


def test_a_grow_under_one_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        main([str(SAMPLES), "--grow", "0.5"])
    assert "--grow" in capsys.readouterr().err


def test_the_sheet_shows_each_sure_box_once_in_rows() -> None:
    from dice_removed import TILE, Table, sheet, window

    from dicecam.vision.detections import Dice

    photo = _table_with_die()
    boxes = np.array([[50, 40, 70, 60]] * 3, np.float32)
    dice = Dice(boxes, np.array([1, 2, 3], np.int64), np.array([0.9, 0.3, 0.8], np.float32))
    sure = [window(photo, b) for b in boxes[dice.confidences >= 0.7]]
    drawn = sheet([Table("a", dice, tuple(sure))], 0.7, columns=2)
    assert drawn.shape == (TILE, 2 * TILE, 3)  # two sure boxes, the unsure one not drawn
    assert sheet([], 0.7, columns=4).shape == (TILE, 4 * TILE, 3)
